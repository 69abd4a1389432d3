// The run loop: initial assembly, time stepping with a chosen formulation and
// integrator, sampling at a fixed output interval, and run statistics.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "articula/dynamics/rank_traffic.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/simulate/realtime.hpp"
#include "articula/simulate/system.hpp"

namespace articula {

struct SimulationOptions {
  std::string formulation = "auto";
  std::string integrator = "rk45";
  IntegratorOptions integratorOptions;
  /// Structural integrators (integrate/structural.hpp): the basic parameter of seed 001 Table 2
  /// (NaN: the family's default) and the index-3 formulation's options.
  double basicParameter = std::numeric_limits<double>::quiet_NaN();
  AugmentedLagrangianOptions augmentedLagrangian;
  double tStart = 0.0;
  double tEnd = 10.0;
  double outputInterval = 0.01;  ///< sampling period of the outputs (s)
  Stabilization stabilization = Stabilization::Projection;
  double baumgarteAlpha = 10.0, baumgarteBeta = 10.0;  ///< used with Stabilization::Baumgarte
  double projectionTolerance = 1e-12;                  ///< |g|_inf target of the position projection (m or rad)
  bool assemble = true;                                ///< run the initial assembly first
  /// The distributed formulation's subsystem count (FormulationOptions::subsystems; 0: the model's
  /// partition, or one subsystem).
  int subsystems = 0;
  /// The assembly tree of dca and hdca (dynamics/assembly_tree.hpp): "balanced" (default; the
  /// threads share it) or "serial" (the fastest on one thread).
  std::string assemblyTree = "balanced";
  /// The distributed formulation across the ranks of this communicator (FormulationOptions::
  /// communicator); null: one process. Not part of runDescription: the numbers do not depend on it.
  const parallel::Communicator* communicator = nullptr;
  /// Stop (SimulationError) when the motion passes a singular configuration of the loop
  /// constraints (dynamics/singularity.hpp); false: count them in the result and go on.
  bool stopAtSingularities = true;
  // Restart files (docs/reliability.md).
  std::string checkpointPath;        ///< where to write restart files; empty: none
  double checkpointInterval = 60.0;  ///< wall-clock seconds between restart files
  std::string resumeFrom;            ///< restart file to continue from; empty: start at tStart
  /// Identifies the run (model and options); a resume refuses a restart file whose
  /// fingerprint differs. runDescription(options) plus a hash of the model file is typical.
  std::string runFingerprint;
  /// Real-time mode (simulate/realtime.hpp): > 0 paces the steps to the wall clock at this many
  /// simulated seconds per wall-clock second, hands the samples to a writer thread, and does not
  /// call `progress`; 0 runs as fast as it can. Not with restart files (checkpointPath).
  double realtimeSpeed = 0.0;
};

/// The options that determine a run's numbers, as exact text (restart fingerprints).
std::string runDescription(const SimulationOptions& options);

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
  /// Restart support: what the sink needs to continue a resumed run as if it had never
  /// stopped (a file length, recorded frames). Stateless sinks keep the defaults.
  virtual void saveState(ArchiveWriter&) const {}
  virtual void restoreState(ArchiveReader&) {}
};

struct SimulationResult {
  bool ok = true;
  std::string error;  ///< empty when ok
  std::string formulation, integrator;
  double tReached = 0.0;
  double wallSeconds = 0.0;
  /// Of wallSeconds, the part spent writing samples (projection of the interpolated
  /// samples, energies, the sinks), in this process (a resumed run counts from the resume).
  double outputSeconds = 0.0;
  long steps = 0, rejectedSteps = 0, evaluations = 0;
  long samples = 0;
  /// The distributed formulation: bytes of interface matrices (D, R up, forces Q down) that pass
  /// between hierarchy levels in one evaluation (docs/distributed.md); 0 for the others.
  long exchangedBytesPerEvaluation = 0;
  /// The distributed formulation across MPI ranks: what passes between the ranks per evaluation
  /// (messages and bytes per hierarchy level, the all-gather of the joint accelerations).
  RankTraffic rankTraffic;
  double initialEnergy = 0.0, finalEnergy = 0.0;
  double maxEnergyDrift = 0.0;          ///< max |E(t) - E(0)| over the samples (J)
  double maxRelativeEnergyDrift = 0.0;  ///< maxEnergyDrift / |E(0)| (0 when E(0) == 0)
  bool conservative = true;             ///< no dampers, loads or prescribed motion
  /// System momentum in world coordinates (angular about the origin; linear) at the first and
  /// last samples, and max |h(t) - h(0)| (2-norm of the 6 components) over the samples.
  Force initialMomentum, finalMomentum;
  double maxMomentumDrift = 0.0;
  bool momentumConserved = false;  ///< no gravity, no external loads, nothing attached to the ground but free joints
  double maxPositionError = 0.0;        ///< over all accepted steps
  double maxVelocityError = 0.0;
  AssemblyResult assembly;
  double resumedAt = -1.0;          ///< time the run was resumed from (-1: not resumed)
  long singularConfigurations = 0;  ///< passed with stopAtSingularities off
  std::string firstSingularity;     ///< description of the first one
  long checkpoints = 0;             ///< restart files written
  RealtimeStats realtime;           ///< step timing of a paced run (realtime.speed 0: not paced)
};

/// Runs the simulation; failures during the run are caught and reported in the
/// result (ok = false, error, tReached) after the sinks got every sample up to then.
/// With options.checkpointPath set, a restart file is written atomically every
/// checkpointInterval wall-clock seconds (after an accepted step and its samples);
/// with options.resumeFrom set, the run continues from such a file bit-for-bit as the
/// interrupted run would have (the sinks' restoreState is called, no sample repeated).
/// `progress`, if set, is called after every accepted step with the current time.
SimulationResult simulate(const Model& model, const SimulationOptions& options, const std::vector<SampleSink*>& sinks,
                          const std::function<void(double)>& progress = {});

/// Throws articula::Error when the time range or output interval is invalid, or the formulation,
/// integrator or their options do not fit each other or the model (the message says what to
/// change): the checks simulate() makes first.
void checkRunOptions(const Model& model, const SimulationOptions& options);

/// Throws articula::Error unless options.resumeFrom is a readable restart file made for
/// options.runFingerprint: lets a caller refuse a resume before it touches any output.
void checkRestartFile(const SimulationOptions& options);

/// True when the model has no dissipative or time-dependent elements (energy is conserved).
bool isConservative(const Model& model);
/// True when nothing outside the system acts on it, so that its momentum is conserved: no
/// gravity, loads or prescribed motion, and only free joints, no loops and no springs to the ground.
bool conservesMomentum(const Model& model);

}  // namespace articula
