#include "articula/simulate/simulation.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "articula/dynamics/distributed.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/singularity.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/hamiltonian_system.hpp"

namespace articula {

bool isConservative(const Model& model) {
  for (const auto& s : model.jointSprings)
    if (s.damping != 0.0 || s.reference) return false;
  for (const auto& s : model.pointSprings)
    if (s.damping != 0.0 || s.hasDampingCurve() || s.hasFriction()) return false;
  for (const auto& l : model.jointLimits)
    if (l.damping != 0.0) return false;
  return model.tyres.empty() && model.jointFrictions.empty() && model.bodyLoads.empty() && model.jointLoads.empty() && model.prescribed.empty();
}

bool conservesMomentum(const Model& model) {
  if (model.gravity != Vec3::Zero() || !model.tyres.empty() || !model.bodyLoads.empty() || !model.jointLoads.empty() || !model.prescribed.empty())
    return false;
  for (int i = 1; i <= model.bodyCount(); ++i)
    if (model.joints[i].parent == 0 && model.joints[i].type != JointType::Free) return false;
  for (const auto& l : model.loops)
    if (l.bodyA == 0 || l.bodyB == 0) return false;
  for (const auto& s : model.pointSprings)
    if (s.bodyA == 0 || s.bodyB == 0) return false;
  return true;
}

namespace {

// Names the first non-finite entry of the integrator's state [q; rates]: joint and coordinate.
// `rates` names what follows q in the state ("velocity", or "momentum" for [q; p]).
std::string describeNonFinite(const Model& model, const Eigen::VectorXd& x, const char* rates) {
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (std::isfinite(x[k])) continue;
    const bool isPosition = k < model.nq;
    const int index = static_cast<int>(isPosition ? k : k - model.nq);
    for (int i = 1; i <= model.bodyCount(); ++i) {
      const Joint& j = model.joints[i];
      const int first = isPosition ? j.iq : j.iv, count = isPosition ? j.nq : j.nv;
      if (index >= first && index < first + count)
        return "the state became non-finite: " + std::string(isPosition ? "position" : rates) + " coordinate " +
               std::to_string(index - first) + " of joint '" + j.name + "' (body '" + model.bodies[i].name + "')";
    }
  }
  return "the state became non-finite";
}

// The first-order system the explicit integrators step, and the map from its state to the joint
// positions and velocities [q; v] that the samples, energies and constraint checks read. The
// acceleration formulations step [q; v] itself (MultibodySystem: the map is the identity); the
// Hamiltonian one steps [q; p] (HamiltonianSystem: v = v(q, p), p = M(q) v).
class RunSystem {
 public:
  virtual ~RunSystem() = default;
  virtual OdeSystem& ode() = 0;
  virtual ConstraintProjector& projector() = 0;
  /// What follows q in the integrator's state, for messages: "velocity" or "momentum".
  virtual const char* rates() const = 0;
  /// The integrator's state x (sized) of the positions and velocities qv.
  virtual void fromVelocityState(const Eigen::VectorXd& qv, Eigen::VectorXd& x) = 0;
  /// [q; v] of the integrator's state x at time t: x itself, or `buffer` (sized) filled with it.
  /// Does not allocate.
  virtual const Eigen::VectorXd& velocityState(double t, const Eigen::VectorXd& x, Eigen::VectorXd& buffer) = 0;
};

class VelocityForm final : public RunSystem {
 public:
  VelocityForm(const Model& model, std::unique_ptr<Formulation> formulation, Stabilization stabilization,
               double projectionTolerance)
      : system_(model, std::move(formulation), stabilization, projectionTolerance) {}
  OdeSystem& ode() override { return system_; }
  ConstraintProjector& projector() override { return system_.projector(); }
  const char* rates() const override { return "velocity"; }
  void fromVelocityState(const Eigen::VectorXd& qv, Eigen::VectorXd& x) override { x = qv; }
  const Eigen::VectorXd& velocityState(double, const Eigen::VectorXd& x, Eigen::VectorXd&) override { return x; }

 private:
  MultibodySystem system_;
};

class HamiltonianForm final : public RunSystem {
 public:
  HamiltonianForm(const Model& model, const HdcaOptions& options, bool projectPositions, double projectionTolerance)
      : system_(model, options, projectPositions, projectionTolerance) {}
  OdeSystem& ode() override { return system_; }
  ConstraintProjector& projector() override { return system_.projector(); }
  const char* rates() const override { return "momentum"; }
  void fromVelocityState(const Eigen::VectorXd& qv, Eigen::VectorXd& x) override { system_.canonicalState(qv, x); }
  const Eigen::VectorXd& velocityState(double t, const Eigen::VectorXd& x, Eigen::VectorXd& buffer) override {
    system_.velocityState(t, x, buffer);
    return buffer;
  }

