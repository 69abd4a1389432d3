// The semi-recursive formulation on closed loops by coordinate partitioning: the double velocity
// transformation of seed 004 section 2.1. The loop constraints J v = nu split the relative
// velocities into dependent and independent ones, v = R v_i + (particular part) (eq. (20)-(24));
// the semi-recursive M and Q (seed 001 eq. (14)-(19)) are projected onto the independent ones,
// R^T M R vdot_i = R^T (Q - M c) (eq. (31)-(38)). After each step the dependent positions are
// solved from the independent ones by Newton-Raphson and the dependent velocities follow, so the
// integrator effectively advances the independent coordinates only.
//
// The split is chosen by LU with full pivoting of J (the pivot columns become dependent; the
// pivot rows are the independent equations, so redundant constraint rows are tolerated), and it
// is chosen again whenever the dependent block's conditioning falls below a tenth of what it was
// at selection: near a singular position of the chosen split (a four-bar rocker at its dead
// point, say) the formulation moves on with another set of independent coordinates.
#pragma once

#include <Eigen/LU>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/constraints.hpp"

namespace articula {

class CoordinatePartitioning final : public Formulation {
 public:
  explicit CoordinatePartitioning(const Model& model);
  std::string_view name() const override { return "semi-recursive"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;
  bool correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) override;

  /// Chooses the split at (t, q) now; `preferredIndependent` (velocity coordinates) are taken as
  /// independent where the Jacobian allows (tests use it to start from a split that will fail).
  void selectPartition(double t, const Eigen::VectorXd& q, const std::vector<int>& preferredIndependent = {});
  const std::vector<int>& independent() const { return independent_; }
  /// How many times the split was chosen again because it had become ill-conditioned.
  long reselections() const { return reselections_; }

 private:
  /// Factorises the dependent block of constraints_.J (current for q); when it has become
  /// ill-conditioned, selects a new split instead and returns true (ws_ then holds positions only).
  bool factorizeDependent(double t, const Eigen::VectorXd& q);

  const Model& model_;
  Workspace ws_;
  SemiRecursiveDynamics dynamics_;
  ConstraintEvaluator constraints_;
  std::vector<int> dependent_, independent_, rows_;  // columns and independent equations
  std::vector<char> isDependent_;
  Eigen::MatrixXd Jd_, Ji_, R_, M_, RtMR_;
  Eigen::PartialPivLU<Eigen::MatrixXd> dependentLu_;
  Eigen::LLT<Eigen::MatrixXd> reducedLlt_;
  Eigen::VectorXd Q_, c_, rhs_, vi_, gammaRows_, dq_;
  double conditioningAtSelection_ = 0.0;
  long reselections_ = 0;
  bool selected_ = false;
};

}  // namespace articula
