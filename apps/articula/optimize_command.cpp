#include "optimize_command.hpp"

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "articula/io/animation.hpp"
#include "articula/io/csv_writer.hpp"
#include "articula/io/summary_json.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/tracking.hpp"

namespace articula::cli {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void writeParameters(const std::string& path, const OptimalControlProblem& p, const Eigen::VectorXd& b,
                     const Eigen::VectorXd& g) {
  std::ofstream out = openOutput(path);
  const Eigen::VectorXd lo = p.lowerBounds(), hi = p.upperBounds();
  out << "name,value,lower,upper,gradient\n";
  for (int k = 0; k < b.size(); ++k)
    out << p.parameterName(k) << "," << b[k] << "," << lo[k] << "," << hi[k] << "," << g[k] << "\n";
}

void writeControls(const std::string& path, const OptimalControlProblem& p, TrajectoryGradient& tg, const Eigen::VectorXd& b) {
  std::ofstream out = openOutput(path);
  out << "time";
  for (const ControlInput& c : p.controls) out << "," << c.name;
  out << "\n";
  Eigen::VectorXd u;
  for (int k = 0; k <= p.stepCount(); ++k) {
    const double t = p.stepTime(k);
    tg.controls(b, t, u);
    out << t;
    for (int c = 0; c < u.size(); ++c) out << "," << u[c];
    out << "\n";
  }
}

std::string describeVector(const Eigen::VectorXd& v, int shown = 6) {
  std::ostringstream s;
  s << std::setprecision(10);
  for (int k = 0; k < std::min<int>(shown, static_cast<int>(v.size())); ++k) s << (k ? "  " : "") << v[k];
  if (v.size() > shown) s << "  ... (" << v.size() << " in all)";
  return s.str();
}

}  // namespace

std::ofstream openOutput(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "'");
  out << std::setprecision(17);
  return out;
}

// A warm start: the `value` column of a parameters.csv written by an earlier optimize run
// (name,value,...), in the problem's parameter order; the names must match.
Eigen::VectorXd readStartParameters(const std::string& path, const OptimalControlProblem& p) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open the start file '" + path + "'");
  std::string line;
  std::getline(in, line);
  if (line.rfind("name,value", 0) != 0)
    throw Error(path + ":1: expected the header 'name,value,...' of a parameters.csv written by articula optimize");
  Eigen::VectorXd b(p.parameterCount());
  int k = 0;
  for (int lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty()) continue;
    const std::size_t c1 = line.find(','), c2 = line.find(',', c1 == std::string::npos ? c1 : c1 + 1);
    const std::string name = line.substr(0, c1);
    if (k >= b.size()) throw Error(path + ":" + std::to_string(lineNo) + ": more parameters than the problem's " + std::to_string(b.size()));
    if (name != p.parameterName(k))
      throw Error(path + ":" + std::to_string(lineNo) + ": parameter '" + name + "' where the problem has '" + p.parameterName(k) + "'");
    const std::string text = c1 == std::string::npos ? "" : line.substr(c1 + 1, c2 == std::string::npos ? c2 : c2 - c1 - 1);
    char* end = nullptr;
    b[k] = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(b[k]))
      throw Error(path + ":" + std::to_string(lineNo) + ": value '" + text + "' is not a finite number");
    ++k;
  }
  if (k != b.size())
    throw Error(path + ": " + std::to_string(k) + " parameters; the problem has " + std::to_string(b.size()));
  return b;
}

