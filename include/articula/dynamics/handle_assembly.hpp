// The assembly and disassembly of handle equations on an assembly tree (thesis section 3.4),
// shared by the acceleration-level DCA (dynamics/dca.hpp) and the velocity-level HDCA
// (dynamics/hdca.hpp). Both solve the same linear problem with different right-hand sides:
//   handle motion  m_1 = Phi_11 f_1 + Phi_12 f_2 + b_1,   m_2 = Phi_21 f_1 + Phi_22 f_2 + b_2,
// where m is a spatial acceleration (DCA) or velocity (HDCA) and f a spatial force or momentum
// (impulse). The mobilities Phi depend on the configuration only (thesis, text after eq. (4.49):
// they are the same for the velocity, acceleration and adjoint problems); the right-hand sides
// are the bias b of each leaf, the joint terms c (velocity-product accelerations, or zero), the
// joint loads (applied joint forces tau, or the joint momenta p) and the motion of the ground.
//
// All vectors are in world axes; a handle's are about the origin of its body (m_1, f_1 about the
// top body's origin, m_2, f_2 about the bottom body's), and a joint is solved about its child
// body's origin after shifting the other side there (the thesis's shift matrices, eq. (3.18)-
// (3.19), (3.23)). A joint's force f and rates qdot follow from its relative motion K f + r =
// S qdot and its load S^T f = tau (K the sum of the two subassemblies' mobilities at the joint)
// as f = E tau - W r, qdot = Z tau + E^T r, with W = D (D^T K D)^-1 D^T of the thesis's eq.
// (3.38)-(3.39) (D spanning the constraint directions, D^T S = 0), E = K^-1 S Z and
// Z = (S^T K^-1 S)^-1. W is kept as a factor, W = F^T F, so that every update of the handle
// equations is a Gram product of F times a mobility; two ways to factor it:
//  - with S the first coordinate axis, S = sign e_0 (revolute joints in the plane: an axis
//    joint), D is the other axes and F = L^-1 D^T with D^T K D = L L^T: the joint-frame
//    elimination, K without its row and column 0 (2x2 in the plane); F's column 0 is zero, so
//    the products with F skip it;
//  - otherwise K = L L^T and L^-1 S = Q R (thin QR), F = N^T L^-1 with N an orthonormal basis
//    of the complement of Q (W = L^-T (1 - Q Q^T) L^-1): no D is formed, and the projection
//    keeps the digits that K^-1 - K^-1 S (S^T K^-1 S)^-1 S^T K^-1 loses to cancellation on long
//    spatial chains (5e-9 instead of 3e-8 relative error of the momentum rates at 64 links).
// Either way F has D - nv nonzero rows, the first ones: the products take D - 1 rows of it (2 in
// the plane instead of 3), all D only for a fixed joint. F is kept transposed, Ft = F^T (D x D - 1),
// and the products of the assembly run along Ft's columns of D entries in 6D, which fill whole
// SIMD packets (F's rows of 5 do not), and along its rows of 2 in the plane.
// On articulated trees (AssemblyTree::articulated, the serial tree) the same equations are kept in
// impedance form instead (dynamics/articulated_handles.hpp): every method below then works on those.
// Each method below works on one node and writes only that node
// (and, in disassembly, its two children and its joint), so the nodes of one tier may run on
// different threads; each is computed by the same operations on any thread.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "articula/dynamics/articulated_handles.hpp"
#include "articula/dynamics/assembly_tree.hpp"
#include "articula/dynamics/handle_space.hpp"
#include "articula/dynamics/tree_schedule.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

/// The handle equations in the scalar type Scalar and the vector space Space
/// (dynamics/handle_space.hpp: 6D, or the plane); inputs from the (double) workspace are rounded
/// to Scalar. HandleAssembly is the double 6D one.
template <class Scalar, class Space = SpatialSpace>
class BasicHandleAssembly {
 public:
  static constexpr int D = Space::D;
  using V = typename Space::template Vec<Scalar>;
  using M = typename Space::template Mat<Scalar>;
  using Offset = typename Space::template Offset<Scalar>;
  using VecX = VectorXT<Scalar>;
  using Sub = Eigen::Matrix<Scalar, D, Eigen::Dynamic, 0, D, 6>;
  using SmallM = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
  using SmallV = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, 6, 1>;
  /// Ft's storage order: its columns of D entries in 6D, its rows of D - 1 = 2 in the plane, so
  /// that the products run on whole SIMD packets of two doubles (see the top of this file).
  static constexpr int FactorOrder = D % 2 == 0 ? Eigen::ColMajor : Eigen::RowMajor;

  /// The handle equations of the model's spanning tree (loop closures are the caller's). Throws
  /// articula::Error, naming `formulation`, for threads < 1.
  BasicHandleAssembly(const Model& model, const PairingPolicy& pairing, int threads, std::string_view formulation);

