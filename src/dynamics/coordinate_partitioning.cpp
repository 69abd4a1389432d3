#include "articula/dynamics/coordinate_partitioning.hpp"

#include <cmath>
#include <cstdio>

#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// Re-select when the dependent block's reciprocal condition number falls below this fraction of
// its value at selection: early enough that the block is still far from singular when we leave
// it, late enough that a split lasts through ordinary motion.
constexpr double kReselectFraction = 0.1;
// Relative rank threshold of the selection (as the reference formulation's).
constexpr double kRankThreshold = 1e-10;
constexpr int kMaxNewtonIterations = 20;
}  // namespace

CoordinatePartitioning::CoordinatePartitioning(const Model& model)
    : model_(model),
      ws_(model),
      dynamics_(model),
      constraints_(model),
      M_(model.nv, model.nv),
      Q_(model.nv),
      c_(model.nv),
      dq_(model.nv) {}

void CoordinatePartitioning::selectPartition(double t, const Eigen::VectorXd& q,
                                             const std::vector<int>& preferredIndependent) {
  updatePositions(model_, ws_, q);
  constraints_.positions(ws_, t, q);
  constraints_.jacobian(ws_, t);
  // Full pivoting picks the best-conditioned dependent columns; preferred independent columns
  // are scaled down so that they are picked last.
  Eigen::MatrixXd J = constraints_.J;
  for (int k : preferredIndependent) J.col(k) *= 1e-6;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  lu.setThreshold(kRankThreshold);
  const int r = static_cast<int>(lu.rank()), n = model_.nv;
  dependent_.assign(static_cast<std::size_t>(r), 0);
  rows_.assign(static_cast<std::size_t>(r), 0);
  isDependent_.assign(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < r; ++k) {
    dependent_[k] = lu.permutationQ().indices()[k];  // (J Q).col(k) = J.col(Q(k))
    isDependent_[dependent_[k]] = 1;
  }
  // P sends row i of J to row P(i) of P J: the k-th pivot row is the i with P(i) = k.
  for (int i = 0; i < constraints_.size(); ++i) {
    const int k = lu.permutationP().indices()[i];
    if (k < r) rows_[k] = i;
  }
  independent_.clear();
  for (int k = 0; k < n; ++k)
    if (!isDependent_[k]) independent_.push_back(k);
  const int ni = static_cast<int>(independent_.size());
  Jd_.resize(r, r);
  Ji_.resize(r, ni);
  R_.setZero(n, ni);
  RtMR_.resize(ni, ni);
  rhs_.resize(r);
  gammaRows_.resize(r);
  vi_.resize(ni);
  selected_ = true;
  conditioningAtSelection_ = 0.0;
  factorizeDependent(t, q);
}

bool CoordinatePartitioning::factorizeDependent(double t, const Eigen::VectorXd& q) {
  const int r = static_cast<int>(dependent_.size());
  for (int a = 0; a < r; ++a)
    for (int b = 0; b < r; ++b) Jd_(a, b) = constraints_.J(rows_[a], dependent_[b]);
  dependentLu_.compute(Jd_);
  const double conditioning = r ? dependentLu_.rcond() : 1.0;
  if (conditioningAtSelection_ == 0.0) {
    conditioningAtSelection_ = conditioning;
    return false;
  }
  if (!(conditioning < kReselectFraction * conditioningAtSelection_)) return false;
  ++reselections_;
  selectPartition(t, q);  // recomputes J at q and factorises the new dependent block
  return true;
}

void CoordinatePartitioning::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           Eigen::VectorXd& vdot) {
  if (!selected_) selectPartition(t, q);
  updateVelocities(model_, ws_, q, v);
  evaluateForceElements(model_, ws_, t, q, v);
  dynamics_.evaluate(ws_, M_, Q_);  // seed 001 eq. (14)-(19)
  constraints_.jacobian(ws_, t);
  if (factorizeDependent(t, q)) updateVelocities(model_, ws_, q, v);  // a new split left positions only in ws_
  if (!dependent_.empty()) constraints_.accelerationBias(ws_, t);
  const int r = static_cast<int>(dependent_.size()), ni = static_cast<int>(independent_.size());
  // R = [I; -Jd^-1 Ji] in the split ordering (seed 004 eq. (24)); c: the particular acceleration
  // with vdot_i = 0, c_d = Jd^-1 gamma (eq. (33)).
  for (int a = 0; a < r; ++a) {
    for (int b = 0; b < ni; ++b) Ji_(a, b) = constraints_.J(rows_[a], independent_[b]);
    gammaRows_[a] = constraints_.gamma[rows_[a]];
  }
  R_.setZero();
  for (int b = 0; b < ni; ++b) R_(independent_[b], b) = 1.0;
  if (r) {
    Ji_ = dependentLu_.solve(Ji_);
    rhs_ = dependentLu_.solve(gammaRows_);
  }
  c_.setZero();
  for (int a = 0; a < r; ++a) {
    for (int b = 0; b < ni; ++b) R_(dependent_[a], b) = -Ji_(a, b);
    c_[dependent_[a]] = rhs_[a];
  }
  // Reduced equations R^T M R vdot_i = R^T (Q - M c), eq. (38).
  RtMR_.noalias() = R_.transpose() * M_ * R_;
  Q_.noalias() -= M_ * c_;
  vi_.noalias() = R_.transpose() * Q_;
  reducedLlt_.compute(RtMR_);
  if (reducedLlt_.info() != Eigen::Success) throw Error("the reduced mass matrix of the independent coordinates is not positive definite");
  reducedLlt_.solveInPlace(vi_);
  vdot = c_;
  vdot.noalias() += R_ * vi_;
}

bool CoordinatePartitioning::correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  if (!selected_) selectPartition(t, q);
  // Dependent positions from the independent ones: Newton on the independent equations.
  for (int it = 0;; ++it) {
    updatePositions(model_, ws_, q);
    constraints_.positions(ws_, t, q);
    const double error = constraints_.size() ? constraints_.g.cwiseAbs().maxCoeff() : 0.0;
    if (error <= tol) break;
    if (it == kMaxNewtonIterations || !std::isfinite(error)) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "coordinate partitioning: the dependent positions could not be solved (constraint error %.3g, "
                    "tolerance %.3g)",
                    error, tol);
      throw StepRejected(msg);
    }
    constraints_.jacobian(ws_, t);
    factorizeDependent(t, q);
    const int r = static_cast<int>(dependent_.size());
    for (int a = 0; a < r; ++a) rhs_[a] = -constraints_.g[rows_[a]];
    rhs_ = dependentLu_.solve(rhs_);
    dq_.setZero();
    for (int a = 0; a < r; ++a) dq_[dependent_[a]] = rhs_[a];
    integrateConfiguration(model_, q, dq_);
  }
  // Dependent velocities: Jd v_d = nu - Ji v_i on the independent equations.
  constraints_.jacobian(ws_, t);
  factorizeDependent(t, q);
  const int r = static_cast<int>(dependent_.size());
  for (int a = 0; a < r; ++a) {
    double s = constraints_.nu[rows_[a]];
    for (int k = 0; k < model_.nv; ++k)
      if (!isDependent_[k]) s -= constraints_.J(rows_[a], k) * v[k];
    rhs_[a] = s;
  }
  rhs_ = dependentLu_.solve(rhs_);
  for (int a = 0; a < r; ++a) v[dependent_[a]] = rhs_[a];
  return true;
}

}  // namespace articula
