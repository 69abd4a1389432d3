// Private to src/optimize: what every optimiser back end shares. Evaluates J (and dJ/db) for the
// optimiser, evaluates the problem's constraints, records each evaluation (cost, projected gradient
// norm, bound and constraint violation, time), calls the progress callback, and keeps the best
// point seen.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "articula/optimize/optimizer.hpp"

namespace articula::detail {

class EvaluationLog {
 public:
  EvaluationLog(TrajectoryGradient& gradient, const OptimalControlProblem& problem, const OptimizerOptions& options,
                const std::function<void(const OptimizationRecord&)>& progress);

  /// J(b), and dJ/db into *grad when grad is not null (unscaled). Records the evaluation, with
  /// the constraints' violation there.
  double evaluate(const Eigen::VectorXd& b, Eigen::VectorXd* grad);
  int constraintCount() const { return static_cast<int>(constraints_.size()); }
  /// G_k(b) - upper_k (<= 0 where constraint k holds), and its gradient into *grad when not null.
  double constraint(int k, const Eigen::VectorXd& b, Eigen::VectorXd* grad);
  int evaluations() const { return static_cast<int>(result_.history.size()); }
  const Eigen::VectorXd& lower() const { return lower_; }
  const Eigen::VectorXd& upper() const { return upper_; }

  /// The best point seen, with its gradient (computed now when its evaluation had none).
  OptimizationResult finish(std::string status, bool converged);

 private:
  /// G_k(b), and dG_k/db into *grad when not null; a value already computed at b is reused.
  double functional(int k, const Eigen::VectorXd& b, Eigen::VectorXd* grad);

  TrajectoryGradient& gradient_;
  const OptimizerOptions& options_;
  Eigen::VectorXd lower_, upper_;
  const std::function<void(const OptimizationRecord&)>& progress_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  OptimizationResult result_;
  bool bestHasGradient_ = false;
  std::vector<std::unique_ptr<TrajectoryGradient>> constraints_;  // one per constraint functional G_k
  std::vector<double> bounds_;                                    // their upper bounds
  Eigen::VectorXd values_;                 // G_k at its last b
  std::vector<Eigen::VectorXd> valuesAt_;  // that b, per constraint
};

/// Throws articula::Error when the start vector or the cost scale does not fit.
void checkOptimizerInput(const TrajectoryGradient& gradient, const Eigen::VectorXd& start, const OptimizerOptions& options);

/// The IPOPT back end (ipopt_solver.cpp): interior point with a limited-memory Hessian.
OptimizationResult optimizeWithIpopt(EvaluationLog& log, const Eigen::VectorXd& start, const OptimizerOptions& options);

}  // namespace articula::detail
