#include "articula/optimize/optimizer.hpp"

#include <nlopt.hpp>

#include <chrono>
#include <cmath>

namespace articula {

namespace {

nlopt::algorithm nloptAlgorithm(const std::string& name) {
  if (name == "lbfgs") return nlopt::LD_LBFGS;
  if (name == "slsqp") return nlopt::LD_SLSQP;
  if (name == "mma") return nlopt::LD_MMA;
  if (name == "ccsaq") return nlopt::LD_CCSAQ;
  std::string valid;
  for (const std::string& a : optimizerAlgorithms()) valid += (valid.empty() ? "" : ", ") + a;
  throw Error("unknown optimisation algorithm '" + name + "' (one of: " + valid + ")");
}

std::string describeResult(nlopt::result r) {
  switch (r) {
    case nlopt::SUCCESS: return "success";
    case nlopt::STOPVAL_REACHED: return "cost reached the stop value";
    case nlopt::FTOL_REACHED: return "cost tolerance reached";
    case nlopt::XTOL_REACHED: return "parameter tolerance reached";
    case nlopt::MAXEVAL_REACHED: return "evaluation budget used up";
    case nlopt::MAXTIME_REACHED: return "time budget used up";
    default: return "stopped (NLopt code " + std::to_string(static_cast<int>(r)) + ")";
  }
}

// nlopt's objective: a pointer to this.
struct Objective {
  TrajectoryGradient& gradient;
  const OptimizerOptions& options;
  Eigen::VectorXd lower, upper;
  const std::function<void(const OptimizationRecord&)>& progress;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  OptimizationResult result;
  Eigen::VectorXd g;

  double operator()(const std::vector<double>& x, std::vector<double>& grad) {
    const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
    double J;
    if (grad.empty()) {
      J = gradient.cost(b);
    } else {
      J = gradient.gradient(b, g, options.gradient);
      Eigen::Map<Eigen::VectorXd>(grad.data(), static_cast<Eigen::Index>(grad.size())) = options.costScale * g;
    }
    OptimizationRecord r;
    r.evaluation = static_cast<int>(result.history.size()) + 1;
    r.cost = J;
    r.projectedGradientNorm = grad.empty() ? std::nan("") : projectedGradientNorm(b, g, lower, upper);
    r.boundViolation = std::max({0.0, (lower - b).maxCoeff(), (b - upper).maxCoeff()});
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.history.push_back(r);
    if (progress) progress(r);
    if (result.parameters.size() == 0 || J < result.cost) {
      result.parameters = b;
      result.cost = J;
      if (!grad.empty()) result.gradient = g;
    }
    return options.costScale * J;
  }
};

}  // namespace

const std::vector<std::string>& optimizerAlgorithms() {
  static const std::vector<std::string> names = {"lbfgs", "slsqp", "mma", "ccsaq"};
  return names;
}

double projectedGradientNorm(const Eigen::VectorXd& b, const Eigen::VectorXd& g, const Eigen::VectorXd& lower,
                             const Eigen::VectorXd& upper) {
  double sum = 0.0;
  for (int k = 0; k < g.size(); ++k) {
    const bool atLower = b[k] <= lower[k] && g[k] > 0.0, atUpper = b[k] >= upper[k] && g[k] < 0.0;
    if (!atLower && !atUpper) sum += g[k] * g[k];
  }
  return std::sqrt(sum);
}

OptimizationResult optimize(TrajectoryGradient& gradient, const OptimalControlProblem& problem,
                            const Eigen::VectorXd& start, const OptimizerOptions& options,
                            const std::function<void(const OptimizationRecord&)>& progress) {
  const int n = gradient.parameterCount();
  if (!(options.costScale > 0.0) || !std::isfinite(options.costScale))
    throw Error("the cost scale must be a positive number");
  if (start.size() != n)
    throw Error("the start vector has " + std::to_string(start.size()) + " entries; the problem has " + std::to_string(n) +
                " parameters");
  nlopt::opt opt(nloptAlgorithm(options.algorithm), static_cast<unsigned>(n));
  Objective objective{gradient, options, problem.lowerBounds(), problem.upperBounds(), progress};
  const auto toStd = [](const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
  opt.set_lower_bounds(toStd(objective.lower));
  opt.set_upper_bounds(toStd(objective.upper));
  opt.set_min_objective(
      [](const std::vector<double>& x, std::vector<double>& grad, void* data) {
        return (*static_cast<Objective*>(data))(x, grad);
      },
      &objective);
  opt.set_maxeval(options.maxEvaluations);
  opt.set_ftol_rel(options.costTolerance);
  opt.set_xtol_rel(options.parameterTolerance);
  std::vector<double> x = toStd(start.cwiseMax(objective.lower).cwiseMin(objective.upper));
  double best = 0.0;
  OptimizationResult& result = objective.result;
  try {
    const nlopt::result r = opt.optimize(x, best);
    result.status = describeResult(r);
    result.converged = r == nlopt::SUCCESS || r == nlopt::FTOL_REACHED || r == nlopt::XTOL_REACHED ||
                       r == nlopt::STOPVAL_REACHED;
  } catch (const nlopt::roundoff_limited&) {
    // The line search cannot improve further at machine precision: the best point stands.
    result.status = "stopped by round-off (no further progress possible)";
    result.converged = true;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    result.status = std::string("optimiser failed: ") + e.what();
  }
  if (result.gradient.size() != n) gradient.gradient(result.parameters, result.gradient, options.gradient);
  return result;
}

}  // namespace articula
