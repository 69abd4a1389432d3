#include "evaluation_log.hpp"

#include <cmath>

namespace articula::detail {

EvaluationLog::EvaluationLog(TrajectoryGradient& gradient, const OptimalControlProblem& problem,
                             const OptimizerOptions& options, const std::function<void(const OptimizationRecord&)>& progress)
    : gradient_(gradient), options_(options), lower_(problem.lowerBounds()), upper_(problem.upperBounds()),
      progress_(progress) {
  for (const FunctionalConstraint& c : problem.constraints) {
    constraints_.push_back(std::make_unique<TrajectoryGradient>(constraintProblem(problem, c), gradient.options()));
    bounds_.push_back(c.upper);
  }
  values_.resize(constraintCount());
  valuesAt_.resize(constraints_.size());
}

double EvaluationLog::functional(int k, const Eigen::VectorXd& b, Eigen::VectorXd* grad) {
  Eigen::VectorXd& at = valuesAt_[static_cast<std::size_t>(k)];
  // The optimisers ask for G and for J at the same b, in either order (IPOPT: G first), and each
  // record needs G: a value already computed at this b is not run again.
  if (!grad && at.size() == b.size() && b == at) return values_[k];
  TrajectoryGradient& g = *constraints_[static_cast<std::size_t>(k)];
  values_[k] = grad ? g.gradient(b, *grad, options_.gradient) : g.cost(b);
  at = b;
  return values_[k];
}

double EvaluationLog::constraint(int k, const Eigen::VectorXd& b, Eigen::VectorXd* grad) {
  return functional(k, b, grad) - bounds_[static_cast<std::size_t>(k)];
}

double EvaluationLog::evaluate(const Eigen::VectorXd& b, Eigen::VectorXd* grad) {
  const double J = grad ? gradient_.gradient(b, *grad, options_.gradient) : gradient_.cost(b);
  OptimizationRecord r;
  r.evaluation = evaluations() + 1;
  r.cost = J;
  r.projectedGradientNorm = grad ? projectedGradientNorm(b, *grad, lower_, upper_) : std::nan("");
  r.boundViolation = std::max({0.0, (lower_ - b).maxCoeff(), (b - upper_).maxCoeff()});
  for (int k = 0; k < constraintCount(); ++k) r.constraintViolation = std::max(r.constraintViolation, constraint(k, b, nullptr));
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  result_.history.push_back(r);
  if (progress_) progress_(r);
  // The best point: feasible before infeasible, then the lower cost (or the smaller violation).
  const double tolerance = options_.constraintTolerance;
  const bool feasible = r.constraintViolation <= tolerance, bestFeasible = result_.constraintViolation <= tolerance;
  const bool better = result_.parameters.size() == 0 || (feasible && (!bestFeasible || J < result_.cost)) ||
                      (!feasible && !bestFeasible && r.constraintViolation < result_.constraintViolation);
  if (better) {
    result_.parameters = b;
    result_.cost = J;
    result_.constraintViolation = r.constraintViolation;
    result_.constraintValues = values_;  // all at b: the loop above just asked for them
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
  if (result_.constraintValues.size() != constraintCount())  // no evaluation was made
    result_.constraintValues = Eigen::VectorXd::Constant(constraintCount(), std::nan(""));
  if (result_.constraintViolation > options_.constraintTolerance && result_.converged) {
    result_.status += "; the constraints do not hold (violation " + std::to_string(result_.constraintViolation) + ")";
    result_.converged = false;
  }
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
