#include "evaluation_log.hpp"

#include <cmath>

namespace articula::detail {

EvaluationLog::EvaluationLog(TrajectoryGradient& gradient, const OptimalControlProblem& problem,
                             const OptimizerOptions& options, const std::function<void(const OptimizationRecord&)>& progress)
    : gradient_(gradient), options_(options), lower_(problem.lowerBounds()), upper_(problem.upperBounds()),
      progress_(progress) {}

double EvaluationLog::evaluate(const Eigen::VectorXd& b, Eigen::VectorXd* grad) {
  const double J = grad ? gradient_.gradient(b, *grad, options_.gradient) : gradient_.cost(b);
  OptimizationRecord r;
  r.evaluation = evaluations() + 1;
  r.cost = J;
  r.projectedGradientNorm = grad ? projectedGradientNorm(b, *grad, lower_, upper_) : std::nan("");
  r.boundViolation = std::max({0.0, (lower_ - b).maxCoeff(), (b - upper_).maxCoeff()});
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  result_.history.push_back(r);
  if (progress_) progress_(r);
  if (result_.parameters.size() == 0 || J < result_.cost) {
    result_.parameters = b;
    result_.cost = J;
    bestHasGradient_ = grad != nullptr;
    if (grad) result_.gradient = *grad;
  }
  return J;
}

OptimizationResult EvaluationLog::finish(std::string status, bool converged) {
  result_.status = std::move(status);
  result_.converged = converged;
  if (!bestHasGradient_ && result_.parameters.size() > 0)
    gradient_.gradient(result_.parameters, result_.gradient, options_.gradient);
  return result_;
}

void checkOptimizerInput(const TrajectoryGradient& gradient, const Eigen::VectorXd& start, const OptimizerOptions& options) {
  if (!(options.costScale > 0.0) || !std::isfinite(options.costScale))
    throw Error("the cost scale must be a positive number");
  if (start.size() != gradient.parameterCount())
    throw Error("the start vector has " + std::to_string(start.size()) + " entries; the problem has " +
                std::to_string(gradient.parameterCount()) + " parameters");
}

}  // namespace articula::detail
