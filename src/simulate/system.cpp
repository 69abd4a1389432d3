#include "articula/simulate/system.hpp"

#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/step_projection.hpp"

namespace articula {

MultibodySystem::MultibodySystem(const Model& model, std::unique_ptr<Formulation> formulation,
                                 Stabilization stabilization, double projectionTolerance)
    : model_(model),
      formulation_(std::move(formulation)),
      stabilization_(stabilization),
      projectionTolerance_(projectionTolerance),
      projector_(model),
      q_(model.nq),
      v_(model.nv),
      vdot_(model.nv) {}

void MultibodySystem::derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) {
  q_ = x.head(model_.nq);
  v_ = x.tail(model_.nv);
  configurationRate(model_, q_, v_, xdot.head(model_.nq));
  formulation_->accelerations(t, q_, v_, vdot_);
  xdot.tail(model_.nv) = vdot_;
}

bool MultibodySystem::afterStep(double t, Eigen::VectorXd& x) {
  q_ = x.head(model_.nq);
  v_ = x.tail(model_.nv);
  normalizeConfiguration(model_, q_);
  if (stabilization_ == Stabilization::Projection && model_.hasConstraints() &&
      !formulation_->correctState(t, q_, v_, projectionTolerance_)) {
    const double error = projectPositionsAfterStep(projector_, t, q_, projectionTolerance_);
    worstProjection_ = std::max(worstProjection_, error);
    projector_.projectVelocities(t, q_, v_);
  }
  const bool changed = q_ != x.head(model_.nq) || v_ != x.tail(model_.nv);
  x.head(model_.nq) = q_;
  x.tail(model_.nv) = v_;
  return changed;
}

}  // namespace articula
