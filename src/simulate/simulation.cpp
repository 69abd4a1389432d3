#include "articula/simulate/simulation.hpp"

#include <chrono>
#include <cmath>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

bool isConservative(const Model& model) {
  for (const auto& s : model.jointSprings)
    if (s.damping != 0.0) return false;
  for (const auto& s : model.pointSprings)
    if (s.damping != 0.0) return false;
  return model.bodyLoads.empty() && model.jointLoads.empty() && model.prescribed.empty();
}

namespace {

// Names the first non-finite entry of the state: joint and coordinate.
std::string describeNonFinite(const Model& model, const Eigen::VectorXd& x) {
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (std::isfinite(x[k])) continue;
    const bool isPosition = k < model.nq;
    const int index = static_cast<int>(isPosition ? k : k - model.nq);
    for (int i = 1; i <= model.bodyCount(); ++i) {
      const Joint& j = model.joints[i];
      const int first = isPosition ? j.iq : j.iv, count = isPosition ? j.nq : j.nv;
      if (index >= first && index < first + count)
        return "the state became non-finite: " + std::string(isPosition ? "position" : "velocity") + " coordinate " +
               std::to_string(index - first) + " of joint '" + j.name + "' (body '" + model.bodies[i].name + "')";
    }
  }
  return "the state became non-finite";
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
    return T + V;
  }

 private:
  const Model& model_;
  ConstraintProjector& projector_;
  const std::vector<SampleSink*>& sinks_;
  Workspace ws_;
  Eigen::VectorXd q_, v_;
};

}  // namespace

SimulationResult simulate(const Model& model, const SimulationOptions& options, const std::vector<SampleSink*>& sinks,
                          const std::function<void(double)>& progress) {
  SimulationResult result;
  result.integrator = options.integrator;
  result.conservative = isConservative(model);
  result.tReached = options.tStart;
  const auto start = std::chrono::steady_clock::now();
  long step = 0;
  double t = options.tStart;
  try {
    if (!(options.tEnd > options.tStart)) throw Error("the end time must be after the start time");
    if (!(options.outputInterval > 0.0)) throw Error("the output interval must be positive");
    FormulationOptions fo;
    if (options.stabilization == Stabilization::Baumgarte) {
      fo.baumgarteAlpha = options.baumgarteAlpha;
      fo.baumgarteBeta = options.baumgarteBeta;
    }
    auto formulation = makeFormulation(options.formulation, model, fo);
    result.formulation = std::string(formulation->name());
    MultibodySystem system(model, std::move(formulation), options.stabilization, options.projectionTolerance);
    auto integrator = makeIntegrator(options.integrator, options.integratorOptions);

    Eigen::VectorXd q = model.q0, v = model.v0;
    if (options.assemble) result.assembly = assemble(model, t, q, v, options.projectionTolerance);
    Eigen::VectorXd x(model.nq + model.nv), xs(model.nq + model.nv);
    x << q, v;

    ConstraintProjector& projector = system.projector();
    Sampler sampler(model, projector, sinks);
    result.initialEnergy = result.finalEnergy = sampler.emit(t, x, result, false);
    long nextSample = 1;
    auto sampleTime = [&](long k) { return options.tStart + static_cast<double>(k) * options.outputInterval; };
    const bool projectSamples = options.stabilization == Stabilization::Projection && model.hasConstraints();
    auto record = [&](double ts, const Eigen::VectorXd& state) {
      result.finalEnergy = sampler.emit(ts, state, result, projectSamples);
      const double drift = std::abs(result.finalEnergy - result.initialEnergy);
      result.maxEnergyDrift = std::max(result.maxEnergyDrift, drift);
    };

    integrator->initialize(system, t, x);
    while (t < options.tEnd) {
      t = integrator->step(options.tEnd);
      ++step;
      const Eigen::VectorXd& state = integrator->state();
      if (!state.allFinite()) throw SimulationError(t, step, describeNonFinite(model, state) + " (formulation " + result.formulation + ")");
      if (model.hasConstraints()) {
        q = state.head(model.nq);
        v = state.tail(model.nv);
        result.maxPositionError = std::max(result.maxPositionError, projector.positionError(t, q));
        result.maxVelocityError = std::max(result.maxVelocityError, projector.velocityError(t, q, v));
      }
      // Emit every sample time passed by this step; the last one lands on tEnd exactly.
      const double tol = 1e-9 * options.outputInterval;
      while (sampleTime(nextSample) <= t + tol && sampleTime(nextSample) <= options.tEnd + tol) {
        const double ts = std::min(sampleTime(nextSample), t);
        if (ts >= t - tol) {
          record(t, state);
        } else {
          integrator->interpolate(ts, xs);
          record(ts, xs);
        }
        ++nextSample;
      }
      if (t >= options.tEnd && sampleTime(nextSample - 1) < t - tol) record(t, state);  // tEnd off the sample grid
      result.tReached = t;
      if (progress) progress(t);
    }
    const IntegratorStats& st = integrator->stats();
    result.steps = st.steps;
    result.rejectedSteps = st.rejected;
    result.evaluations = st.evaluations;
  } catch (const SimulationError& e) {
    result.ok = false;
    result.error = e.what();
  } catch (const Error& e) {
    result.ok = false;
    result.error = step > 0 ? SimulationError(t, step, e.what()).what() : e.what();
  }
  if (result.initialEnergy != 0.0) result.maxRelativeEnergyDrift = result.maxEnergyDrift / std::abs(result.initialEnergy);
  result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok && result.steps == 0) result.steps = step;
  return result;
}

}  // namespace articula
