// Detection of singular configurations of the constraints along a run.
//
// Where the constraint Jacobian J (equations x velocity coordinates) loses rank, a
// closed-loop mechanism can leave its assembly branch (a parallelogram four-bar turning
// into an anti-parallelogram at its flat position) while every constraint stays
// satisfied, so nothing else would notice. Between two accepted steps the monitor
// watches the sign of the determinant of J restricted to a choice of r independent
// equations and r dependent coordinates (r = rank of J, chosen by full pivoting). When
// the sign changes, the minor vanished in between: bisection along the straight line
// between the two configurations finds where, and the singular values of J there tell
// whether the whole Jacobian lost rank (a singular configuration) or only the choice was
// poor (the monitor then moves to the best choice at the new state).
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
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
  void evaluate(double t, const Eigen::VectorXd& q);
  void choosePartition(const Eigen::MatrixXd& J);
  /// Determinant of J restricted to the watched equations and coordinates (buffers reused).
  double minor(const Eigen::MatrixXd& J);

  const Model& model_;
  Workspace ws_;
  ConstraintEvaluator constraints_;
  Eigen::VectorXd qPrev_;
  double tPrev_ = 0.0;
  int rank_ = 0;
  std::vector<int> rows_, cols_;  // the watched choice of equations and dependent coordinates
  double sign_ = 1.0;             // sign of its determinant at the previous state
  Eigen::MatrixXd minor_;
  Eigen::PartialPivLU<Eigen::MatrixXd> minorLu_;
};

}  // namespace articula
