// Hamilton's equations of a tree or of closed loops as a first-order ODE for the explicit
// integrators: x = [q; p], joint coordinates and joint canonical momenta (p = M(q) v on trees,
// p = M v - J^T sigma on closed loops; dynamics/hdca.hpp), xdot = [G(q) v(q, p); pdot(t, q, p)]
// from one HDCA evaluation.
//
// Drift. v(q, p) satisfies the velocity constraints J v = 0 exactly at every evaluation, so only
// the loop-closure positions drift (linearly in time, thesis 3.2.1). With `projectPositions` the
// positions are projected back onto g(q) = 0 after every step (the reference formulation's
// mass-weighted Newton projection); p needs no correction, since any p maps to velocities that
// satisfy the constraints at the projected positions.
#pragma once

#include "articula/dynamics/hdca.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/integrate/ode.hpp"

namespace articula {

class HamiltonianSystem final : public OdeSystem {
 public:
  /// Throws articula::Error as Hdca does (threads < 1).
  explicit HamiltonianSystem(const Model& model, const HdcaOptions& options = {}, bool projectPositions = false,
                             double projectionTolerance = 1e-12);

  int size() const override { return model_.nq + model_.nv; }
  /// Does not allocate.
  void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override;
  /// Renormalises the quaternions of q and, with projectPositions on a model with loops, projects
  /// q onto the loop constraints; p is left as it is. Throws StepRejected when the projection
  /// does not converge.
  bool afterStep(double t, Eigen::VectorXd& x) override;

  /// [q; v] -> [q; p] and, at time t, [q; p] -> [q; v] (the state maps p = M(q) v,
  /// v = M(q)^-1 (p + J^T sigma) with J v = nu(t); t matters with prescribed motion only).
  void canonicalState(const Eigen::VectorXd& qv, Eigen::VectorXd& qp);
  void velocityState(double t, const Eigen::VectorXd& qp, Eigen::VectorXd& qv);
  /// The kinetic energy 1/2 v^T M v plus gravitational and spring potential at x = [q; p] (the
  /// Hamiltonian of a conservative tree).
  double energy(double t, const Eigen::VectorXd& qp);

  Hdca& hdca() { return hdca_; }
  ConstraintProjector& projector() { return projector_; }

 private:
  const Model& model_;
  Hdca hdca_;
  bool projectPositions_;
  double projectionTolerance_;
  ConstraintProjector projector_;
  Workspace ws_;  // poses for the potential energy
  Eigen::VectorXd q_, p_, v_, pdot_;
};

}  // namespace articula
