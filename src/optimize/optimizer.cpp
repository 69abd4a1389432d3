#include "articula/optimize/optimizer.hpp"

#include <nlopt.hpp>

#include <cmath>

#include "evaluation_log.hpp"

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

}  // namespace

const std::vector<std::string>& optimizerAlgorithms() {
  static const std::vector<std::string> names = {"lbfgs", "slsqp", "mma", "ccsaq", "ipopt"};
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
  detail::checkOptimizerInput(gradient, start, options);
  detail::EvaluationLog log(gradient, problem, options, progress);
  const Eigen::VectorXd x0 = start.cwiseMax(log.lower()).cwiseMin(log.upper());
  if (options.algorithm == "ipopt") return detail::optimizeWithIpopt(log, x0, options);
  if (options.algorithm == "lbfgs" && log.constraintCount() > 0)
    throw Error("the problem has constraints, which lbfgs does not take (bounds only): use slsqp, mma, ccsaq or ipopt");

  const int n = gradient.parameterCount();
  nlopt::opt opt(nloptAlgorithm(options.algorithm), static_cast<unsigned>(n));
  const auto toStd = [](const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
  opt.set_lower_bounds(toStd(log.lower()));
  opt.set_upper_bounds(toStd(log.upper()));
  struct Objective {
    detail::EvaluationLog& log;
    double scale;
    Eigen::VectorXd g;
  } objective{log, options.costScale, Eigen::VectorXd(n)};
  opt.set_min_objective(
      [](const std::vector<double>& x, std::vector<double>& grad, void* data) {
        auto& o = *static_cast<Objective*>(data);
        const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
        const double J = o.log.evaluate(b, grad.empty() ? nullptr : &o.g);
        if (!grad.empty()) Eigen::Map<Eigen::VectorXd>(grad.data(), static_cast<Eigen::Index>(grad.size())) = o.scale * o.g;
        return o.scale * J;
      },
      &objective);
  // G_k(b) - upper_k <= 0, each with its own adjoint gradient.
  struct Constraint {
    detail::EvaluationLog& log;
    int k;
    Eigen::VectorXd g;
  };
  std::vector<Constraint> constraints;
  constraints.reserve(static_cast<std::size_t>(log.constraintCount()));  // NLopt keeps their addresses
  for (int k = 0; k < log.constraintCount(); ++k) {
    constraints.push_back({log, k, Eigen::VectorXd(n)});
    opt.add_inequality_constraint(
        [](const std::vector<double>& x, std::vector<double>& grad, void* data) {
          auto& c = *static_cast<Constraint*>(data);
          const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
          const double G = c.log.constraint(c.k, b, grad.empty() ? nullptr : &c.g);
          if (!grad.empty()) Eigen::Map<Eigen::VectorXd>(grad.data(), static_cast<Eigen::Index>(grad.size())) = c.g;
          return G;
        },
        &constraints.back(), options.constraintTolerance);
  }
  opt.set_maxeval(options.maxEvaluations);
  opt.set_ftol_rel(options.costTolerance);
  opt.set_xtol_rel(options.parameterTolerance);
  std::vector<double> x = toStd(x0);
  double best = 0.0;
  try {
    const nlopt::result r = opt.optimize(x, best);
    return log.finish(describeResult(r), r == nlopt::SUCCESS || r == nlopt::FTOL_REACHED || r == nlopt::XTOL_REACHED ||
                                             r == nlopt::STOPVAL_REACHED);
  } catch (const nlopt::roundoff_limited&) {
    // The line search cannot improve further at machine precision: the best point stands.
    return log.finish("stopped by round-off (no further progress possible)", true);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    return log.finish(std::string("optimiser failed: ") + e.what(), false);
  }
}

std::vector<OptimizationResult> optimizeByContinuation(const std::vector<ContinuationStage>& stages,
                                                       const Eigen::VectorXd& start, const GradientOptions& gradient,
                                                       const std::function<void(int, const OptimizationRecord&)>& progress) {
  for (std::size_t k = 0; k < stages.size(); ++k)
    if (stages[k].problem.parameterCount() != start.size())
      throw Error("continuation stage " + std::to_string(k + 1) + " has " + std::to_string(stages[k].problem.parameterCount()) +
                  " parameters where the start has " + std::to_string(start.size()));
  std::vector<OptimizationResult> results;
  Eigen::VectorXd b = start;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const ContinuationStage& stage = stages[k];
    TrajectoryGradient tg(stage.problem, gradient);
    const auto report = [&](const OptimizationRecord& r) {
      if (progress) progress(static_cast<int>(k), r);
    };
    results.push_back(optimize(tg, stage.problem, b, stage.options, report));
    b = results.back().parameters;
  }
  return results;
}

}  // namespace articula
