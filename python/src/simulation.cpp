// simulate(): the run loop of the C++ library with its samples recorded into numpy arrays.
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include <pybind11/stl.h>

#include "arrays.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/option_names.hpp"
#include "articula/simulate/simulation.hpp"
#include "errors.hpp"
#include "model_handle.hpp"

namespace articula::python {

namespace {

// Keeps every sample in growing vectors (row-major), which become the result's arrays uncopied.
class RecordingSink final : public SampleSink {
 public:
  RecordingSink(const Model& model, const SimulationOptions& options) : model_(model) {
    // Room for the samples the run will write (capped: a tiny output interval must not reserve
    // gigabytes up front; the vectors grow past it if needed).
    const double expected = std::floor((options.tEnd - options.tStart) / options.outputInterval) + 2.0;
    const auto rows = static_cast<std::size_t>(std::min(expected, 1e5));
    for (std::vector<double>* column : {&t, &kinetic, &potential, &total, &positionError, &velocityError})
      column->reserve(rows);
    q.reserve(rows * model.nq);
    v.reserve(rows * model.nv);
    markers.reserve(rows * model.markers.size() * 3);
  }

  void write(const Sample& s) override {
    t.push_back(s.t);
    q.insert(q.end(), s.q.data(), s.q.data() + s.q.size());
    v.insert(v.end(), s.v.data(), s.v.data() + s.v.size());
    for (const Marker& m : model_.markers) {
      const Vec3 p = pointPosition(s.ws, m.body, m.position);
      markers.insert(markers.end(), p.data(), p.data() + 3);
    }
    kinetic.push_back(s.kineticEnergy);
    potential.push_back(s.potentialEnergy);
    total.push_back(s.kineticEnergy + s.potentialEnergy);  // as results.csv sums it
    positionError.push_back(s.positionError);
    velocityError.push_back(s.velocityError);
  }

  std::vector<double> t, q, v, markers, kinetic, potential, total, positionError, velocityError;