 private:
  HamiltonianSystem system_;
};

// What a run steps: the ODE system, and for a structural integrator the index-3 formulation that
// keeps the constraints itself (the ODE system then only supplies the consistent initial
// accelerations, by the reference formulation). Throws articula::Error when the formulation does
// not fit the integrator or the model: the checks of checkRunOptions.
struct RunSetup {
  std::unique_ptr<Index3Problem> index3;  // null with an ODE integrator
  std::unique_ptr<RunSystem> system;
  std::string formulation;  // the name the result reports ("auto" resolved)
  long exchangedBytes = 0;  // the distributed formulation's traffic per evaluation
  RankTraffic rankTraffic;  // and what of it passes between MPI ranks
  bool structural = false;
};

RunSetup makeRunSetup(const Model& model, const SimulationOptions& options) {
  if (options.assemblyTree != "balanced" && options.formulation != "dca" && options.formulation != "hdca")
    throw Error("--assembly-tree applies to the dca and hdca formulations only, not to '" + options.formulation + "'");
  if (options.subsystems != 0 && options.formulation != "distributed")
    throw Error("--subsystems applies to the distributed formulation only, not to '" + options.formulation + "'");
  RunSetup setup;
  setup.structural = isStructuralIntegrator(options.integrator);
  const int threads = options.augmentedLagrangian.derivatives.threads;
  if (setup.structural) {
    setup.index3 = makeIndex3Problem(options.formulation, model, options.augmentedLagrangian);
    setup.formulation = options.formulation == "auto" ? "hybrid" : options.formulation;
    setup.system = std::make_unique<VelocityForm>(model, makeFormulation("reference", model), Stabilization::None,
                                                  options.projectionTolerance);
  } else if (options.formulation == "hdca") {
    HdcaOptions ho;
    ho.threads = threads;
    ho.pairing = pairingPolicy(options.assemblyTree);
    setup.formulation = options.formulation;
    setup.system = std::make_unique<HamiltonianForm>(model, ho, options.stabilization == Stabilization::Projection,
                                                     options.projectionTolerance);
  } else {
    FormulationOptions fo;
    fo.threads = threads;
    fo.subsystems = options.subsystems;
    fo.assemblyTree = options.assemblyTree;
    fo.communicator = options.communicator;
    if (options.stabilization == Stabilization::Baumgarte) {
      fo.baumgarteAlpha = options.baumgarteAlpha;
      fo.baumgarteBeta = options.baumgarteBeta;
    }
    auto formulation = makeFormulation(options.formulation, model, fo);
    setup.formulation = std::string(formulation->name());
    if (const auto* distributed = dynamic_cast<const DistributedFormulation*>(formulation.get())) {
      setup.exchangedBytes = distributed->exchangedBytesPerEvaluation();
      setup.rankTraffic = distributed->rankPlan().traffic;
    }
    setup.system = std::make_unique<VelocityForm>(model, std::move(formulation), options.stabilization,
                                                  options.projectionTolerance);
  }
  return setup;
}

std::unique_ptr<Integrator> makeRunIntegrator(const SimulationOptions& options, const RunSetup& setup) {
  return setup.structural ? makeStructuralIntegrator(options.integrator, options.basicParameter,
                                                     options.integratorOptions, *setup.index3)
                          : makeIntegrator(options.integrator, options.integratorOptions);
}

class Sampler {
 public:
  Sampler(const Model& model, ConstraintProjector& projector, const std::vector<SampleSink*>& sinks)
      : model_(model), projector_(projector), sinks_(sinks), ws_(model), q_(model.nq), v_(model.nv) {}

  /// With projection on, interpolated samples are projected too, so that outputs lie on
  /// the constraint manifold like the step states do.
  double emit(double t, const Eigen::VectorXd& x, SimulationResult& result, bool project) {
    q_ = x.head(model_.nq);
    v_ = x.tail(model_.nv);
    if (project) {
      projector_.projectPositions(t, q_);
      projector_.projectVelocities(t, q_, v_);
    }
    updateVelocities(model_, ws_, q_, v_);
    const double T = kineticEnergy(model_, ws_);
    const double V = potentialEnergy(model_, ws_, q_);
    const Sample s{t, q_, v_, T, V, projector_.positionError(t, q_), projector_.velocityError(t, q_, v_), ws_};
    for (SampleSink* sink : sinks_) sink->write(s);
    ++result.samples;
    momentum = systemMomentum(model_, ws_);
    return T + V;
  }