  const AssemblyTree& tree() const { return tree_; }
  /// How `threads` threads share the sweeps over the tree.
  const TreeSchedule& schedule() const { return schedule_; }
  int threads() const { return team_->size(); }
  /// Calls `sweeps` (TreeSchedule sweeps) on every thread of the assembly's team; on the calling
  /// thread alone when threads == 1.
  template <class Sweeps>
  void run(const Sweeps& sweeps) const {
    team_->run(sweeps);
  }

  /// Leaf coefficients of body i (thesis eq. (3.29)-(3.31), (4.49c)): a rigid body with spatial
  /// inertia I about its origin has both handles' Phi = I^-1 and b = 0; also turns joint i's
  /// motion subspace into world axes. Reads the body poses its Space reads (handle_space.hpp).
  void leaf(const Workspace& ws, int body);
  /// Sets leaf i's bias to b = Phi f for the force f on it (world axes, about its origin).
  void setLeafForce(int body, const V& force);
  /// Sets leaf i's bias to zero (no force on it).
  void clearLeafForce(int body);
  /// Joint i's bias term c in the relative motion m_child = m_parent + S qdot + c (world axes,
  /// about the child's origin); zero unless set.
  V& jointBias(int joint) { return c_[static_cast<std::size_t>(joint)]; }
  /// Joint i's motion subspace in world axes (after leaf(i)).
  const Sub& motionSubspace(int joint) const { return S_[static_cast<std::size_t>(joint)]; }

  /// Assembly of a node of tier >= 1 (eq. (3.42)); `load` holds each joint's S^T f.
  void assemble(const Workspace& ws, int node, const VecX& load);
  /// The right-hand-side part of assemble alone, for new leaf biases, joint biases or loads at
  /// the configuration of the last assemble (the mobilities are kept).
  void assembleBiases(const Workspace& ws, int node, const VecX& load);
  /// Base connection of root k (eq. (3.44)) to the ground: factorRoot once per configuration,
  /// then solveRoot for the ground moving with `groundMotion`, writing the root joint's rates.
  void factorRoot(int k);
  void solveRoot(int k, const V& groundMotion, const VecX& load, VecX& rates);
  /// Disassembly of a node of tier >= 1 (eq. (3.39)); writes its joint's rates.
  void disassemble(const Workspace& ws, int node, VecX& rates);
  /// One sweep: leafUp(body) sets each leaf (leaf(), jointBias, setLeafForce), then assembly
  /// from the leaves to the roots, every root against the ground, disassembly back to the leaves
  /// writing every joint's rates, and leafDown(body) after each body's handle forces are known.
  /// A TreeSchedule sweep (call it in run()).
  template <class LeafUp, class LeafDown>
  void solve(const Workspace& ws, const V& groundMotion, const VecX& load, VecX& rates,
             const LeafUp& leafUp, const LeafDown& leafDown) {
    sweep(ws, groundMotion, load, rates, leafUp, leafDown, true);
  }
  /// The same sweep for new right-hand sides (leaf biases set by leafUp with setLeafForce or
  /// clearLeafForce, joint biases, loads, ground motion) at the configuration of the last solve:
  /// mat-vec products only, several times cheaper than solve.
  template <class LeafUp, class LeafDown>
  void resolve(const Workspace& ws, const V& groundMotion, const VecX& load, VecX& rates,
               const LeafUp& leafUp, const LeafDown& leafDown) {
    sweep(ws, groundMotion, load, rates, leafUp, leafDown, false);
  }

  /// The node and root calls of solve's (factor) or resolve's sweep, for a sweep of TreeSchedule
  /// that adds its own leaf calls (solve's leafUp and leafDown).
  struct SolveSteps {
    BasicHandleAssembly& self;
    const Workspace& ws;
    const V& groundMotion;
    const VecX& load;
    VecX& rates;
    bool factor = true;

    void up(int node) const {
      if (factor)
        self.assemble(ws, node, load);
      else
        self.assembleBiases(ws, node, load);
    }
    void atRoots() const {
      for (int k = 0; k < static_cast<int>(self.tree_.roots().size()); ++k) {
        if (factor) self.factorRoot(k);
        self.solveRoot(k, groundMotion, load, rates);
      }
    }
    void down(int node) const { self.disassemble(ws, node, rates); }
  };

  /// After disassembly: the force (momentum) body i receives from its parent across joint i
  /// (world axes, about body i's origin; index 0 unused).
  const std::vector<V>& jointForces() const { return jointForce_; }
  /// After disassembly: body i's motion (world axes, about its origin) from its leaf equation,
  /// into m.
  void leafMotion(int body, V& m) const;
  /// Throws articula::Error naming the first joint whose elimination failed in the last sweep.
  void throwIfSingular(std::string_view formulation) const;

