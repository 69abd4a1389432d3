// Private to src/dynamics: the constraint part of the reverse-mode forward-dynamics derivatives
// (articula/dynamics/forward_dynamics_adjoint.hpp) for models with loop closures or prescribed
// motions. The equations differentiated are the ones the reference formulation integrates
// (reference.hpp): the index-1 system with Baumgarte terms
//
//   H vdot + C = tau_app + J^T lambda,   J vdot = r = gamma - 2 alpha (J v - nu) - beta^2 g.
//
// For weights abar on vdot, the adjoint of this saddle-point system, H w + J^T mu = abar with
// J w = 0, turns the derivative of abar^T vdot in any input x into
//
//   abar^T dvdot/dx = d/dx [w^T (tau_app - ID(q, v, vdot))] + dc/dx,
//   c(q, v) = lambda^T J w + mu^T (gamma - J vdot - 2 alpha (J v - nu) - beta^2 g),
//
// with w, mu, lambda and vdot held (the Lagrangian, index-1 counterpart of the thesis's
// joint-space adjoint (4.26)-(4.30), which is written for Hamilton's equations). The first term is the tree's sweep, run with the projected weights w; this
// class forms w, mu and lambda and differentiates c. abar^T dvdot/dtau = w^T as on a tree.
//
//  - w = z - P J z, z = H^-1 abar, where P J z is the mass-weighted least-norm correction of the
//    forward solve (ConstrainedSolver::weightedSolve), so w follows the forward's rank decision;
//  - J^T mu = H (z - w) and J^T lambda = ID(q, v, vdot) - tau_app, both solved for the least-norm
//    multipliers: redundant rows (a planar loop closed by a spatial joint) leave them free
//    otherwise, and their rows of J, gamma and g vanish on the motion, so they add nothing.
//
// dc/dq is taken by central differences in the coordinates of the joints on the loops' root
// paths (the only ones c depends on): each is one kinematic evaluation of the constraints, O(n),
// not an evaluation of the dynamics. The same evaluations give mu^T dJ/dq_k, from which dc/dv
// follows exactly (gamma = -Jdot v, see accumulate), so the rates need no differences.
// Truncation and round-off leave about 1e-10 of c's scale. Analytic derivatives of the four loop
// types' acceleration terms would remove that error; they are not written.
#pragma once

#include <vector>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/reference.hpp"

namespace articula {

class ConstraintAdjoint {
 public:
  /// `model` must outlive this object (its parameters may change); sized once.
  ConstraintAdjoint(const Model& model, const FormulationOptions& options);

  /// At (t, q, v) with the reference formulation's accelerations vdot: replaces z = H^-1 abar,
  /// given in w, by the projected weights w, and forms mu and lambda.
  void project(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& vdot,
               Eigen::VectorXd& w);
  /// After project, at the same (t, q, v): qbar += dc/dq, vbar += dc/dv.
  void accumulate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::Ref<Eigen::VectorXd> qbar,
                  Eigen::Ref<Eigen::VectorXd> vbar);

 private:
  /// c(q, v) at t with the weights of the last project.
  double weightedConstraints(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  const Model& model_;
  double alpha_, beta_;
  ConstrainedSolver solver_;  // H, its factor, J and the decomposition of the forward solve
  Workspace ws_;              // the kinematics of c's evaluations
  ConstraintEvaluator constraints_;
  std::vector<int> support_;  // the coordinates (= rates: q_dot = v on these joints) c depends on
  Eigen::VectorXd w_, mu_, lambda_, vdot_, correction_, generalized_, stabilized_, qWork_, jointRow_, rows_;
  Eigen::MatrixXd muJq_;  // row i: mu^T dJ/dq_k for the i-th coordinate k of the support
};

}  // namespace articula
