#include "articula/dynamics/singularity.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <sstream>

#include "articula/dynamics/rank_threshold.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// Bisection steps along the segment between two states (resolution 2^-40 of the step), and
// golden-section steps over two segments to about the same resolution (0.618^58 = 2^-40).
constexpr int kBisections = 40;
constexpr int kGoldenSections = 58;
// At a zero of a minor found to that resolution, a rank-deficient Jacobian has a relative
// smallest singular value of the order of the resolution times the step; a merely poor
// choice of coordinates leaves it of order one.
constexpr double kSingularRatio = 1e-6;
// Most dips of the minor's magnitude (a car's suspension going up and down) are nowhere near a
// singular configuration, and the full search cost 60 Jacobians each (11 % of the car's run). The
// search first narrows the dip to 2 * 0.618^16 = 1e-3 of the path, and goes on to full resolution
// only when J's relative smallest singular value there is below kRefineRatio: within 1e-3 of a
// configuration where J loses rank that ratio is at most 1e-3 times its rate of change per step,
// which would have to exceed 50 (the ratio going from 1 to 0 within 2 % of one step) to hide it.
constexpr int kCoarseGoldenSections = 16;
constexpr double kRefineRatio = 0.05;
// A dip of the minor's magnitude smaller than this relative change is rounding (a mechanism at
// rest, a minor that stays constant), not worth a search.
constexpr double kDipMargin = 1e-8;

// Names the joint coordinates of the dependent-coordinate choice, for the message.
std::string describeCoordinates(const Model& m, const std::vector<int>& cols) {
  std::string list;
  for (int c : cols)
    for (int i = 1; i <= m.bodyCount(); ++i) {
      const Joint& j = m.joints[i];
      if (c < j.iv || c >= j.iv + j.nv) continue;
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) about `"[" + std::to_string(...)`
      // once this function is inlined.
      if (!list.empty()) list += ", ";
      list += j.name;
      if (j.nv > 1) {
        list += '[';
        list += std::to_string(c - j.iv);
        list += ']';
      }
    }
  return list;
}
}  // namespace

SingularityMonitor::SingularityMonitor(const Model& model) : model_(model), ws_(model), constraints_(model) {
  // Sized once here (a model without constraints never computes one): compute() then allocates nothing.
  if (constraints_.size() > 0) svd_ = Eigen::JacobiSVD<Eigen::MatrixXd>(constraints_.size(), model.nv);
}

void SingularityMonitor::evaluate(double t, const Eigen::VectorXd& q) {
  updatePositions(model_, ws_, q);
  constraints_.jacobian(ws_, t);
}

void SingularityMonitor::choosePartition(const Eigen::MatrixXd& J) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  lu.setThreshold(kConstraintRankThreshold);  // rank decisions as the reference solver's
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

SingularityMonitor::Determinant SingularityMonitor::minor(const Eigen::MatrixXd& J) {
  const int r = static_cast<int>(rows_.size());
  if (r == 0) return {};
  minor_.resize(r, r);  // sized by choosePartition's rank: no allocation between re-choices
  for (int a = 0; a < r; ++a)
    for (int b = 0; b < r; ++b)
      minor_(a, b) = J(rows_[static_cast<std::size_t>(a)], cols_[static_cast<std::size_t>(b)]);
  minorLu_.compute(minor_);
  Determinant d;
  d.sign = minorLu_.permutationP().determinant();
  for (int k = 0; k < r; ++k) {
    const double pivot = minorLu_.matrixLU()(k, k);
    if (pivot < 0.0) d.sign = -d.sign;
    d.logMagnitude += std::log(std::abs(pivot));  // -inf at an exact zero, which compares fine
  }
  return d;
}

double SingularityMonitor::pathTime(double s, double t) const {
  return s <= 1.0 ? tBefore_ + s * (tPrev_ - tBefore_) : tPrev_ + (s - 1.0) * (t - tPrev_);
}

SingularityMonitor::Determinant SingularityMonitor::minorAlongPath(double s, double t, const Eigen::VectorXd& q) {
  if (s <= 1.0)
    qPath_ = (1.0 - s) * qBefore_ + s * qPrev_;
  else
    qPath_ = (2.0 - s) * qPrev_ + (s - 1.0) * q;
  evaluate(pathTime(s, t), qPath_);
  return minor(constraints_.J);
}

