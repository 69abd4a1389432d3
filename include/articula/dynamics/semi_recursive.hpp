// Semi-recursive dynamic terms in relative (joint) coordinates (seed 001, eq. (3)-(19))
// and the tree-sparse factorisation that solves with them (RBDA section 6.5).
#pragma once

#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

/// Semi-recursive dynamic terms in relative (joint) coordinates, seed 001 eq. (3)-(19):
/// body velocities Z_i = [w; sdot] (world axes, velocity of the body point coincident with the
/// world origin; our spatial convention [angular; linear]), R_i = world motion subspace, accumulated
/// inertias M^Sigma and forces Q^Sigma from the leaves to the root, then
/// M_ij = R_i^T M^Sigma_j R_j (j a descendant of i, or i itself), Q_i = R_i^T Q^Sigma_i.
/// Keeps a reference to the model, which must outlive it.
class SemiRecursiveDynamics {
 public:
  explicit SemiRecursiveDynamics(const Model& model);  // sizes every buffer once

  /// M(q) (nv x nv, symmetric, both triangles filled; entries between coordinates of bodies on
  /// different branches are zero) and Q(q, v) = tau_applied + J^T f_ext - C(q, v) (gravity, velocity
  /// products, the force elements). Requires updateVelocities for (q, v) (reads ws.X0, ws.v, ws.c,
  /// ws.joint) and evaluateForceElements(model, ws, t, q, v) (ws.tau, ws.fext) for the same state.
  /// Never allocates.
  void evaluate(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> M, Eigen::Ref<Eigen::VectorXd> Q);
  /// Only Q (cheaper: no accumulated inertias); same requirements.
  void forces(const Workspace& ws, Eigen::Ref<Eigen::VectorXd> Q);

 private:
  void bodyTerms(const Workspace& ws);
  /// Q_i = tau_i + R_i^T Qsum_i for the coordinates of joint i, eq. (15).
  void jointForce(const Workspace& ws, int i, Eigen::Ref<Eigen::VectorXd> Q) const;

  const Model& model_;
  std::vector<MotionSubspace> R_;      ///< world motion subspace of each joint
  std::vector<Motion> bias_;           ///< (T Hdot zdot)_i plus the ground acceleration -g (world)
  std::vector<SpatialInertia> Msum_;   ///< Mbar_i, then M^Sigma_i (world, about the origin)
  std::vector<Force> Qsum_;            ///< Qbar_i - Mbar_i (T Hdot zdot)_i, then Q^Sigma_i
  SubspaceForce F_;                    ///< M^Sigma_j R_j
};

/// Tree-sparse factorisation M = L^T L of a joint-space matrix with the sparsity of the tree
/// (Featherstone RBDA section 6.5, "LTL"): with bodies numbered parent-before-child, factorising from the
/// last coordinate to the first is the leaves-to-root numbering of seed 001/004 and produces no
/// fill-in. Works on any symmetric positive-definite matrix whose nonzeros lie in the tree pattern
/// (M, and M + c K for K with the same pattern); only the lower triangle's entries in the pattern
/// are read. Never allocates after construction. Keeps a reference to the model, which must outlive it.
class TreeCholesky {
 public:
  explicit TreeCholesky(const Model& model);  // builds the expanded parent array lambda over velocity coordinates

  /// Factorises A (overwritten by L in its lower triangle). Throws articula::Error naming the joint
  /// when a pivot is not positive.
  void factorize(Eigen::Ref<Eigen::MatrixXd> A);
  /// x <- A^-1 x using the stored factor.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  const Model& model_;
  std::vector<int> lambda_;     ///< parent coordinate of each coordinate, -1 at a root
  std::vector<int> joint_;      ///< joint (= child body) owning each coordinate
  std::vector<int> rowStart_;   ///< row k of L: factor_[rowStart_[k]] = L_kk, then L_k,lambda(k), ...
  std::vector<double> factor_;  ///< L, row by row along the ancestors: where factorize works and solves read
};

}  // namespace articula
