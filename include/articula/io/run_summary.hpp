// summary.json (written by writeSummaryJson) read back, and the benchmark figures of the run.
#pragma once

#include <optional>
#include <string>

namespace articula {

/// The parts of summary.json that reports show. A number written as null (not finite) reads as NaN.
struct RunSummary {
  bool ok = true;
  std::string error;  ///< empty when ok
  std::string modelName, modelFile;
  long bodies = 0, constraintEquations = 0;
  std::string formulation, integrator, stabilization;
  double dt = 0, rtol = 0, atol = 0, tStart = 0, tEnd = 0, tReached = 0;
  double wallSeconds = 0, outputSeconds = 0;
  long steps = 0, rejectedSteps = 0, evaluations = 0, samples = 0;
  std::optional<double> resumedAt;
  long checkpoints = 0, singularConfigurations = 0;
  bool conservative = true;
  double initialEnergy = 0, finalEnergy = 0, maxEnergyDrift = 0, maxRelativeEnergyDrift = 0;
  double maxPositionError = 0, maxVelocityError = 0;
};

/// Reads summary.json with yaml-cpp (JSON is YAML 1.2 flow syntax). Throws articula::Error naming
/// the file and the line of a syntax error, or the member that is missing or of the wrong type.
RunSummary readRunSummary(const std::string& path);

/// What the run cost, from its summary.
struct RunBenchmark {
  double simulatedSeconds = 0;    ///< t_reached - t_start
  double integrationSeconds = 0;  ///< wall time less the time spent writing outputs
  double secondsPerStep = 0;      ///< wall time / steps
  double stepsPerSecond = 0;      ///< steps / integration time
  double evaluationsPerStep = 0;
  double realTimeFactor = 0;      ///< simulated time / integration time (> 1: faster than real time)
};
/// NaN for a figure without a meaning (no steps, no integration time).
RunBenchmark benchmarkOf(const RunSummary& summary);

}  // namespace articula
