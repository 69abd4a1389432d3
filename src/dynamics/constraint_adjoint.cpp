#include "constraint_adjoint.hpp"

#include <algorithm>

#include "articula/core/central_difference.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// The coordinates that some constraint row depends on, ascending, once each.
std::vector<int> supportOf(const Model& model) {
  std::vector<int> columns = jacobianPattern(model).columns;
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

}  // namespace

ConstraintAdjoint::ConstraintAdjoint(const Model& model, const FormulationOptions& options)
    : model_(model),
      alpha_(options.baumgarteAlpha),
      beta_(options.baumgarteBeta),
      solver_(model),
      ws_(model),
      constraints_(model),
      support_(supportOf(model)),
      w_(model.nv),
      mu_(model.constraintCount()),
      lambda_(model.constraintCount()),
      vdot_(model.nv),
      correction_(model.nv),
      generalized_(model.nv),
      stabilized_(model.nv),
      qWork_(model.nq),
      jointRow_(model.nv),
      rows_(model.constraintCount()),
      muJq_(static_cast<Eigen::Index>(support_.size()), model.nv) {}

void ConstraintAdjoint::project(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& vdot, Eigen::VectorXd& w) {
  solver_.factorize(t, q);
  rows_.noalias() = solver_.constraints.J * w;
  solver_.weightedSolve(rows_, correction_);
  w -= correction_;
  generalized_.noalias() = solver_.H * correction_;  // J^T mu = H (z - w)
  solver_.multipliers(generalized_, mu_);
  // J^T lambda = ID(q, v, vdot) - tau_app: the generalised constraint force of the forward solve.
  residualForces(model_, solver_.ws, t, q, v, vdot, generalized_);
  solver_.multipliers(generalized_, lambda_);
  w_ = w;
  vdot_ = vdot;
}

double ConstraintAdjoint::weightedConstraints(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  updateVelocities(model_, ws_, q, v);
  constraints_.positions(ws_, t, q);
  constraints_.jacobian(ws_, t);
  constraints_.accelerationBias(ws_, t);
  const Eigen::MatrixXd& J = constraints_.J;
  rows_.noalias() = J * w_;
  const double loads = lambda_.dot(rows_);
  rows_ = constraints_.gamma + 2.0 * alpha_ * constraints_.nu - beta_ * beta_ * constraints_.g;
  stabilized_ = vdot_ + 2.0 * alpha_ * v;
  rows_.noalias() -= J * stabilized_;
  return loads + mu_.dot(rows_);
}

void ConstraintAdjoint::accumulate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar) {
  qWork_ = q;
  // dc/dq by central differences; each difference also gives row k of mu^T dJ/dq_k, which the
  // rates' part below needs.
  for (std::size_t i = 0; i < support_.size(); ++i) {
    const int k = support_[i];  // k indexes q and v alike: every joint here has q_dot = v
    const double value = q[k], step = centralDifferenceStep(value);
    qWork_[k] = value + step;
    const double up = weightedConstraints(t, qWork_, v);
    jointRow_.noalias() = constraints_.J.transpose() * mu_;
    qWork_[k] = value - step;
    const double down = weightedConstraints(t, qWork_, v);
    jointRow_.noalias() -= constraints_.J.transpose() * mu_;
    qWork_[k] = value;
    qbar[k] += (up - down) / (2.0 * step);
    muJq_.row(static_cast<Eigen::Index>(i)) = jointRow_.transpose() / (2.0 * step);
  }
  // dc/dv: the Baumgarte term -2 alpha J^T mu, and mu^T gamma. Because gamma = -Jdot v + (a
  // prescribed motion's f''(t)) with Jdot = sum_k v_k dJ/dq_k, mu^T gamma = -sum_k v_k R_k v with
  // R_k = mu^T dJ/dq_k, whose gradient in v is -(R_j . v) - sum_k v_k R_k(j): no difference in v.
  vbar.noalias() -= 2.0 * alpha_ * (solver_.constraints.J.transpose() * mu_);
  for (std::size_t i = 0; i < support_.size(); ++i) {
    const auto row = muJq_.row(static_cast<Eigen::Index>(i));
    vbar[support_[i]] -= row.dot(v);
    vbar.noalias() -= v[support_[i]] * row.transpose();
  }
}

}  // namespace articula
