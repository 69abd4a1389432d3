#include "articula/simulate/hamiltonian_system.hpp"

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/step_projection.hpp"

namespace articula {

HamiltonianSystem::HamiltonianSystem(const Model& model, const HdcaOptions& options, bool projectPositions,
                                     double projectionTolerance)
    : model_(model),
      hdca_(model, options),
      projectPositions_(projectPositions && model.hasConstraints()),
      projectionTolerance_(projectionTolerance),
      projector_(model),
      ws_(model),
      q_(model.nq),
      p_(model.nv),
      v_(model.nv),
      pdot_(model.nv) {}

void HamiltonianSystem::derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) {
  q_ = x.head(model_.nq);
  p_ = x.tail(model_.nv);
  hdca_.derivatives(t, q_, p_, v_, pdot_);
  configurationRate(model_, q_, v_, xdot.head(model_.nq));
  xdot.tail(model_.nv) = pdot_;
}

bool HamiltonianSystem::afterStep(double t, Eigen::VectorXd& x) {
  q_ = x.head(model_.nq);
  normalizeConfiguration(model_, q_);
  if (projectPositions_) projectPositionsAfterStep(projector_, t, q_, projectionTolerance_);
  const bool changed = q_ != x.head(model_.nq);
  x.head(model_.nq) = q_;
  return changed;
}

void HamiltonianSystem::canonicalState(const Eigen::VectorXd& qv, Eigen::VectorXd& qp) {
  q_ = qv.head(model_.nq);
  v_ = qv.tail(model_.nv);
  hdca_.momenta(q_, v_, p_);
  qp << q_, p_;
}

void HamiltonianSystem::velocityState(double t, const Eigen::VectorXd& qp, Eigen::VectorXd& qv) {
  q_ = qp.head(model_.nq);
  p_ = qp.tail(model_.nv);
  hdca_.velocities(t, q_, p_, v_);
  qv << q_, v_;
}

double HamiltonianSystem::energy(double t, const Eigen::VectorXd& qp) {
  q_ = qp.head(model_.nq);
  p_ = qp.tail(model_.nv);
  hdca_.velocities(t, q_, p_, v_);
  updateVelocities(model_, ws_, q_, v_);
  return kineticEnergy(model_, ws_) + potentialEnergy(model_, ws_, q_);
}

}  // namespace articula