double SingularityMonitor::smallestSingularRatio() {
  svd_.compute(constraints_.J);  // singular values only, in buffers sized at construction
  return svd_.singularValues()[rank_ - 1] / svd_.singularValues()[0];
}

double SingularityMonitor::narrowDip(double& a, double& b, int steps, double t, const Eigen::VectorXd& q) {
  const double shrink = (std::sqrt(5.0) - 1.0) / 2.0;
  double c = b - shrink * (b - a), d = a + shrink * (b - a);
  double fc = minorAlongPath(c, t, q).logMagnitude, fd = minorAlongPath(d, t, q).logMagnitude;
  for (int it = 0; it < steps; ++it) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - shrink * (b - a);
      fc = minorAlongPath(c, t, q).logMagnitude;
    } else {
      a = c, c = d, fc = fd;
      d = a + shrink * (b - a);
      fd = minorAlongPath(d, t, q).logMagnitude;
    }
  }
  const double best = fc < fd ? c : d;
  minorAlongPath(best, t, q);
  return best;
}

std::string SingularityMonitor::describeIfSingular(double tSingular, double tFrom, double tTo) {
  const double ratio = smallestSingularRatio();
  if (ratio > kSingularRatio) return {};
  std::ostringstream s;
  s.precision(9);
  s << "the mechanism passed through a singular configuration of its constraints near t = " << tSingular
    << " s (between steps at " << tFrom << " and " << tTo
    << " s the constraint Jacobian loses rank: smallest to largest singular value " << ratio
    << "; watched dependent coordinates " << describeCoordinates(model_, cols_)
    << "); past it the motion may have switched assembly branch";
  return s.str();
}

void SingularityMonitor::start(double t, const Eigen::VectorXd& q) {
  evaluate(t, q);
  qPrev_ = q;
  tPrev_ = t;
  haveBefore_ = false;
  choosePartition(constraints_.J);
  previous_ = minor(constraints_.J);
}

std::string SingularityMonitor::check(double t, const Eigen::VectorXd& q) {
  if (constraints_.size() == 0 || rank_ == 0) return {};
  evaluate(t, q);
  const Determinant now = minor(constraints_.J);
  std::string found;
  bool searched = false;
  if (now.sign != previous_.sign) {
    // A zero of odd order between the last state and this one: bisection on the sign along
    // the straight line between them (path parameter 1 to 2).
    double lo = 1.0, hi = 2.0;
    for (int it = 0; it < kBisections; ++it) {
      const double mid = 0.5 * (lo + hi);
      (minorAlongPath(mid, t, q).sign == previous_.sign ? lo : hi) = mid;
    }
    minorAlongPath(hi, t, q);
    found = describeIfSingular(pathTime(hi, t), tPrev_, t);
    searched = true;
  } else if (haveBefore_ && previous_.logMagnitude < before_.logMagnitude - kDipMargin &&
             previous_.logMagnitude < now.logMagnitude - kDipMargin) {
    // The magnitude dipped at the last state without a change of sign: a zero of even order
    // (or a touch, or only a poor choice of coordinates) somewhere on the path from the state
    // before last to this one. Golden-section search for its smallest magnitude there, to full
    // resolution only when the coarse minimum is near a loss of rank.
    double a = 0.0, b = 2.0;
    double best = narrowDip(a, b, kCoarseGoldenSections, t, q);
    if (smallestSingularRatio() < kRefineRatio) {
      best = narrowDip(a, b, kGoldenSections - kCoarseGoldenSections, t, q);
      found = describeIfSingular(pathTime(best, t), tBefore_, t);
    }
    searched = true;
  }
  if (searched) {
    evaluate(t, q);  // the search evaluated J elsewhere
    choosePartition(constraints_.J);  // continue with the best choice at the new state
    previous_ = minor(constraints_.J);
    haveBefore_ = false;
  } else {
    qBefore_ = qPrev_;
    tBefore_ = tPrev_;
    before_ = previous_;
    haveBefore_ = true;
    previous_ = now;
  }
  qPrev_ = q;
  tPrev_ = t;
  return found;
}

}  // namespace articula