int gradientCommand(const Command& c) {
  const ProblemFile f = loadProblem(c.problemPath);
  TrajectoryGradient tg(f.problem, f.gradient);
  const Eigen::VectorXd b = c.startFile.empty() ? f.problem.initialParameters() : readStartParameters(c.startFile, f.problem);
  const OptimalControlProblem& p = f.problem;
  std::cout << c.problemPath << ": " << tg.parameterCount() << " parameters, formulation " << p.formulation << ", ";
  if (p.integrator == "rk45")
    std::cout << "rk45 (rtol " << p.rtol << ", atol " << p.atol << "): continuous adjoint and sensitivities\n";
  else
    std::cout << tg.stats().steps << " steps of " << p.integrator << " (dt " << p.dt << " s): discrete adjoint and sensitivities\n";
  Eigen::VectorXd reference;
  std::cout << std::left << std::setw(9) << "method" << std::setw(11) << "time (s)" << std::setw(22) << "J"
            << "dJ/db\n";
  for (GradientMethod m : c.gradientMethods) {
    Eigen::VectorXd g;
    const auto start = std::chrono::steady_clock::now();
    const double J = tg.gradient(b, g, m);
    const double seconds = secondsSince(start);
    std::cout << std::left << std::setw(9) << gradientMethodName(m) << std::setw(11) << std::setprecision(4) << seconds
              << std::setw(22) << std::setprecision(15) << J << describeVector(g);
    if (reference.size() == 0)
      reference = g;
    else
      std::cout << "   (relative difference " << std::setprecision(2) << (g - reference).norm() / reference.norm() << ")";
    std::cout << "\n";
  }
  if (std::find(c.gradientMethods.begin(), c.gradientMethods.end(), GradientMethod::Adjoint) != c.gradientMethods.end())
    std::cout << "adjoint storage: " << tg.stats().storedStates << " states (checkpoint every "
              << tg.stats().checkpointInterval << " steps); local derivatives: " << tg.stats().localDerivatives << "\n";
  return 0;
}

