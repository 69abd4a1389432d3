// Gradient-based optimisation of a problem (optimize/problem.hpp) within its bounds, the gradient
// from TrajectoryGradient: NLopt (Debian libnlopt-cxx-dev) L-BFGS, SLSQP and MMA/CCSAQ, and IPOPT
// (Debian coinor-libipopt-dev; interior point, limited-memory Hessian). Warm start: begin from any
// parameter vector (e.g. a previous optimum).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "articula/optimize/trajectory_gradient.hpp"

namespace articula {

struct OptimizerOptions {
  std::string algorithm = "lbfgs";  ///< "lbfgs", "slsqp", "mma", "ccsaq" or "ipopt"
  int maxEvaluations = 200;         ///< cost-and-gradient evaluations
  /// NLopt: stop when J changes by less than this, relative; IPOPT: its tolerance on the scaled
  /// optimality error.
  double costTolerance = 1e-12;
  double parameterTolerance = 1e-10;  ///< stop when b changes by less than this, relative
  /// The optimiser minimises costScale * J (records and results keep J itself). L-BFGS stops when
  /// the largest gradient component falls below a fixed absolute threshold, so a problem whose J
  /// is small near its optimum stops early unless its cost is scaled up.
  double costScale = 1.0;
  GradientMethod gradient = GradientMethod::Adjoint;
  /// A constraint G <= upper of the problem holds when G <= upper + this (its units).
  double constraintTolerance = 1e-8;
};

/// One cost-and-gradient evaluation of the optimiser.
struct OptimizationRecord {
  int evaluation = 0;
  double cost = 0.0;
  /// Norm of the gradient projected on the bounds (components that push out of an active bound
  /// removed): zero at a first-order optimum (seed 002 Fig. 5.5's first-order optimality). NaN for
  /// an evaluation of the cost alone (some line searches ask for no gradient).
  double projectedGradientNorm = 0.0;
  double boundViolation = 0.0;  ///< max distance of b outside its bounds (0 when inside)
  /// max over the problem's constraints of G - upper, 0 when all hold (and without constraints)
  double constraintViolation = 0.0;
  double wallSeconds = 0.0;     ///< since the start of the optimisation
};

struct OptimizationResult {
  /// The best b found: the lowest J among the points where the constraints hold (within the
  /// tolerance), or the least violation when none does.
  Eigen::VectorXd parameters;
  Eigen::VectorXd gradient;    ///< dJ/db there
  double cost = 0.0;
  Eigen::VectorXd constraintValues;  ///< G of each of the problem's constraints there
  double constraintViolation = 0.0;  ///< max(0, G - upper) over them
  std::string status;          ///< NLopt's reason for stopping, in words
  bool converged = false;      ///< stopped on a tolerance, not on the evaluation budget or a failure
  std::vector<OptimizationRecord> history;
};

/// The names optimize() accepts, for messages and --help.
const std::vector<std::string>& optimizerAlgorithms();

/// Minimises J from `start` within the problem's bounds and subject to its constraints (each
/// evaluation also runs every constraint's functional; its gradient comes from its own adjoint).
/// `progress` (optional) sees every record as it is made. Throws articula::Error for an unknown
/// algorithm, a start of the wrong size, or constraints given to lbfgs (bounds only).
OptimizationResult optimize(TrajectoryGradient& gradient, const OptimalControlProblem& problem,
                            const Eigen::VectorXd& start, const OptimizerOptions& options,
                            const std::function<void(const OptimizationRecord&)>& progress = {});

/// One problem of a continuation (seed 002 solves 5.5.1 and chapter 7 this way): a variant of the
/// final problem (other cost weights, another initial state) with its own optimiser settings.
struct ContinuationStage {
  OptimalControlProblem problem;
  OptimizerOptions options;
};

/// Solves the stages in order, each from the previous one's optimum and the first from `start`;
/// returns every stage's result. The stages must have the same parameters (names and bounds may
/// differ only in value). `progress` sees the stage's index with each record.
std::vector<OptimizationResult> optimizeByContinuation(
    const std::vector<ContinuationStage>& stages, const Eigen::VectorXd& start, const GradientOptions& gradient,
    const std::function<void(int stage, const OptimizationRecord&)>& progress = {});

/// ||g projected on the bounds||: components of g at an active bound that point outward dropped.
double projectedGradientNorm(const Eigen::VectorXd& b, const Eigen::VectorXd& g, const Eigen::VectorXd& lower,
                             const Eigen::VectorXd& upper);

}  // namespace articula
