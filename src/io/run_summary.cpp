#include "articula/io/run_summary.hpp"

#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>

#include <yaml-cpp/yaml.h>

#include "articula/core/error.hpp"

namespace articula {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
constexpr const char* jsonType() {
  if constexpr (std::is_same_v<T, std::string>) return "string";
  if constexpr (std::is_same_v<T, bool>) return "boolean";
  return "number";
}

/// A member of the summary's top-level object (or of a nested one) converted to T; JSON null reads as NaN.
class SummaryReader {
 public:
  SummaryReader(YAML::Node root, std::string path) : root_(std::move(root)), path_(std::move(path)) {}

  template <typename T>
  T get(const char* key, const char* within = nullptr) const {
    const YAML::Node parent = within ? root_[within] : root_;
    // (A missing member is an invalid node: IsDefined() is false, and IsMap() would throw.)
    const YAML::Node node = parent.IsDefined() && parent.IsMap() ? parent[key] : YAML::Node(YAML::NodeType::Undefined);
    const std::string name = within ? std::string(within) + "." + key : key;
    if (!node.IsDefined()) throw Error(path_ + ": no member '" + name + "' (is it a summary.json of articula simulate?)");
    if constexpr (std::is_same_v<T, double>)
      if (node.IsNull()) return kNaN;
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      throw Error(path_ + ": member '" + name + "' is not a " + jsonType<T>());
    }
  }

  std::optional<double> optionalNumber(const char* key) const {
    if (const YAML::Node node = root_[key]; node.IsDefined() && node.IsNull()) return std::nullopt;
    return get<double>(key);
  }

 private:
  YAML::Node root_;
  std::string path_;
};

}  // namespace

RunSummary readRunSummary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::ParserException& e) {
    throw Error(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}.str() + ": not valid JSON: " + e.msg);
  }
  if (!root.IsMap()) throw Error(path + ": not a JSON object (is it a summary.json of articula simulate?)");
  const SummaryReader r(root, path);
  RunSummary s;
  s.ok = r.get<std::string>("status") == "ok";
  if (!s.ok) s.error = r.get<std::string>("error");
  s.modelName = r.get<std::string>("name", "model");
  s.modelFile = r.get<std::string>("file", "model");
  s.bodies = r.get<long>("bodies", "model");
  s.constraintEquations = r.get<long>("constraint_equations", "model");
  s.formulation = r.get<std::string>("formulation");
  s.integrator = r.get<std::string>("integrator");
  s.stabilization = r.get<std::string>("stabilization");
  s.dt = r.get<double>("dt");
  s.rtol = r.get<double>("rtol");
  s.atol = r.get<double>("atol");
  s.tStart = r.get<double>("t_start");
  s.tEnd = r.get<double>("t_end");
  s.tReached = r.get<double>("t_reached");
  s.wallSeconds = r.get<double>("wall_time_s");
  s.outputSeconds = r.get<double>("output_time_s");
  s.steps = r.get<long>("steps");
  s.rejectedSteps = r.get<long>("rejected_steps");
  s.evaluations = r.get<long>("function_evaluations");
  s.samples = r.get<long>("samples");
  s.resumedAt = r.optionalNumber("resumed_at");
  s.checkpoints = r.get<long>("checkpoints");
  s.singularConfigurations = r.get<long>("singular_configurations");
  s.conservative = r.get<bool>("conservative");
  s.initialEnergy = r.get<double>("initial_energy");
  s.finalEnergy = r.get<double>("final_energy");
  s.maxEnergyDrift = r.get<double>("max_energy_drift");
  s.maxRelativeEnergyDrift = r.get<double>("max_relative_energy_drift");
  s.maxPositionError = r.get<double>("max_constraint_position_error");
  s.maxVelocityError = r.get<double>("max_constraint_velocity_error");
  return s;
}

RunBenchmark benchmarkOf(const RunSummary& s) {
  const auto ratio = [](double a, double b) { return b > 0.0 ? a / b : kNaN; };
  RunBenchmark b;
  b.simulatedSeconds = s.tReached - s.tStart;
  b.integrationSeconds = s.wallSeconds - s.outputSeconds;
  b.secondsPerStep = ratio(s.wallSeconds, static_cast<double>(s.steps));
  b.stepsPerSecond = ratio(static_cast<double>(s.steps), b.integrationSeconds);
  b.evaluationsPerStep = ratio(static_cast<double>(s.evaluations), static_cast<double>(s.steps));
  b.realTimeFactor = ratio(b.simulatedSeconds, b.integrationSeconds);
  return b;
}

}  // namespace articula