 private:
  const Model& model_;
};

// The run's figures (the C++ SimulationResult) and its samples as numpy arrays.
struct RunResult : SimulationResult {
  py::array_t<double> t, q, v, markers, kineticEnergy, potentialEnergy, totalEnergy, positionError, velocityError;
  std::vector<std::string> markerNames;
};

RunResult makeResult(const Model& model, SimulationResult summary, RecordingSink&& sink) {
  RunResult r;
  static_cast<SimulationResult&>(r) = std::move(summary);
  const auto n = static_cast<py::ssize_t>(sink.t.size());
  r.t = adoptArray(std::move(sink.t), {n});
  r.q = adoptArray(std::move(sink.q), {n, model.nq});
  r.v = adoptArray(std::move(sink.v), {n, model.nv});
  r.markers = adoptArray(std::move(sink.markers), {n, static_cast<py::ssize_t>(model.markers.size()), 3});
  r.kineticEnergy = adoptArray(std::move(sink.kinetic), {n});
  r.potentialEnergy = adoptArray(std::move(sink.potential), {n});
  r.totalEnergy = adoptArray(std::move(sink.total), {n});
  r.positionError = adoptArray(std::move(sink.positionError), {n});
  r.velocityError = adoptArray(std::move(sink.velocityError), {n});
  for (const Marker& m : model.markers) r.markerNames.push_back(m.name);
  return r;
}

// Thrown through simulate() (which catches articula::Error only) when Python has a pending
// exception, KeyboardInterrupt from Ctrl-C above all; the Python error stays set.
struct PythonErrorPending {};

// The progress callback of a run without the GIL: every 0.1 s of wall time it takes the GIL and
// lets Python handle pending signals, so that Ctrl-C stops a long run.
class SignalCheck {
 public:
  void operator()(double) {
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw PythonErrorPending{};
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_ = Clock::now();
};

struct RunArguments {
  std::string formulation, integrator;
  double tEnd, dt, outputDt, rtol, atol, tStart;
  std::optional<double> basicParameter, penalty;
  std::string tangent;
  int threads;
  std::string stabilization;
  bool assemble, stopAtSingularities;
  std::optional<int> subsystems;
  std::string assemblyTree;
};

SimulationOptions runOptions(const RunArguments& a) {
  SimulationOptions o;
  o.formulation = a.formulation;
  o.integrator = a.integrator;
  o.tStart = a.tStart;
  o.tEnd = a.tEnd;
  o.outputInterval = a.outputDt;
  o.integratorOptions.dt = a.dt;
  o.integratorOptions.rtol = a.rtol;
  o.integratorOptions.atol = a.atol;
  if (a.basicParameter) o.basicParameter = *a.basicParameter;
  if (a.penalty) o.augmentedLagrangian.penalty = *a.penalty;
  o.augmentedLagrangian.finiteDifferenceTangent = finiteDifferenceTangentFromName(a.tangent);
  // One thread count for every parallel part, as --threads on the command line.
  if (a.threads < 1) throw Error("threads must be at least 1 (got " + std::to_string(a.threads) + ")");
  o.augmentedLagrangian.derivatives.threads = a.threads;
  o.stabilization = stabilizationFromName(a.stabilization);
  o.assemble = a.assemble;
  o.stopAtSingularities = a.stopAtSingularities;
  if (a.subsystems) {
    if (*a.subsystems < 1) throw Error("subsystems must be at least 1 (got " + std::to_string(*a.subsystems) + ")");
    o.subsystems = *a.subsystems;
  }
  o.assemblyTree = a.assemblyTree;
  return o;
}

RunResult run(const ModelHandle& h, const RunArguments& arguments) {
  const Model& model = h.model;
  const SimulationOptions options = checkedArguments([&] {
    SimulationOptions o = runOptions(arguments);
    checkRunOptions(model, o);
    return o;
  });
  RecordingSink sink(model, options);
  SimulationResult summary;
  try {
    // simulate() reads the model, which never changes, and writes only its own buffers and the sink.
    py::gil_scoped_release release;
    summary = simulate(model, options, {&sink}, SignalCheck());
  } catch (const PythonErrorPending&) {
    throw py::error_already_set();
  }
  return makeResult(model, std::move(summary), std::move(sink));
}

std::string resultRepr(const RunResult& r) {
  std::ostringstream s;
  s << "<articula.SimulationResult " << (r.ok ? "ok" : "failed") << ": " << r.samples << " samples to t = "
    << r.tReached << " s, " << r.formulation << " + " << r.integrator << ", " << r.steps << " steps>";
  return s.str();
}

std::optional<std::string> unlessEmpty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

void bindResult(py::module_& m) {
  py::class_<RunResult>(m, "SimulationResult",
                        "What simulate() returns: the samples (one row per output time) as numpy arrays and the "
                        "run's figures. A failed run (ok False) keeps the samples up to the failure.")
      .def_readonly("t", &RunResult::t, "Sample times (n,), s.")
      .def_readonly("q", &RunResult::q, "Joint positions (n, nq), m or rad; columns as model.coordinate_names.")
      .def_readonly("v", &RunResult::v, "Joint velocities (n, nv), m/s or rad/s; columns as model.velocity_names.")
      .def_readonly("markers", &RunResult::markers, "Marker positions (n, markers, 3), m, world frame.")
      .def_readonly("marker_names", &RunResult::markerNames, "Names of the markers, in the order of `markers`.")
      .def_readonly("kinetic_energy", &RunResult::kineticEnergy, "Kinetic energy (n,), J.")
      .def_readonly("potential_energy", &RunResult::potentialEnergy,
                    "Potential energy (n,), J: gravity (zero at the world origin) and springs.")
      .def_readonly("total_energy", &RunResult::totalEnergy, "kinetic_energy + potential_energy (n,), J.")
      .def_readonly("position_error", &RunResult::positionError,
                    "Constraint violation |g(q, t)|_inf at each sample (n,), m or rad (0 without constraints).")
      .def_readonly("velocity_error", &RunResult::velocityError,
                    "Velocity constraint violation |J v - nu|_inf at each sample (n,), m/s or rad/s.")
      .def(
          "marker",
          [](const RunResult& r, const std::string& name) {
            const py::slice rows(0, r.markers.shape(0), 1), axes(0, 3, 1);
            for (std::size_t i = 0; i < r.markerNames.size(); ++i)
              if (r.markerNames[i] == name) return r.markers[py::make_tuple(rows, i, axes)];
            throw py::key_error("no marker '" + name + "' in this result");
          },
          py::arg("name"), "The positions (n, 3) of the named marker, m: a view into `markers`.")
      .def_readonly("ok", &SimulationResult::ok, "True when the run reached t_end.")
      .def_property_readonly(
          "error", [](const RunResult& r) { return unlessEmpty(r.error); },
          "Why the run stopped (time, step, what failed), or None.")
      .def_readonly("formulation", &SimulationResult::formulation, "The formulation that ran ('auto' resolved).")
      .def_readonly("integrator", &SimulationResult::integrator, "The integrator that ran.")
      .def_readonly("t_reached", &SimulationResult::tReached, "Time reached, s (t_end when ok).")
      .def_readonly("wall_time", &SimulationResult::wallSeconds, "Wall-clock time of the run, s.")
      .def_readonly("output_time", &SimulationResult::outputSeconds,
                    "Of wall_time, the part spent recording samples, s.")
      .def_readonly("steps", &SimulationResult::steps, "Accepted integrator steps.")
      .def_readonly("rejected_steps", &SimulationResult::rejectedSteps, "Rejected steps (adaptive, structural).")
      .def_readonly("evaluations", &SimulationResult::evaluations, "Evaluations of the equations of motion.")
      .def_readonly("samples", &SimulationResult::samples, "Number of samples (rows of the arrays).")
      .def_readonly("initial_energy", &SimulationResult::initialEnergy, "Total energy at the first sample, J.")
      .def_readonly("final_energy", &SimulationResult::finalEnergy, "Total energy at the last sample, J.")
      .def_readonly("max_energy_drift", &SimulationResult::maxEnergyDrift,
                    "max |E(t) - E(0)| over the samples, J.")
      .def_readonly("max_relative_energy_drift", &SimulationResult::maxRelativeEnergyDrift,
                    "max_energy_drift / |E(0)| (0 when E(0) = 0).")
      .def_readonly("conservative", &SimulationResult::conservative,
                    "True when the model has no dampers, loads or prescribed motion (energy should be conserved).")
      .def_readonly("max_position_error", &SimulationResult::maxPositionError,
                    "Largest constraint violation over all accepted steps, m or rad.")
      .def_readonly("max_velocity_error", &SimulationResult::maxVelocityError,
                    "Largest velocity constraint violation over all accepted steps.")
      .def_readonly("singular_configurations", &SimulationResult::singularConfigurations,
                    "Singular configurations passed (with stop_at_singularities=False).")
      .def_property_readonly(
          "first_singularity", [](const RunResult& r) { return unlessEmpty(r.firstSingularity); },
          "Description of the first singular configuration passed, or None.")
      .def_property_readonly(
          "assembly",
          [](const RunResult& r) {
            py::dict d;
            d["iterations"] = r.assembly.iterations;
            d["position_error"] = r.assembly.positionError;
            d["velocity_error"] = r.assembly.velocityError;
            d["constraint_rank"] = r.assembly.constraintRank;
            return d;
          },
          "The initial assembly: Newton iterations, remaining position and velocity errors, constraint rank.")
      .def("__repr__", &resultRepr);
}

void bindNames(py::module_& m) {
  m.def(
      "formulations",
      [] {
        py::list out;
        for (const FormulationInfo& f : formulations())
          out.append(py::dict(py::arg("name") = std::string(f.name), py::arg("description") = std::string(f.description),
                              py::arg("closed_loops") = f.closedLoops, py::arg("index3") = f.index3));
        return out;
      },
      "The formulations simulate() accepts besides 'auto': a list of dicts with name, description, closed_loops "
      "(handles loop closures and prescribed motion) and index3 (needs a structural integrator).");
  m.def(
      "integrators",
      [] {
        py::list out;
        for (std::string_view name : integratorNames())
          out.append(py::dict(py::arg("name") = std::string(name), py::arg("structural") = false));
        for (std::string_view name : structuralIntegratorNames())
          out.append(py::dict(py::arg("name") = std::string(name), py::arg("structural") = true));
        return out;
      },
      "The integrators simulate() accepts: a list of dicts with name and structural (for the index-3 "
      "formulations hybrid and global).");
}

}  // namespace

void bindSimulation(py::module_& m) {
  bindResult(m);
  bindNames(m);
  const SimulationOptions d;  // the defaults, as the command line has them
  m.def(
      "simulate",
      [](const ModelHandle& h, std::string formulation, std::string integrator, double tEnd, double dt,
         double outputDt, double rtol, double atol, double tStart, std::optional<double> basicParameter,
         std::optional<double> penalty, std::string tangent, int threads, std::string stabilization, bool assemble,
         bool stopAtSingularities, std::optional<int> subsystems, std::string assemblyTree) {
        return run(h, {std::move(formulation), std::move(integrator), tEnd, dt, outputDt, rtol, atol, tStart,
                       basicParameter, penalty, std::move(tangent), threads, std::move(stabilization), assemble,
                       stopAtSingularities, subsystems, std::move(assemblyTree)});
      },
      py::arg("model"), py::kw_only(), py::arg("formulation") = d.formulation, py::arg("integrator") = d.integrator,
      py::arg("t_end") = d.tEnd, py::arg("dt") = d.integratorOptions.dt, py::arg("output_dt") = d.outputInterval,
      py::arg("rtol") = d.integratorOptions.rtol, py::arg("atol") = d.integratorOptions.atol,
      py::arg("t_start") = d.tStart, py::arg("basic_parameter") = py::none(), py::arg("penalty") = py::none(),
      py::arg("tangent") = std::string(tangentName(d.augmentedLagrangian.finiteDifferenceTangent)),
      py::arg("threads") = d.augmentedLagrangian.derivatives.threads,
      py::arg("stabilization") = std::string(stabilizationName(d.stabilization)), py::arg("assemble") = d.assemble,
      py::arg("stop_at_singularities") = d.stopAtSingularities, py::arg("subsystems") = py::none(),
      py::arg("assembly_tree") = d.assemblyTree,
      R"(Simulates the model from its initial state (assembled first when it has constraints) and returns a
SimulationResult. The arguments are those of `articula simulate` (articula --help):

formulation: 'auto' (aba on trees, reference with loops, hybrid with a structural integrator), or
    one of articula.formulations(): aba, crba, dca, semi-recursive, reference, distributed, hdca, hybrid,
    global.
integrator: 'rk45' (adaptive Dormand-Prince), 'rk4', 'heun', 'euler'; 'trapezoidal', 'newmark', 'hht',
    'generalized-alpha' for the index-3 formulations.
t_end, t_start: the time range, s. dt: step of the fixed-step integrators, first step of rk45, s.
output_dt: sampling period of the result's arrays, s. rtol, atol: tolerances of rk45.
basic_parameter: of the structural integrator (None: the family's default). penalty: the
    augmented-Lagrangian penalty factor (None: automatic). tangent: 'analytic' or 'finite-difference'.
threads: threads of dca, hdca, the hybrid K and C and the finite-difference tangent (results do not depend on it).
stabilization: 'projection', 'baumgarte' or 'none' (closed loops in ODE form).
assemble: run the initial assembly. stop_at_singularities: stop when a loop passes a singular
    configuration (False: count them and go on).
subsystems: the distributed formulation's number of subsystems (None: the model's partition, else one;
    docs/distributed.md).
assembly_tree: dca's and hdca's assembly tree, 'balanced' (the threads share it) or 'serial' (the
    fastest on one thread).

Invalid options raise ValueError before the run starts. A failure during the run does not raise:
the result has ok False, the error, and the samples up to the failure. The GIL is released during the
run; Ctrl-C (KeyboardInterrupt) stops it.)");
}

}  // namespace articula::python
