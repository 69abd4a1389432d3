#include "articula/dynamics/singularity.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <sstream>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// Rank decisions relative to the largest pivot, as for the reference solver's decomposition.
constexpr double kRankThreshold = 1e-10;
// Bisection steps along the segment between two states (resolution 2^-40 of the step).
constexpr int kBisections = 40;
// At a zero of a minor found to that resolution, a rank-deficient Jacobian has a relative
// smallest singular value of the order of the resolution times the step; a merely poor
// choice of coordinates leaves it of order one.
constexpr double kSingularRatio = 1e-6;

// Names the joint coordinates of the dependent-coordinate choice, for the message.
std::string describeCoordinates(const Model& m, const std::vector<int>& cols) {
  std::string list;
  for (int c : cols)
    for (int i = 1; i <= m.bodyCount(); ++i) {
      const Joint& j = m.joints[i];
      if (c >= j.iv && c < j.iv + j.nv)
        list += (list.empty() ? "" : ", ") + j.name + (j.nv > 1 ? "[" + std::to_string(c - j.iv) + "]" : "");
    }
  return list;
}
}  // namespace

SingularityMonitor::SingularityMonitor(const Model& model) : model_(model), ws_(model), constraints_(model) {}

void SingularityMonitor::evaluate(double t, const Eigen::VectorXd& q) {
  updatePositions(model_, ws_, q);
  constraints_.jacobian(ws_, t);
}

void SingularityMonitor::choosePartition(const Eigen::MatrixXd& J) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  lu.setThreshold(kRankThreshold);
  rank_ = static_cast<int>(lu.rank());
  rows_.resize(static_cast<std::size_t>(rank_));
  cols_.resize(static_cast<std::size_t>(rank_));
  // P J Q = L U: the first `rank` pivots pick the equations and the coordinates.
  // (P J) row P.indices[i] is J's row i; pivot k is J's column Q.indices[k] (Eigen's convention).
  const Eigen::VectorXi& p = lu.permutationP().indices();
  for (int i = 0; i < p.size(); ++i)
    if (p[i] < rank_) rows_[static_cast<std::size_t>(p[i])] = i;
  for (int k = 0; k < rank_; ++k) cols_[static_cast<std::size_t>(k)] = lu.permutationQ().indices()[k];
}

double SingularityMonitor::minor(const Eigen::MatrixXd& J) {
  const int r = static_cast<int>(rows_.size());
  if (r == 0) return 1.0;
  minor_.resize(r, r);  // sized by choosePartition's rank: no allocation between re-choices
  for (int a = 0; a < r; ++a)
    for (int b = 0; b < r; ++b)
      minor_(a, b) = J(rows_[static_cast<std::size_t>(a)], cols_[static_cast<std::size_t>(b)]);
  minorLu_.compute(minor_);
  return minorLu_.determinant();
}

void SingularityMonitor::start(double t, const Eigen::VectorXd& q) {
  evaluate(t, q);
  qPrev_ = q;
  tPrev_ = t;
  choosePartition(constraints_.J);
  sign_ = minor(constraints_.J) >= 0.0 ? 1.0 : -1.0;
}

std::string SingularityMonitor::check(double t, const Eigen::VectorXd& q) {
  if (constraints_.size() == 0 || rank_ == 0) return {};
  evaluate(t, q);
  std::string found;
  if ((minor(constraints_.J) >= 0.0 ? 1.0 : -1.0) != sign_) {
    // The watched minor vanished between the two states: find where along the straight
    // line between them (bisection), and ask whether the whole Jacobian is rank deficient
    // there or only this choice of dependent coordinates is poor.
    const Eigen::MatrixXd J = constraints_.J;
    double lo = 0.0, hi = 1.0;
    Eigen::VectorXd qs = q;
    for (int it = 0; it < kBisections; ++it) {
      const double mid = 0.5 * (lo + hi);
      qs = (1.0 - mid) * qPrev_ + mid * q;
      evaluate(tPrev_ + mid * (t - tPrev_), qs);
      if ((minor(constraints_.J) >= 0.0 ? 1.0 : -1.0) == sign_)
        lo = mid;
      else
        hi = mid;
    }
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(constraints_.J);
    const Eigen::VectorXd sv = svd.singularValues();
    const double ratio = sv[rank_ - 1] / sv[0];
    if (!(ratio > kSingularRatio)) {
      std::ostringstream s;
      s.precision(9);
      s << "the mechanism passed through a singular configuration of its constraints near t = "
        << tPrev_ + hi * (t - tPrev_) << " s (between steps at " << tPrev_ << " and " << t
        << " s the constraint Jacobian loses rank: smallest to largest singular value " << ratio
        << "; watched dependent coordinates " << describeCoordinates(model_, cols_)
        << "); past it the motion may have switched assembly branch";
      found = s.str();
    }
    choosePartition(J);  // continue with the best choice at the new state
    sign_ = minor(J) >= 0.0 ? 1.0 : -1.0;
  }
  qPrev_ = q;
  tPrev_ = t;
  return found;
}

}  // namespace articula
