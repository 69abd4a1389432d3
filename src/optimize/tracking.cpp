#include "articula/optimize/tracking.hpp"

#include <cmath>

#include "articula/core/error.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// The times at which a fixed-step Runge-Kutta method of the problem evaluates the inputs: the
// steps and the half steps (rk4's middle stages; euler and heun use a subset).
std::vector<double> stageTimes(const OptimalControlProblem& p) {
  std::vector<double> times;
  for (int k = 0; k < p.stepCount(); ++k) {
    times.push_back(p.stepTime(k));
    times.push_back(0.5 * (p.stepTime(k) + p.stepTime(k + 1)));
  }
  times.push_back(p.tf);
  return times;
}

// u_c(t) of control c at the parameters b = [design; control 0; control 1; ...].
double controlValue(const OptimalControlProblem& p, const Eigen::VectorXd& b, std::size_t c, double t) {
  Eigen::Index offset = static_cast<Eigen::Index>(p.design.size());
  for (std::size_t k = 0; k < c; ++k) offset += p.controls[k].basis.size();
  return p.controls[c].basis.value(t, b.segment(offset, p.controls[c].basis.size()));
}

// Appends every control's input at b as a load, a table through gain * factor_c * u_c(t) at the
// problem's stage times (factor: the plant's actuator gain over the model's).
void appendInputs(Model& m, const OptimalControlProblem& p, const Eigen::VectorXd& b, const std::vector<double>& factor) {
  const std::vector<double> times = stageTimes(p);
  for (std::size_t c = 0; c < p.controls.size(); ++c) {
    std::vector<double> load;
    for (double t : times) load.push_back(p.controls[c].gain * factor[c] * controlValue(p, b, c, t));
    appendControlLoad(m, p.controls[c], TimeFunction::table(times, load));
  }
}

const Joint& loopJoint(const OptimalControlProblem& p, const FeedbackLoop& loop) {
  return p.model.joints[static_cast<std::size_t>(p.controls.at(static_cast<std::size_t>(loop.control)).joint)];
}

// Records the marker path and each loop's PD correction at every sample.
class TrackingSink final : public SampleSink {
 public:
  TrackingSink(const Model& model, const OptimalControlProblem& p, const TrackingStudy& study,
               const std::vector<TimeFunction>* references, TrackingRun& run)
      : marker_(model.markers.at(static_cast<std::size_t>(study.marker))), p_(p), study_(study), references_(references), run_(run) {
    run_.feedback.assign(study.loops.size(), {});
  }
  void write(const Sample& s) override {
    run_.marker.push_back(pointPosition(s.ws, marker_.body, marker_.position));
    if (!references_) return;
    for (std::size_t l = 0; l < study_.loops.size(); ++l) {
      const FeedbackLoop& loop = study_.loops[l];
      const Joint& j = loopJoint(p_, loop);
      const int dof = p_.controls[static_cast<std::size_t>(loop.control)].dof;
      const TimeFunction& r = (*references_)[l];
      run_.feedback[l].push_back(loop.kp * (r.value(s.t) - s.q[j.iq + dof]) + loop.kd * (r.derivative(s.t) - s.v[j.iv + dof]));
    }
  }

 private:
  const Marker& marker_;
  const OptimalControlProblem& p_;
  const TrackingStudy& study_;
  const std::vector<TimeFunction>* references_;
  TrackingRun& run_;
};

// The problem's model with the design parameters b.
Model designedModel(const OptimalControlProblem& p, const Eigen::VectorXd& b) {
  Model m = p.model;
  for (std::size_t d = 0; d < p.design.size(); ++d) writeParameter(m, p.design[d], b[static_cast<Eigen::Index>(d)]);
  return m;
}

// The designed model with the study's plant changes.
Model perturbedPlant(const Model& designed, const TrackingStudy& study) {
  Model plant = designed;
  for (const PlantChange& c : study.plant)
    writeParameter(plant, c.parameter, c.factor * readParameter(designed, c.parameter), designed);
  return plant;
}

// Runs one architecture on `plant`: the PD loops as joint servos (joint_spring_damper with the
// reference q_r(t), stiffness and damping the gains times the plant's actuator gain), and with
// `feedforward` the optimal inputs through the plant's gains.
TrackingRun runArchitecture(const std::string& name, Model plant, const OptimalControlProblem& p,
                            const TrackingStudy& study, const Eigen::VectorXd& b, const std::vector<TimeFunction>& references,
                            const std::vector<double>& gainFactor, bool feedforward, const std::vector<double>& t,
                            const std::vector<Vec3>& reference) {
  for (std::size_t l = 0; l < study.loops.size(); ++l) {
    const FeedbackLoop& loop = study.loops[l];
    const ControlInput& c = p.controls[static_cast<std::size_t>(loop.control)];
    const double gain = c.gain * gainFactor[static_cast<std::size_t>(loop.control)];
    JointSpringDamper servo;
    servo.name = "pd_" + c.name;
    servo.joint = c.joint;
    servo.dof = c.dof;
    servo.stiffness = gain * loop.kp;
    servo.damping = gain * loop.kd;
    servo.reference = references[l];
    plant.jointSprings.push_back(servo);
  }
  if (feedforward) appendInputs(plant, p, b, gainFactor);
  TrackingRun run;
  run.name = name;
  TrackingSink sink(plant, p, study, &references, run);
  const SimulationResult r = simulate(plant, simulationOptions(p), {&sink});
  run.ok = r.ok && run.marker.size() == t.size();
  run.error = r.ok ? (run.ok ? "" : "the run ended early") : r.error;
  const std::size_t n = std::min(run.marker.size(), t.size());
  for (std::size_t k = 0; k < n; ++k) {
    const double e = (run.marker[k] - reference[k]).norm();
    run.maxDeviation = std::max(run.maxDeviation, e);
    if (k > 0) {
      const double ePrevious = (run.marker[k - 1] - reference[k - 1]).norm();
      run.ise += 0.5 * (t[k] - t[k - 1]) * (e * e + ePrevious * ePrevious);
    }
  }
  for (const auto& u : run.feedback) {
    double sum = 0.0, peak = 0.0;
    for (double x : u) sum += x * x, peak = std::max(peak, std::abs(x));
    run.feedbackRms.push_back(u.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(u.size())));
    run.feedbackMax.push_back(peak);
  }
  return run;
}

}  // namespace