 private:
  // The elimination of one joint's force (eq. (3.38)-(3.39), see the top of this file), with its
  // values at r = beta: f = e + W (beta - r) and qdot = mu - E^T (beta - r).
  struct JointElimination {
    Eigen::Matrix<Scalar, D, D, FactorOrder> Ft;  ///< W = Ft Ft^T (rank D - nv: the columns beyond it zero)
    bool fullRank = false;  ///< a fixed joint (nv = 0): all D columns of Ft, else the first D - 1
    bool axis = false;      ///< an axis joint (S = sign e_0): Ft's row 0 is zero
    Sub E;     ///< D x nv
    SmallM Z;  ///< nv x nv
    V e;       ///< the force at r = beta
    SmallV mu; ///< the joint rates at r = beta
  };
  struct NodeEquations {
    M phi11, phi12, phi22;  ///< Phi_21 = Phi_12^T; a leaf's are all Phi_11, kept once (leaf())
    bool leaf = false;
    const M& coupling() const { return leaf ? phi11 : phi12; }  ///< Phi_12
    const M& lower() const { return leaf ? phi11 : phi22; }     ///< Phi_22
    V b1, b2;
    V f1, f2;  ///< handle forces, known after disassembly
    JointElimination joint;
  };

  bool factorJoint(const M& K, int joint, JointElimination& out) const;
  bool factorAxisJoint(const M& K, Scalar sign, JointElimination& out) const;
  bool jointBiases(int joint, const V& beta, const VecX& load, JointElimination& el) const;
  template <class LeafUp, class LeafDown>
  void sweep(const Workspace& ws, const V& groundMotion, const VecX& load, VecX& rates,
             const LeafUp& leafUp, const LeafDown& leafDown, bool factor) {
    const SolveSteps steps{*this, ws, groundMotion, load, rates, factor};
    schedule_.sweep(
        leafUp, [&](int node) { steps.up(node); }, [&] { steps.atRoots(); }, [&](int node) { steps.down(node); },
        leafDown);
  }
  /// C's mobilities from A's and B's across the eliminated joint (in assemble), with the first
  /// Rows columns of Ft; Axis: the joint is an axis joint.
  template <int Rows, bool Axis>
  void combineMobilities(const AssemblyNode& n, const NodeEquations& A, const NodeEquations& B, NodeEquations& C,
                         const Offset& s) const;
  /// C's right-hand sides (assembleBiases) with the joint's offset s (jointOffset).
  void combineBiases(int node, const Offset& s, const VecX& load);
  /// An axis joint's Ft without its zero row 0 ((D - 1) x (D - 1)).
  static auto axisFactor(const JointElimination& el) { return el.Ft.template bottomLeftCorner<D - 1, D - 1>(); }
  /// X Ft for an axis joint: X without its column 0 times axisFactor.
  template <class Mat>
  static Eigen::Matrix<Scalar, D, D - 1, FactorOrder> timesAxisFactor(const Mat& X, const JointElimination& el) {
    return X.template rightCols<D - 1>().lazyProduct(axisFactor(el));
  }
  /// W v = Ft Ft^T v.
  [[gnu::always_inline]] static V weigh(const JointElimination& el, const V& v) {
    if (el.fullRank) return el.Ft * V(el.Ft.transpose() * v);
    if (el.axis) {
      const auto Ft = axisFactor(el);
      V w;
      w[0] = Scalar(0);
      w.template tail<D - 1>().noalias() = Ft * Eigen::Matrix<Scalar, D - 1, 1>(Ft.transpose() * v.template tail<D - 1>());
      return w;
    }
    const auto Ft = el.Ft.template leftCols<D - 1>();
    return Ft * Eigen::Matrix<Scalar, D - 1, 1>(Ft.transpose() * v);
  }
  /// The joint's force and rates for the relative-motion change y = beta - r.
  static void applyElimination(const JointElimination& el, const V& y, V& f, Eigen::Ref<VecX> qdot);
  /// From the origin of joint j's parent body to the origin of its child body, world axes.
  Offset jointOffset(const Workspace& ws, int j) const;

  const Model& model_;
  AssemblyTree tree_;
  TreeSchedule schedule_;
  std::unique_ptr<parallel::ThreadTeam> team_;  // behind a pointer: run() is const, the team moves
  std::vector<Mat3> inverseCentralInertia_;  // per body, body axes
  std::vector<Sub> S_;             // motion subspaces, world axes
  std::vector<char> axis_;         // per joint: an axis joint, S = axisSign_ e_0 at every configuration
  std::vector<Scalar> axisSign_;
  std::vector<V> c_;                      // joint bias terms, world axes
  std::vector<NodeEquations> eq_;
  std::vector<JointElimination> rootJoint_;  // per root, in roots() order
  std::vector<V> jointForce_;
  std::vector<char> singular_;  // per joint: its elimination failed in the last sweep
  // On articulated trees: the impedance form, which replaces eq_ and rootJoint_ (left empty).
  std::optional<ArticulatedHandles<Scalar, Space>> articulated_;
};

using HandleAssembly = BasicHandleAssembly<double>;

}  // namespace articula
