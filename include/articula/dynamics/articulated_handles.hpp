// The handle equations of dynamics/handle_assembly.hpp in impedance form, for assembly trees in
// which every join hangs a complete subtree from the top body of the subassembly above it
// (AssemblyTree::articulated: the serial tree). Every subassembly is then one body h with
// complete subtrees hanging from it, its handle equation m_h = Phi_11 f_1 + b_1 is invertible,
// and it is kept as
//   f_1 = K m_h + beta + sum over h's joints to subtrees not yet joined of f_child,
// with K = Phi_11^-1 the articulated inertia of the subassembly and beta = -K b_1 its bias. A
// leaf has K = I, its inertia, and beta = -f for the force f applied to it.
//
// Every vector and inertia here is in world axes and about one reference point per tree of the
// model: the origin of the body on the ground at its top (as the force sums of
// dynamics/hdca.hpp). Joins then add without shifts (the thesis's shift matrices, eq. (3.18)-
// (3.23), act once per body, on its leaf inertia, its joint's subspace and bias, and its results),
// and a join across joint j (m_child = m_h + S qdot + c, S^T f_child = tau_j) eliminates the
// joint's rates as in the articulated-body algorithm (Featherstone, Rigid Body Dynamics
// Algorithms, ch. 7), with U = K_B S and D = S^T U:
//   qdot = D^-1 (u - U^T m_h),  u = tau - S^T beta_B - U^T c,
//   f_child = K_B (m_h + S qdot + c) + beta_B = (K_B - U D^-1 U^T) m_h + K_B c + beta_B + U D^-1 u,
// so K_C = K_A + K_B - U D^-1 U^T and beta_C = beta_A + K_B c + beta_B + U D^-1 u. This factors
// an nv x nv matrix per joint where the mobility form factors the (D - nv) x (D - nv) constraint
// block, and updates K by a rank-nv product where the mobility form takes a Gram product of rank
// D - nv: on a spatial chain of revolute joints, 1 against 5. Disassembly gives each joint's rates,
// each body's motion and each joint's force from the equations above; the ground connection is
// a join with m_h the ground's motion.
#pragma once

#include <vector>

#include "articula/dynamics/assembly_tree.hpp"
#include "articula/dynamics/handle_space.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

template <class Scalar, class Space>
class ArticulatedHandles {
 public:
  static constexpr int D = Space::D;
  using V = typename Space::template Vec<Scalar>;
  using M = typename Space::template Mat<Scalar>;
  using Offset = typename Space::template Offset<Scalar>;
  using VecX = VectorXT<Scalar>;
  using Sub = Eigen::Matrix<Scalar, D, Eigen::Dynamic, 0, D, 6>;

  /// For tree.articulated() trees.
  ArticulatedHandles(const Model& model, const AssemblyTree& tree);

  /// Leaf i from the workspace's poses and its joint's motion subspace S (world axes, about the
  /// body's origin): K = the body's inertia, beta = 0.
  void leaf(const Workspace& ws, int body, const Sub& S);
  /// beta = -f for the force f applied to body i (world axes, about its origin).
  void setLeafForce(int body, const V& force) {
    node(body - 1).beta = -Space::template forceAt<Scalar>(force, offset_[static_cast<std::size_t>(body)]);
  }
  void clearLeafForce(int body) { node(body - 1).beta.setZero(); }
  /// After disassembly: body i's motion (world axes, about its origin), into m.
  void bodyMotion(int body, V& m) const {
    m = Space::template motionAt<Scalar>(nodes_[static_cast<std::size_t>(body) - 1].motion,
                                         offset_[static_cast<std::size_t>(body)]);
  }

  /// The join of node `node` (n, tier >= 1) across its joint, whose bias c is about its child's
  /// origin (m_child = m_parent + S qdot + c). Returns false when S^T K_B S is not positive
  /// definite or not finite.
  bool assemble(int node, const AssemblyNode& n, const V& c, const VecX& load);
  /// The bias part of assemble alone, for new right-hand sides at the last configuration.
  bool assembleBiases(int node, const AssemblyNode& n, const V& c, const VecX& load);
  /// The connection of root k (node `node`, top joint `joint`) to the ground: factorRoot once per
  /// configuration, solveRoot for each right-hand side, writing the joint's rates and its force
  /// (about the child's origin); groundMotion is about the root body's origin.
  bool factorRoot(int k, int node, int joint);
  bool solveRoot(int k, int node, int joint, const V& c, const V& groundMotion, const VecX& load, VecX& rates,
                 V& force);
  /// Disassembly of node `node` (n, tier >= 1): its joint's rates and force (about the child's
  /// origin), and its children's motions.
  void disassemble(int node, const AssemblyNode& n, const V& c, VecX& rates, V& force);

 private:
  using SmallM = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
  using SmallV = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, 6, 1>;
  // One joint's elimination: U = K S, D^-1 = (S^T K S)^-1, u = tau - S^T beta - U^T c.
  struct JointFactor {
    Sub U;
    SmallM Dinv;
    SmallV u;
  };
  struct Node {
    M K;
    V beta;
    V motion;
    JointFactor joint;  ///< internal nodes: the join's joint
  };

  Node& node(int k) { return nodes_[static_cast<std::size_t>(k)]; }
  bool factor(const M& K, int joint, JointFactor& f) const;
  /// Joint j's bias c (about its child's origin) about the reference point.
  V referenceBias(int joint, const V& c) const;
  bool jointLoad(int joint, const V& c, const V& beta, const VecX& load, JointFactor& f) const;
  /// The joint's rates for the parent-side motion m; returns the child's motion m + c + S qdot.
  V childMotion(int joint, const JointFactor& f, const V& c, const V& m, VecX& rates) const;
  /// The force f_child = K m + beta of the subassembly below a joint, moved to its child's
  /// origin, into f.
  void childForce(int joint, const Node& below, V& f) const;

  const Model& model_;
  std::vector<int> reference_;     // per body: the body on the ground above it (its tree's reference)
  std::vector<Offset> offset_;     // per body: from the reference point to its origin
  std::vector<Sub> S_;             // per joint: its motion subspace about the reference point
  std::vector<Node> nodes_;
  std::vector<JointFactor> rootJoint_;  // per root, in roots() order
};

}  // namespace articula