Model optimalModel(const OptimalControlProblem& p, const Eigen::VectorXd& b) {
  Model m = designedModel(p, b);
  appendInputs(m, p, b, std::vector<double>(p.controls.size(), 1.0));
  return m;
}

SimulationOptions simulationOptions(const OptimalControlProblem& p) {
  SimulationOptions so;
  // The absolute-coordinate formulation is an optimisation formulation only (its state has no
  // joint coordinates to write): its runs are written by the tree formulations.
  so.formulation = p.formulation == "absolute" ? "auto" : p.formulation;
  so.integrator = p.integrator;
  so.integratorOptions.dt = p.dt;
  so.integratorOptions.rtol = p.rtol;
  so.integratorOptions.atol = p.atol;
  so.tEnd = p.tf;
  so.outputInterval = p.dt;
  so.stabilization = p.baumgarteAlpha != 0.0 || p.baumgarteBeta != 0.0 ? Stabilization::Baumgarte : Stabilization::None;
  so.baumgarteAlpha = p.baumgarteAlpha;
  so.baumgarteBeta = p.baumgarteBeta;
  return so;
}

TrackingResult runTrackingStudy(const OptimalControlProblem& p, const TrackingStudy& study, const Eigen::VectorXd& b) {
  for (const FeedbackLoop& loop : study.loops)
    if (p.controls.at(static_cast<std::size_t>(loop.control)).kind != ControlInput::Kind::JointForce)
      throw Error("feedback on control '" + p.controls[static_cast<std::size_t>(loop.control)].name +
                  "': a PD loop needs a control that acts on a joint coordinate");
  if (!study.gainFactor.empty() && study.gainFactor.size() != p.controls.size())
    throw Error("the plant's gain factors must number the controls");

  // The reference: the model's response to u_ff, sampled at every step.
  TrackingResult result;
  const Model nominal = optimalModel(p, b);
  struct Recorder final : SampleSink {
    const OptimalControlProblem& p;
    const TrackingStudy& study;
    TrackingResult& out;
    Recorder(const OptimalControlProblem& problem, const TrackingStudy& s, TrackingResult& r) : p(problem), study(s), out(r) {
      out.jointReference.assign(study.loops.size(), {});
    }
    void write(const Sample& s) override {
      out.t.push_back(s.t);
      const Marker& m = p.model.markers.at(static_cast<std::size_t>(study.marker));
      out.reference.push_back(pointPosition(s.ws, m.body, m.position));
      for (std::size_t l = 0; l < study.loops.size(); ++l) {
        const ControlInput& c = p.controls[static_cast<std::size_t>(study.loops[l].control)];
        out.jointReference[l].push_back(s.q[loopJoint(p, study.loops[l]).iq + c.dof]);
      }
    }
  } recorder(p, study, result);
  const SimulationResult r = simulate(nominal, simulationOptions(p), {&recorder});
  if (!r.ok) throw Error("the model's run under the feed-forward inputs failed: " + r.error);

  std::vector<TimeFunction> references;
  for (std::size_t l = 0; l < study.loops.size(); ++l) {
    references.push_back(TimeFunction::table(result.t, result.jointReference[l]));
    std::vector<double> uff;
    for (double t : result.t) uff.push_back(controlValue(p, b, static_cast<std::size_t>(study.loops[l].control), t));
    result.feedforward.push_back(std::move(uff));
  }
  const std::vector<double> gains = study.gainFactor.empty() ? std::vector<double>(p.controls.size(), 1.0) : study.gainFactor;
  const Model designed = designedModel(p, b);
  const Model plant = perturbedPlant(designed, study);
  const std::vector<double> exact(p.controls.size(), 1.0);
  result.runs.push_back(runArchitecture("feedback", plant, p, study, b, references, gains, false, result.t, result.reference));
  result.runs.push_back(runArchitecture("feedforward+feedback", plant, p, study, b, references, gains, true, result.t, result.reference));
  result.runs.push_back(
      runArchitecture("feedforward+feedback, exact plant", designed, p, study, b, references, exact, true, result.t, result.reference));
  return result;
}

}  // namespace articula