int optimizeCommand(const Command& c) {
  ProblemFile f = loadProblem(c.problemPath);
  if (c.algorithm) f.optimizer.algorithm = *c.algorithm;
  if (c.maxEvaluations) f.optimizer.maxEvaluations = *c.maxEvaluations;
  if (!c.gradientMethods.empty()) f.optimizer.gradient = c.gradientMethods.front();
  const OptimalControlProblem& p = f.problem;
  TrajectoryGradient tg(p, f.gradient);
  const Eigen::VectorXd start = c.startFile.empty() ? p.initialParameters() : readStartParameters(c.startFile, p);
  // The file's continuation stages, then its own problem (the command line's settings act on it).
  std::vector<ContinuationStage> stages = f.continuation;
  stages.push_back({p, f.optimizer});
  std::filesystem::create_directories(c.outDir);
  std::ofstream history = openOutput(c.outDir + "/history.csv");
  history << "evaluation,cost,projected_gradient_norm,bound_violation,constraint_violation,wall_seconds,stage\n";
  if (!c.quiet)
    std::cout << c.problemPath << ": " << tg.parameterCount() << " parameters, " << f.optimizer.algorithm << " with "
              << gradientMethodName(f.optimizer.gradient) << " gradients"
              << (stages.size() > 1 ? ", after " + std::to_string(stages.size() - 1) + " continuation stages" : "") << "\n"
              << "  eval  cost                    |proj. gradient|  bound violation"
              << (p.constraints.empty() ? "" : "  constraint violation") << "\n";
  int shownStage = 0;
  const std::vector<OptimizationResult> results = optimizeByContinuation(stages, start, f.gradient, [&](int stage, const OptimizationRecord& rec) {
    // evaluations of the cost alone (line searches) have no gradient: left empty
    const bool hasGradient = std::isfinite(rec.projectedGradientNorm);
    history << rec.evaluation << "," << rec.cost << ",";
    if (hasGradient) history << rec.projectedGradientNorm;
    history << "," << rec.boundViolation << "," << rec.constraintViolation << "," << rec.wallSeconds << ","
            << stage + 1 << "\n";
    history.flush();
    if (c.quiet) return;
    if (stages.size() > 1 && stage + 1 != shownStage) {
      shownStage = stage + 1;
      const OptimizerOptions& o = stages[static_cast<std::size_t>(stage)].options;
      std::cout << "stage " << shownStage << " of " << stages.size() << " (" << o.algorithm << ", up to " << o.maxEvaluations
                << " evaluations)\n";
    }
    std::cout << std::right << std::setw(6) << rec.evaluation << "  " << std::left << std::setw(22)
              << std::setprecision(15) << rec.cost << "  " << std::setw(16) << std::setprecision(4);
    if (hasGradient)
      std::cout << rec.projectedGradientNorm;
    else
      std::cout << "-";
    std::cout << " " << std::setw(16) << rec.boundViolation;
    if (!p.constraints.empty()) std::cout << " " << rec.constraintViolation;
    std::cout << "\n";
  });
  if (!c.quiet)
    for (std::size_t k = 0; k + 1 < results.size(); ++k)
      std::cout << "stage " << k + 1 << ": " << results[k].status << " after " << results[k].history.size()
                << " evaluations: J = " << std::setprecision(12) << results[k].cost << "\n";
  const OptimizationResult& r = results.back();
  writeParameters(c.outDir + "/parameters.csv", p, r.parameters, r.gradient);
  writeControls(c.outDir + "/controls.csv", p, tg, r.parameters);

  // The optimal design and controls as a model file, and its simulation with the problem's
  // integrator: results.csv, summary.json and animation.html like `articula simulate`.
  const Model best = optimalModel(p, r.parameters);
  const std::string modelOut = c.outDir + "/optimum.yaml";
  {
    std::ofstream out(modelOut);
    writeModelYaml(best, out);
    if (!out) throw Error("cannot write '" + modelOut + "'");
  }
  const SimulationOptions so = simulationOptions(p);
  CsvWriter csv(best, c.outDir + "/results.csv", false);
  AnimationWriter animation(best, c.outDir + "/animation.html");
  AnimationSink frames(animation);
  const SimulationResult sim = simulate(best, so, {&csv, &frames});
  writeSummaryJson(c.outDir + "/summary.json", best, modelOut, so, sim);
  animation.write(sim.ok ? "" : "run failed: " + sim.error);
  {
    std::ofstream out = openOutput(c.outDir + "/optimization.json");
    out << "{\n  \"problem\": \"" << c.problemPath << "\",\n  \"algorithm\": \"" << f.optimizer.algorithm
        << "\",\n  \"gradient\": \"" << gradientMethodName(f.optimizer.gradient) << "\",\n  \"status\": \"" << r.status
        << "\",\n  \"converged\": " << (r.converged ? "true" : "false") << ",\n  \"evaluations\": " << r.history.size()
        << ",\n  \"initial_cost\": " << (r.history.empty() ? r.cost : r.history.front().cost) << ",\n  \"cost\": " << r.cost
        << ",\n  \"projected_gradient_norm\": " << projectedGradientNorm(r.parameters, r.gradient, p.lowerBounds(), p.upperBounds())
        << ",\n  \"wall_seconds\": " << (r.history.empty() ? 0.0 : r.history.back().wallSeconds);
    // the constraints at the optimum: G and its bound
    out << ",\n  \"constraint_violation\": " << r.constraintViolation << ",\n  \"constraints\": [";
    for (std::size_t k = 0; k < p.constraints.size(); ++k)
      out << (k ? ", " : "") << "{\"name\": " << jsonString(p.constraints[k].name) << ", \"value\": "
          << r.constraintValues[static_cast<Eigen::Index>(k)] << ", \"upper\": " << p.constraints[k].upper << "}";
    out << "]";
    // the continuation: every stage's evaluations and final cost, the problem as written last
    out << ",\n  \"stages\": [";
    for (std::size_t k = 0; k < results.size(); ++k)
      out << (k ? ", " : "") << "{\"evaluations\": " << results[k].history.size() << ", \"cost\": " << results[k].cost
          << ", \"status\": \"" << results[k].status << "\"}";
    out << "]\n}\n";
  }
  if (!c.quiet) {
    std::cout << r.status << " after " << r.history.size() << " evaluations: J = " << std::setprecision(12) << r.cost
              << "\n  b = " << describeVector(r.parameters) << "\n"
              << "written to " << c.outDir << ": parameters.csv controls.csv history.csv optimization.json optimum.yaml "
              << "results.csv summary.json animation.html\n";
  }
  if (!sim.ok) {
    std::cerr << "articula: the simulation of the optimum failed: " << sim.error << "\n";
    return 1;
  }
  return r.converged ? 0 : 1;
}

}  // namespace articula::cli
