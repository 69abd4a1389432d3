// The run loop: initial assembly, time stepping with a chosen formulation and
// integrator, sampling at a fixed output interval, and run statistics.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "articula/dynamics/reference.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/simulate/system.hpp"

namespace articula {

struct SimulationOptions {
  std::string formulation = "auto";
  std::string integrator = "rk45";
  IntegratorOptions integratorOptions;
  double tStart = 0.0;
  double tEnd = 10.0;
  double outputInterval = 0.01;  ///< sampling period of the outputs (s)
  Stabilization stabilization = Stabilization::Projection;
  double baumgarteAlpha = 10.0, baumgarteBeta = 10.0;  ///< used with Stabilization::Baumgarte
  double projectionTolerance = 1e-12;                  ///< |g|_inf target of the position projection (m or rad)
  bool assemble = true;                                ///< run the initial assembly first
};

/// One output sample; `ws` holds positions and velocities of this state.
struct Sample {
  double t;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  double kineticEnergy, potentialEnergy;
  double positionError, velocityError;  ///< constraint violations (infinity norms)
  const Workspace& ws;
};

class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void write(const Sample& sample) = 0;
};

struct SimulationResult {
  bool ok = true;
  std::string error;           ///< empty when ok
  std::string formulation, integrator;
  double tReached = 0.0;
  double wallSeconds = 0.0;
  long steps = 0, rejectedSteps = 0, evaluations = 0;
  long samples = 0;
  double initialEnergy = 0.0, finalEnergy = 0.0;
  double maxEnergyDrift = 0.0;          ///< max |E(t) - E(0)| over the samples (J)
  double maxRelativeEnergyDrift = 0.0;  ///< maxEnergyDrift / |E(0)| (0 when E(0) == 0)
  bool conservative = true;             ///< no dampers, loads or prescribed motion
  double maxPositionError = 0.0;        ///< over all accepted steps
  double maxVelocityError = 0.0;
  AssemblyResult assembly;
};

/// Runs the simulation; failures during the run are caught and reported in the
/// result (ok = false, error, tReached) after the sinks got every sample up to then.
/// `progress`, if set, is called after every accepted step with the current time.
SimulationResult simulate(const Model& model, const SimulationOptions& options, const std::vector<SampleSink*>& sinks,
                          const std::function<void(double)>& progress = {});

/// True when the model has no dissipative or time-dependent elements (energy is conserved).
bool isConservative(const Model& model);

}  // namespace articula
