#include "articula/dynamics/ascher_projection.hpp"

#include <cstdio>

#include "articula/dynamics/rank_threshold.hpp"
#include "articula/integrate/ode.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
constexpr int kMaxExtraApplications = 8;
}  // namespace

AscherProjection::AscherProjection(const Model& model)
    : model_(model),
      ws_(model),
      constraints_(model),
      cod_(constraints_.size(), model.nv),
      r_(constraints_.size()),
      dq_(model.nv),
      dv_(model.nv) {
  cod_.setThreshold(kConstraintRankThreshold);
}

void AscherProjection::apply(double t, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  if (constraints_.size() == 0) return;
  updatePositions(model_, ws_, q);
  constraints_.positions(ws_, t, q);
  constraints_.jacobian(ws_, t);
  cod_.compute(constraints_.J);  // G at the incoming q for both halves of z
  r_ = constraints_.g;
  dq_ = cod_.solve(r_);
  r_.noalias() = constraints_.J * v;
  r_ -= constraints_.nu;
  dv_ = cod_.solve(r_);
  dq_ = -dq_;
  integrateConfiguration(model_, q, dq_);
  v -= dv_;
}

double AscherProjection::positionError(double t, const Eigen::VectorXd& q) {
  if (constraints_.size() == 0) return 0.0;
  updatePositions(model_, ws_, q);
  constraints_.positions(ws_, t, q);
  return constraints_.g.cwiseAbs().maxCoeff();
}

void AscherProjection::project(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  apply(t, q, v);
  apply(t, q, v);
  double error = positionError(t, q);
  for (int k = 0; error > tol && k < kMaxExtraApplications; ++k) {
    apply(t, q, v);
    ++extra_;
    error = positionError(t, q);
  }
  if (!(error <= tol)) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "distributed formulation: the projection left a constraint error of %.3g (tolerance %.3g)", error, tol);
    throw StepRejected(msg);
  }
}

}  // namespace articula
