// Detection of singular configurations of the constraints along a run.
//
// Where the constraint Jacobian J (equations x velocity coordinates) loses rank, a
// closed-loop mechanism can leave its assembly branch (a parallelogram four-bar turning
// into an anti-parallelogram at its flat position) while every constraint stays
// satisfied, so nothing else would notice. Between accepted steps the monitor watches the
// determinant of J restricted to a choice of r independent equations and r dependent
// coordinates (r = rank of J, chosen by full pivoting). The minor vanished in between when
// its sign changes (a zero of odd order) or when its magnitude has a local minimum over the
// last three states (a zero of even order, which keeps the sign: the N four-bar mechanism
// with N even, whose minor behaves like sin^N of the crank angle; or a touch). Bisection on
// the sign, or a golden-section search for the smallest magnitude, along the straight lines
// between the states finds where, and the singular values of J there tell whether the whole
// Jacobian lost rank (a singular configuration) or only the choice was poor (the monitor then
// moves to the best choice at the new state).
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <string>
#include <vector>

#include "articula/kinematics/constraints.hpp"

namespace articula {

class SingularityMonitor {
 public:
  explicit SingularityMonitor(const Model& model);

  /// Starts watching at an assembled state (q on the constraints).
  void start(double t, const Eigen::VectorXd& q);
  /// Checks the motion from the previous state to (t, q); returns an empty string, or a
  /// description of the singular configuration passed in between.
  std::string check(double t, const Eigen::VectorXd& q);

  int rank() const { return rank_; }

 private:
  /// Sign and log of the magnitude of a determinant (the log keeps sin^N-like minors of many
  /// loops from underflowing).
  struct Determinant {
    double sign = 1.0, logMagnitude = 0.0;
  };
  void evaluate(double t, const Eigen::VectorXd& q);
  void choosePartition(const Eigen::MatrixXd& J);
  /// Determinant of J restricted to the watched equations and coordinates (buffers reused).
  Determinant minor(const Eigen::MatrixXd& J);
  /// The watched minor at fraction s of the path from the state before last through the last
  /// one to (t, q) (s in [0, 2]; only [1, 2] when there is no state before last).
  Determinant minorAlongPath(double s, double t, const Eigen::VectorXd& q);
  double pathTime(double s, double t) const;
  /// Golden-section search over `steps` steps for the smallest |minor| along the path within
  /// [a, b], which it narrows; evaluates J at the best point found and returns it.
  double narrowDip(double& a, double& b, int steps, double t, const Eigen::VectorXd& q);
  /// Smallest (at the rank) to largest singular value of J at the last evaluation.
  double smallestSingularRatio();
  /// The description of a singular configuration when J at the last minorAlongPath call has lost
  /// rank (its smallest to largest singular value below kSingularRatio); else empty.
  std::string describeIfSingular(double tSingular, double tFrom, double tTo);

  const Model& model_;
  Workspace ws_;
  ConstraintEvaluator constraints_;
  Eigen::VectorXd qPrev_, qBefore_, qPath_;
  double tPrev_ = 0.0, tBefore_ = 0.0;
  bool haveBefore_ = false;  // qBefore_ (the state before qPrev_) was seen with the same minor
  int rank_ = 0;
  std::vector<int> rows_, cols_;  // the watched choice of equations and dependent coordinates
  Determinant previous_, before_;  // the watched minor at qPrev_ and at qBefore_
  Eigen::MatrixXd minor_;
  Eigen::PartialPivLU<Eigen::MatrixXd> minorLu_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
};

}  // namespace articula
