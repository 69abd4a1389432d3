// The Hamiltonian divide-and-conquer algorithm (HDCA) on trees and closed loops (thesis sections
// 3.3-3.4 and chapter 6; seed 000 for the planar version): Hamilton's equations in joint
// coordinates q and joint canonical momenta p, evaluated on the binary assembly tree. The handle
// equations are 6D, or 3x3 on planar mechanisms (dynamics/handle_space.hpp); closed loops and
// prescribed motion are described in dynamics/constraint_impulses.hpp (p is then
// p* = M v - J^T sigma).
//
// Momenta. p is the generalised momentum conjugate to the joint velocities v: p = M(q) v, whose
// entry for joint j is p_j = S_j^T P_j, with P_j the spatial momentum of the subtree below joint
// j (the thesis's articulated momentum P = H p^ + D sigma of eq. (3.22) projected on the motion
// subspace; the thesis's p^ is this p for an orthonormal H). For quaternion joints v is the
// angular velocity in child axes, so p is a quasi-momentum and pdot its time derivative along
// the motion (pdot = M vdot + Mdot v), not -dH/dq of the quaternion coordinates.
//
// Velocity level (thesis 3.4.1). The handle equations of dynamics/handle_assembly.hpp with m the
// spatial velocities and f the momenta transmitted through the handles: a body's momentum about
// its origin is I V = f_1 + f_2 (eq. (3.29)), so the leaf bias is zero; a joint gives
// V_child = V_parent + S v and S^T P_j = p_j, so the joint bias is zero and the joint load is p;
// the ground is at rest. The thesis puts H p into the leaf bias (eq. (4.49a)) and solves for the
// constraint impulses D sigma alone; eliminating the whole P_j through S^T P_j = p_j is the same
// solution. Assembly (3.42), base connection (3.44) and disassembly (3.39) give v (3.45), every
// P_j, and each body's velocity from its leaf equation.
//
// Momentum derivatives (thesis eq. (3.58)-(3.59)). With world axes and each vector about the
// joint's child origin,
//   pdot_j = tau_j + S_j^T (F_j - V_j x* P_j) + (dS_j/dt|body)^T P_j,
// where tau_j are the applied joint forces, F_j the sum of the applied forces (gravity included)
// on the bodies below joint j (the thesis's descendant terms kappa), V_j x* P_j the transport of
// the reference point moving with the body (the thesis's dS_C1/dt P_1), and the last term the
// change of S in the child's axes (universal and planar joints only). F_j is accumulated on the
// same assembly tree, leaves to roots, then distributed back down: the parallel reverse prefix
// sum of the thesis's chapter 6 for trees, with every sum about the origin of the body on the
// ground above it (plain sums, no shifts), each F_j shifted to its child's origin once.
//
// Workspaces are sized once per model; evaluations allocate nothing. With `threads` > 1 the
// subtrees of the assembly tree are shared among a thread team's threads (dynamics/tree_schedule.hpp);
// results are identical bit for bit for every count.
#pragma once

#include <variant>

#include "articula/dynamics/hdca_kernel.hpp"

namespace articula {

/// Hdca is the double-precision algorithm; BasicHdca<float> runs the handle equations, the
/// momentum rates and the loop solve in single precision (seed 000's study) from the same
/// double-precision kinematics and force elements.
template <class Scalar>
class BasicHdca {
 public:
  using VecX = VectorXT<Scalar>;

  /// Runs in the plane when options.planarKernel is set and the model is planar. Throws
  /// articula::Error for threads < 1.
  explicit BasicHdca(const Model& model, const HdcaOptions& options = {});

  /// Hamilton's equations at (t, q, p): joint velocities v (so qdot = G(q) v) and momentum rates
  /// pdot, force elements and gravity included. Throws articula::Error naming the joint whose
  /// mobility is singular or not finite.
  void derivatives(double t, const VecX& q, const VecX& p, VecX& v, VecX& pdot) {
    std::visit([&](auto& kernel) { kernel.derivatives(t, q, p, v, pdot); }, kernel_);
  }
  /// The state map v = v(t, q, p) (velocity level only): M(q)^-1 p on open trees,
  /// M^-1 (p + J^T sigma) with J v = nu(t) with loops (nu = 0) or prescribed motion.
  void velocities(double t, const VecX& q, const VecX& p, VecX& v) {
    std::visit([&](auto& kernel) { kernel.velocities(t, q, p, v); }, kernel_);
  }
  /// A state map p = p(q, v) = M(q) v, by one recursion over the bodies (O(n)); on closed loops
  /// (v with J v = 0) the canonical momenta with sigma = 0, one of those that map back to v.
  void momenta(const VecX& q, const VecX& v, VecX& p) {
    std::visit([&](auto& kernel) { kernel.momenta(q, v, p); }, kernel_);
  }

  const AssemblyTree& tree() const {
    return std::visit([](const auto& kernel) -> const AssemblyTree& { return kernel.tree(); }, kernel_);
  }
  /// Whether the handle equations run in the plane (3x3).
  bool planar() const { return kernel_.index() == 1; }
  /// After derivatives() or velocities(): the spatial momentum P_j of the bodies below joint j
  /// (world axes, about body j's origin; in-plane components only on the planar kernel).
  Vec6 jointMomentum(int j) const;
  /// After derivatives() or velocities() on closed loops: the constraint impulses sigma, one per
  /// row of the loops' constraint Jacobian (empty on open trees).
  const VecX& constraintImpulses() const {
    return std::visit([](const auto& kernel) -> const VecX& { return kernel.constraintImpulses(); }, kernel_);
  }

 private:
  using Kernels = std::variant<HdcaKernel<Scalar, SpatialSpace>, HdcaKernel<Scalar, PlanarSpace>>;
  static Kernels makeKernel(const Model& model, const HdcaOptions& options);

  Kernels kernel_;
};

using Hdca = BasicHdca<double>;

}  // namespace articula
