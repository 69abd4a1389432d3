// Optimal control and design in Python: Problem (load_problem), its cost, gradient and
// optimisation (docs/python.md, docs/optimal-control.md).
#include <memory>
#include <optional>

#include <pybind11/stl.h>

#include "arrays.hpp"
#include "articula/io/yaml_problem.hpp"
#include "bindings.hpp"
#include "errors.hpp"

namespace articula::python {

namespace {

// A problem file with its gradient evaluator (the working model and the adjoint's storage,
// built once).
struct ProblemHandle {
  explicit ProblemHandle(ProblemFile f) : file(std::move(f)), gradient(file.problem, file.gradient) {}
  ProblemFile file;
  TrajectoryGradient gradient;
};

GradientMethod methodFromName(const std::string& name) {
  for (GradientMethod m : {GradientMethod::Adjoint, GradientMethod::DirectDifferentiation, GradientMethod::FiniteDifference})
    if (gradientMethodName(m) == name) return m;
  throw py::value_error("unknown gradient method '" + name + "' (adjoint, direct, fd)");
}

// b from the argument (None: the problem's initial parameters).
Eigen::VectorXd parameters(const ProblemHandle& h, const py::object& b, const char* function) {
  Eigen::VectorXd out(h.gradient.parameterCount());
  if (b.is_none()) return h.file.problem.initialParameters();
  readVector(function, "b", b, out, "problem.size");
  return out;
}

// An (n, 3) array of points.
py::array_t<double> pointsArray(const std::vector<Vec3>& points) {
  std::vector<double> data;
  data.reserve(3 * points.size());
  for (const Vec3& x : points) data.insert(data.end(), {x[0], x[1], x[2]});
  return adoptArray(std::move(data), {static_cast<py::ssize_t>(points.size()), 3});
}

// A (rows, n) array of per-sample series.
py::array_t<double> seriesArray(const std::vector<std::vector<double>>& series) {
  std::vector<double> data;
  const std::size_t n = series.empty() ? 0 : series.front().size();
  for (const auto& row : series) data.insert(data.end(), row.begin(), row.end());
  return adoptArray(std::move(data), {static_cast<py::ssize_t>(series.size()), static_cast<py::ssize_t>(n)});
}

py::dict resultDict(const OptimizationResult& r) {
  py::list history;
  for (const OptimizationRecord& rec : r.history)
    history.append(py::dict(py::arg("evaluation") = rec.evaluation, py::arg("cost") = rec.cost,
                            py::arg("projected_gradient_norm") = rec.projectedGradientNorm,
                            py::arg("constraint_violation") = rec.constraintViolation,
                            py::arg("wall_seconds") = rec.wallSeconds));
  return py::dict(py::arg("parameters") = toArray(r.parameters), py::arg("gradient") = toArray(r.gradient),
                  py::arg("cost") = r.cost, py::arg("status") = r.status, py::arg("converged") = r.converged,
                  py::arg("constraints") = toArray(r.constraintValues),
                  py::arg("constraint_violation") = r.constraintViolation, py::arg("history") = history);
}

py::list names(const OptimalControlProblem& p) {
  py::list out;
  for (int k = 0; k < p.parameterCount(); ++k) out.append(p.parameterName(k));
  return out;
}

}  // namespace

void bindOptimization(py::module_& m) {
  py::class_<ProblemHandle>(m, "Problem",
                            "An optimal control / design problem read from a problem file (docs/optimal-control.md), "
                            "with its gradient evaluator.")
      .def_property_readonly("size", [](const ProblemHandle& h) { return h.gradient.parameterCount(); },
                             "Number of parameters P (design parameters, then each control's coefficients).")
      .def_property_readonly("names", [](const ProblemHandle& h) { return names(h.file.problem); },
                             "The parameters' names, e.g. 'spring1.rest_length' or 'motor[12]'.")
      .def_property_readonly("initial", [](const ProblemHandle& h) { return toArray(h.file.problem.initialParameters()); },
                             "The initial parameter vector b0.")
      .def_property_readonly("lower", [](const ProblemHandle& h) { return toArray(h.file.problem.lowerBounds()); })
      .def_property_readonly("upper", [](const ProblemHandle& h) { return toArray(h.file.problem.upperBounds()); })
      .def_property_readonly("model_path", [](const ProblemHandle& h) { return h.file.modelPath; })
      .def(
          "cost",
          [](ProblemHandle& h, const py::object& b) {
            const Eigen::VectorXd x = parameters(h, b, "Problem.cost");
            py::gil_scoped_release release;
            return checkedArguments([&] { return h.gradient.cost(x); });
          },
          py::arg("b") = py::none(), "J(b) (b: None for the initial parameters).")
      .def(
          "gradient",
          [](ProblemHandle& h, const py::object& b, const std::string& method) {
            const Eigen::VectorXd x = parameters(h, b, "Problem.gradient");
            const GradientMethod how = methodFromName(method);
            Eigen::VectorXd g;
            double J;
            {
              py::gil_scoped_release release;
              J = checkedArguments([&] { return h.gradient.gradient(x, g, how); });
            }
            return py::make_tuple(J, toArray(g));
          },
          py::arg("b") = py::none(), py::arg("method") = "adjoint",
          "(J, dJ/db) at b by 'adjoint' (discrete adjoint, checkpointed), 'direct' (forward sensitivities) or "
          "'fd' (central differences of whole runs).")
      .def(
          "optimize",
          [](ProblemHandle& h, const py::object& start, std::optional<std::string> algorithm,
             std::optional<int> maxEvaluations, std::optional<std::string> gradient, bool continuation) {
            const Eigen::VectorXd b0 = parameters(h, start, "Problem.optimize");
            OptimizerOptions o = h.file.optimizer;
            if (algorithm) o.algorithm = *algorithm;
            if (maxEvaluations) o.maxEvaluations = *maxEvaluations;
            if (gradient) o.gradient = methodFromName(*gradient);
            std::vector<ContinuationStage> stages;
            if (continuation) stages = h.file.continuation;
            std::vector<OptimizationResult> results;
            OptimizationResult r;
            {
              py::gil_scoped_release release;
              checkedArguments([&] {
                if (!stages.empty()) results = optimizeByContinuation(stages, b0, h.file.gradient);
                r = optimize(h.gradient, h.file.problem, results.empty() ? b0 : results.back().parameters, o);
                return 0;
              });
            }
            py::dict out = resultDict(r);
            py::list done;
            for (const OptimizationResult& stage : results) done.append(resultDict(stage));
            out["stages"] = done;
            return out;
          },
          py::arg("start") = py::none(), py::kw_only(), py::arg("algorithm") = py::none(),
          py::arg("max_evaluations") = py::none(), py::arg("gradient") = py::none(), py::arg("continuation") = true,
          "Minimises J from `start` (None: the initial parameters) within the bounds with NLopt; the "
          "problem file's optimizer settings unless overridden (they act on the problem as written). With "
          "`continuation` the file's continuation stages run first, each from the last optimum. Returns a dict: "
          "parameters, gradient, cost, status, converged, history (one dict per evaluation), stages (the "
          "continuation stages' results, as dicts of the same kind).")
      .def(
          "track",
          [](ProblemHandle& h, const py::object& b) {
            if (!h.file.tracking) throw py::value_error("Problem.track: the problem file has no 'tracking' section");
            const Eigen::VectorXd x = parameters(h, b, "Problem.track");
            TrackingResult r;
            {
              py::gil_scoped_release release;
              r = checkedArguments([&] { return runTrackingStudy(h.file.problem, *h.file.tracking, x); });
            }
            py::list runs;
            for (const TrackingRun& run : r.runs)
              runs.append(py::dict(py::arg("architecture") = run.name, py::arg("ok") = run.ok, py::arg("error") = run.error,
                                   py::arg("ise") = run.ise, py::arg("max_deviation") = run.maxDeviation,
                                   py::arg("feedback_rms") = run.feedbackRms, py::arg("marker") = pointsArray(run.marker),
                                   py::arg("feedback") = seriesArray(run.feedback)));
            return py::dict(py::arg("t") = r.t, py::arg("reference") = pointsArray(r.reference),
                            py::arg("joint_reference") = seriesArray(r.jointReference),
                            py::arg("feedforward") = seriesArray(r.feedforward), py::arg("runs") = runs);
          },
          py::arg("b") = py::none(),
          "The feed-forward + feedback study of the problem's `tracking` section (seed 002 chapter 7) at b (None: "
          "the initial parameters), as `articula track` runs it. Returns a dict: t, reference (n x 3, the marker's "
          "path under the feed-forward on the model), joint_reference and feedforward (loops x n), runs (feedback "
          "only, feed-forward + feedback, the same on the exact model: each a dict with architecture, ok, error, "
          "ise, max_deviation, feedback_rms, marker (n x 3), feedback (loops x n)).")
      .def("__repr__", [](const ProblemHandle& h) {
        return "<articula.Problem " + h.file.modelPath + ": " + std::to_string(h.gradient.parameterCount()) +
               " parameters>";
      });
  m.def(
      "load_problem", [](const std::string& path) { return std::make_unique<ProblemHandle>(loadProblem(path)); },
      py::arg("path"),
      "Reads an optimal control / design problem file (docs/optimal-control.md) and the model it names. "
      "Raises articula.ModelError naming the file and line of a mistake.");
}

}  // namespace articula::python
