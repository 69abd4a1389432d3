// Reading an optimal control / design problem file (docs/optimal-control.md): the model it
// refers to, the time grid and integrator, the design parameters, the control inputs, the cost
// terms and the optimiser's settings. Every error is a ModelError naming the problem file, line
// and entry.
#pragma once

#include <optional>
#include <string>

#include "articula/optimize/optimizer.hpp"
#include "articula/optimize/tracking.hpp"

namespace articula {

struct ProblemFile {
  OptimalControlProblem problem;
  OptimizerOptions optimizer;
  GradientOptions gradient;
  std::string modelPath;  ///< as resolved (relative paths are taken from the problem file's folder)
  std::optional<TrackingStudy> tracking;  ///< the `tracking` section (articula track)
  /// The `continuation` section: problems solved before this one, in order, each from the last
  /// one's optimum (optimizeByContinuation; the file's own problem and optimizer come last).
  std::vector<ContinuationStage> continuation;
};

/// Parses a problem file's text; `fileLabel` is its path (for messages and for resolving the model).
ProblemFile parseProblemYaml(const std::string& text, const std::string& fileLabel);
/// Reads and parses the problem file at `path` and the model it names.
ProblemFile loadProblem(const std::string& path);

}  // namespace articula