  Force momentum;  ///< of the last sample

 private:
  const Model& model_;
  ConstraintProjector& projector_;
  const std::vector<SampleSink*>& sinks_;
  Workspace ws_;
  Eigen::VectorXd q_, v_;
};

}  // namespace

std::string runDescription(const SimulationOptions& o) {
  char buf[640];
  // The thread count and the column grouping of the finite-difference tangent leave the numbers
  // unchanged (bit for bit), so a run may resume with others.
  const AugmentedLagrangianOptions& al = o.augmentedLagrangian;
  std::snprintf(buf, sizeof buf, "%s|%s|%a|%a|%a|%a|%a|%a|%a|%a|%d|%a|%a|%a|%d|%d|%a|%a|%a|%a|%a|%d|%d|%d|%s",
                o.formulation.c_str(), o.integrator.c_str(), o.integratorOptions.dt, o.integratorOptions.rtol,
                o.integratorOptions.atol, o.integratorOptions.dtMin, o.integratorOptions.dtMax, o.tStart, o.tEnd,
                o.outputInterval, static_cast<int>(o.stabilization), o.baumgarteAlpha, o.baumgarteBeta,
                o.projectionTolerance, o.assemble ? 1 : 0, o.stopAtSingularities ? 1 : 0, o.basicParameter, al.penalty,
                al.newtonTolerance, al.constraintTolerance, al.projectionTolerance, al.maxIterations,
                al.finiteDifferenceTangent ? 1 : 0, o.subsystems, o.assemblyTree.c_str());
  return buf;
}

namespace {

constexpr const char* kRestartMagic = "articula restart file 2";  // 2: with the momentum diagnostics

// The run-loop state that is not in the integrator: where the sampling stands and the
// statistics gathered so far.
struct RunState {
  long step = 0;
  long nextSample = 1;
};

void saveRestart(const SimulationOptions& options, const RunState& run, const SimulationResult& result,
                 double wallSoFar, const Integrator& integrator, const std::vector<SampleSink*>& sinks) {
  ArchiveWriter out;
  out.put(std::string(kRestartMagic));
  out.put(options.runFingerprint);
  out.put(static_cast<std::int64_t>(run.step));
  out.put(static_cast<std::int64_t>(run.nextSample));
  out.put(static_cast<std::int64_t>(result.samples));
  for (double x : {result.initialEnergy, result.finalEnergy, result.maxEnergyDrift, result.maxPositionError,
                   result.maxVelocityError, wallSoFar, result.maxMomentumDrift})
    out.put(x);
  for (const Force* h : {&result.initialMomentum, &result.finalMomentum})
    for (int k = 0; k < 6; ++k) out.put(h->vector()[k]);
  integrator.save(out);
  for (const SampleSink* sink : sinks) sink->saveState(out);
  saveArchive(out, options.checkpointPath);
}

ArchiveReader openRestart(const SimulationOptions& options) {
  ArchiveReader in = loadArchive(options.resumeFrom);
  if (in.getString() != kRestartMagic) throw Error(options.resumeFrom + ": not an articula restart file");
  if (in.getString() != options.runFingerprint)
    throw Error(options.resumeFrom + ": the restart file belongs to another model or other run options");
  return in;
}

// Returns the wall time the interrupted run had used.
double loadRestart(const SimulationOptions& options, RunState& run, SimulationResult& result, Integrator& integrator,
                   OdeSystem& system, const std::vector<SampleSink*>& sinks) {
  ArchiveReader in = openRestart(options);
  run.step = in.getInt();
  run.nextSample = in.getInt();
  result.samples = in.getInt();
  result.initialEnergy = in.getDouble();
  result.finalEnergy = in.getDouble();
  result.maxEnergyDrift = in.getDouble();
  result.maxPositionError = in.getDouble();
  result.maxVelocityError = in.getDouble();
  const double wall = in.getDouble();
  result.maxMomentumDrift = in.getDouble();
  for (Force* h : {&result.initialMomentum, &result.finalMomentum}) {
    Vec6 x;
    for (int k = 0; k < 6; ++k) x[k] = in.getDouble();
    *h = Force::fromVector(x);
  }
  integrator.restore(system, in);
  for (SampleSink* sink : sinks) sink->restoreState(in);
  if (!in.atEnd()) throw Error(options.resumeFrom + ": the restart file holds more than this run writes");
  return wall;
}

// The time range, the sampling and the restart-file interval.
void checkTimes(const SimulationOptions& options) {
  if (!std::isfinite(options.tStart) || !std::isfinite(options.tEnd))
    throw Error("the start and end times must be finite");
  if (!(options.tEnd > options.tStart)) throw Error("the end time must be after the start time");
  if (!(options.outputInterval > 0.0)) throw Error("the output interval must be positive");
  if (!options.checkpointPath.empty() && !(options.checkpointInterval >= 0.0))
    throw Error("the checkpoint interval must not be negative");
  if (!(options.realtimeSpeed >= 0.0) || !std::isfinite(options.realtimeSpeed))
    throw Error("the real-time speed must be a finite number, positive to pace the run (0: not paced)");
  if (options.realtimeSpeed > 0.0 && !options.checkpointPath.empty())
    throw Error("a real-time run writes no restart files: leave out the checkpoint option");
}

}  // namespace

