// Featherstone's divide-and-conquer algorithm (DCA) at acceleration level on open trees
// (thesis section 3.4, the force-level sweep of 3.4.2; Featherstone 1999), in the ODE form.
//
// Every subassembly of the assembly tree is described by its handle equations, linear in the
// spatial forces f_1 (through its top body's parent joint) and f_2 (the sum of the forces on its
// bottom body from the joints below it):
//   a_1 = Phi_11 f_1 + Phi_12 f_2 + b_1,   a_2 = Phi_21 f_1 + Phi_22 f_2 + b_2.
// All vectors are in world axes; a handle's are about the origin of its body (a_1, f_1 about the
// top body's origin, a_2, f_2 about the bottom body's), and a joint is solved about its child
// body's origin after shifting the other side there (the thesis's shift matrices, eq. (3.18)-
// (3.19), (3.23)). Lever arms thus stay as long as a subassembly, not as far as the world origin,
// which keeps the mobilities well conditioned on long chains. Assembly runs from the leaves to the
// roots, one tier at a time; each root is then solved against the ground, and disassembly runs
// back down, giving each joint's spatial force and its joint accelerations.
//
// Joint forces are eliminated with the motion subspace S alone: with K the sum of the two
// subassemblies' mobilities at the joint, W = K^-1 - K^-1 S (S^T K^-1 S)^-1 S^T K^-1 equals the
// thesis's D (D^T K D)^-1 D^T of eq. (3.38)-(3.39) for any D spanning the constraint directions,
// and no D is formed. The nodes of one tier are independent; with `threads` > 1 they are spread
// over OpenMP threads, and every node is computed by the same operations whichever thread runs
// it, so results are identical bit for bit for every thread count.
#pragma once

#include <vector>

#include "articula/dynamics/assembly_tree.hpp"
#include "articula/dynamics/formulation.hpp"

namespace articula {

struct DcaOptions {
  int threads = 1;  ///< OpenMP threads over the nodes of a tier (1 = serial; ignored without OpenMP)
  PairingPolicy pairing = balancedPairing;
};

class DcaFormulation final : public Formulation {
 public:
  /// Throws articula::Error for a model with loop closures or prescribed motion, or threads < 1.
  explicit DcaFormulation(const Model& model, const DcaOptions& options = {});
  std::string_view name() const override { return "dca"; }
  /// Joint accelerations at (t, q, v), force elements and gravity included. Does not allocate.
  /// Throws articula::Error naming the joint whose mobility is singular or not finite.
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;

  const AssemblyTree& tree() const { return tree_; }
  /// After accelerations(): the spatial force that body i receives from its parent across joint i
  /// (world axes, about body i's origin; index 0 unused), gravity included through the
  /// base acceleration (the ground accelerates at -g), applied joint forces included.
  const std::vector<Vec6>& jointForces() const { return jointForce_; }

 private:
  // The elimination of one joint's force (eq. (3.38)-(3.39)): f = Y tau - W r for the relative
  // acceleration K f + r = S qdd, and qdd = Y^T r + Minv tau.
  struct JointElimination {
    Mat6 W;
    SubspaceForce Y;
    Vec6 e;          ///< Y tau - W beta, the force at r = beta
    SmallVector mu;  ///< Y^T beta + Minv tau, the joint accelerations at r = beta
  };
  struct NodeEquations {
    Mat6 phi11, phi12, phi22;  ///< Phi_21 = Phi_12^T
    Vec6 b1, b2;
    Vec6 f1, f2;    ///< handle forces, known after disassembly
    Mat6 WPhi, WX;  ///< joins: W Phi^A_21 and W X (X couples C's f_2 into the joint)
    JointElimination joint;
  };

  void leafEquations(int body);
  bool eliminate(const Mat6& K, int joint, const Vec6& beta, JointElimination& out) const;
  void assemble(int node);
  void solveRoot(int node, Eigen::VectorXd& vdot);
  void disassemble(int node, Eigen::VectorXd& vdot);
  /// From the origin of joint j's parent body to the origin of its child body, world axes.
  Vec3 jointOffset(int j) const;

  const Model& model_;
  Workspace ws_;
  AssemblyTree tree_;
  int threads_;
  std::vector<Mat3> inverseCentralInertia_;  // per body, body axes
  std::vector<SubspaceForce> S_;             // motion subspaces, world coordinates
  std::vector<Vec6> c_;                      // velocity-product accelerations, world coordinates
  std::vector<NodeEquations> eq_;
  std::vector<Vec6> jointForce_;
  std::vector<char> singular_;  // per joint: its elimination failed in the last evaluation
};

}  // namespace articula