void checkRestartFile(const SimulationOptions& options) { openRestart(options); }

void checkRunOptions(const Model& model, const SimulationOptions& options) {
  checkTimes(options);
  makeRunIntegrator(options, makeRunSetup(model, options));
}

SimulationResult simulate(const Model& model, const SimulationOptions& options, const std::vector<SampleSink*>& sinks,
                          const std::function<void(double)>& progress) {
  SimulationResult result;
  result.integrator = options.integrator;
  result.conservative = isConservative(model);
  result.momentumConserved = conservesMomentum(model);
  result.tReached = options.tStart;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto lastCheckpoint = start;
  double wallBefore = 0.0;  // wall time of the interrupted run, when resuming
  RunState run;
  double t = options.tStart;
  try {
    checkTimes(options);
    const RunSetup setup = makeRunSetup(model, options);
    const bool structural = setup.structural;
    result.formulation = setup.formulation;
    result.exchangedBytesPerEvaluation = setup.exchangedBytes;
    result.rankTraffic = setup.rankTraffic;
    RunSystem& system = *setup.system;
    auto integrator = makeRunIntegrator(options, setup);

    // x: the integrator's state; xs: an interpolated one; qv: [q; v] of either (RunSystem).
    Eigen::VectorXd q = model.q0, v = model.v0;
    Eigen::VectorXd x(model.nq + model.nv), xs(model.nq + model.nv), qv(model.nq + model.nv);
    ConstraintProjector& projector = system.projector();
    Sampler sampler(model, projector, sinks);
    if (options.resumeFrom.empty()) {
      if (options.assemble) result.assembly = assemble(model, t, q, v, options.projectionTolerance);
      qv << q, v;
      result.initialEnergy = result.finalEnergy = sampler.emit(t, qv, result, false);
      result.initialMomentum = result.finalMomentum = sampler.momentum;
      system.fromVelocityState(qv, x);
      integrator->initialize(system.ode(), t, x);
    } else {
      wallBefore = loadRestart(options, run, result, *integrator, system.ode(), sinks);
      t = result.tReached = integrator->time();
      result.resumedAt = t;
    }
    // Restart files do not hold the monitor's state: after a resume it starts afresh.
    SingularityMonitor singularities(model);
    if (model.hasConstraints()) singularities.start(t, integrator->state().head(model.nq));
    auto sampleTime = [&](long k) { return options.tStart + static_cast<double>(k) * options.outputInterval; };
    // A step's end state is already on the constraint manifold when the run projects; only a state
    // interpolated between two steps drifts off it and needs its own projection before it is written.
    const bool projectSamples =
        (structural || options.stabilization == Stabilization::Projection) && model.hasConstraints();
    auto recordWith = [&](Sampler& by, double ts, const Eigen::VectorXd& state, bool interpolated) {
      const auto before = Clock::now();
      result.finalEnergy = by.emit(ts, state, result, projectSamples && interpolated);
      result.outputSeconds += std::chrono::duration<double>(Clock::now() - before).count();
      const double drift = std::abs(result.finalEnergy - result.initialEnergy);
      result.maxEnergyDrift = std::max(result.maxEnergyDrift, drift);
      result.finalMomentum = sampler.momentum;
      result.maxMomentumDrift =
          std::max(result.maxMomentumDrift, (result.finalMomentum.vector() - result.initialMomentum.vector()).norm());
    };
    // Real-time mode: the samples go to a writer thread with a sampler (and projector) of its
    // own; the stepping thread only copies each state into the writer's queue. The writer is
    // declared after what it uses, so that leaving this scope (an error) first writes what is
    // queued and stops it.
    std::optional<ConstraintProjector> writerProjector;
    std::optional<Sampler> writerSampler;
    std::optional<StepPacer> pacer;
    std::optional<SampleWriter> writer;
    if (options.realtimeSpeed > 0.0) {
      writerProjector.emplace(model);
      writerSampler.emplace(model, *writerProjector, sinks);
      pacer.emplace(options.realtimeSpeed);
      const long samples = static_cast<long>(std::ceil((options.tEnd - t) / options.outputInterval)) + 2;
      writer.emplace(qv.size(), sampleQueueCapacity(samples, qv.size()),
                     [&](double ts, const Eigen::VectorXd& state, bool interpolated) {
                       recordWith(*writerSampler, ts, state, interpolated);
                     });
    }
    auto record = [&](double ts, const Eigen::VectorXd& state, bool interpolated) {
      if (!writer) return recordWith(sampler, ts, state, interpolated);
      if (!writer->push(ts, state, interpolated)) writer->finish();  // rethrows the writer's error
    };
    if (pacer) pacer->start(t);

    while (t < options.tEnd) {
      t = integrator->step(options.tEnd);
      ++run.step;
      const Eigen::VectorXd& state = integrator->state();
      if (!state.allFinite())
        throw SimulationError(
            t, run.step, describeNonFinite(model, state, system.rates()) + " (formulation " + result.formulation + ")");
      if (model.hasConstraints()) {
        const Eigen::VectorXd& stateQv = system.velocityState(t, state, qv);
        q = stateQv.head(model.nq);
        v = stateQv.tail(model.nv);
        result.maxPositionError = std::max(result.maxPositionError, projector.positionError(t, q));
        result.maxVelocityError = std::max(result.maxVelocityError, projector.velocityError(t, q, v));
        const std::string singular = singularities.check(t, q);
        if (!singular.empty()) {
          if (options.stopAtSingularities)
            throw SimulationError(
                t, run.step,
                singular + " (formulation " + result.formulation + "; --through-singularities continues anyway)");
          if (result.singularConfigurations++ == 0) result.firstSingularity = singular;
        }
      }
      // Emit every sample time passed by this step; the last one lands on tEnd exactly.
      const double tol = 1e-9 * options.outputInterval;
      while (sampleTime(run.nextSample) <= t + tol && sampleTime(run.nextSample) <= options.tEnd + tol) {
        const double ts = std::min(sampleTime(run.nextSample), t);
        if (ts >= t - tol) {
          record(t, system.velocityState(t, state, qv), false);
        } else {
          integrator->interpolate(ts, xs);
          record(ts, system.velocityState(ts, xs, qv), true);
        }
        ++run.nextSample;
      }
      if (t >= options.tEnd && sampleTime(run.nextSample - 1) < t - tol)
        record(t, system.velocityState(t, state, qv), false);  // tEnd off the sample grid
      result.tReached = t;
      if (!options.checkpointPath.empty() && t < options.tEnd) {
        const auto now = Clock::now();
        if (std::chrono::duration<double>(now - lastCheckpoint).count() >= options.checkpointInterval) {
          saveRestart(options, run, result, wallBefore + std::chrono::duration<double>(now - start).count(),
                      *integrator, sinks);
          ++result.checkpoints;
          lastCheckpoint = now;
        }
      }
      if (pacer) {
        pacer->stepDone(t);
        result.realtime = pacer->stats();
        result.realtime.queueCapacity = writer->capacity();
        result.realtime.outputStalls = writer->stalls();
      } else if (progress) {
        progress(t);
      }
    }
    if (writer) writer->finish();
    const IntegratorStats& st = integrator->stats();
    result.steps = st.steps;
    result.rejectedSteps = st.rejected;
    result.evaluations = st.evaluations;
  } catch (const SimulationError& e) {
    result.ok = false;
    result.error = e.what();
  } catch (const Error& e) {
    result.ok = false;
    result.error = run.step > 0 ? SimulationError(t, run.step, e.what()).what() : e.what();
  }
  if (result.initialEnergy != 0.0)
    result.maxRelativeEnergyDrift = result.maxEnergyDrift / std::abs(result.initialEnergy);
  result.wallSeconds = wallBefore + std::chrono::duration<double>(Clock::now() - start).count();
  if (!result.ok && result.steps == 0) result.steps = run.step;
  return result;
}

}  // namespace articula
