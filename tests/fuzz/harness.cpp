#include "harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "articula/io/urdf_model.hpp"
#include "articula/io/yaml_problem.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/sweep/cases.hpp"
#include "cli_args.hpp"

namespace articula::fuzz {

namespace {

[[noreturn]] void violation(const char* target, const std::string& what) {
  std::fprintf(stderr, "fuzz target %s: contract violated: %s\n", target, what.c_str());
  std::abort();
}

bool finite(const Model& m) {
  if (!m.gravity.allFinite() || !m.q0.allFinite() || !m.v0.allFinite()) return false;
  for (const Body& b : m.bodies)
    if (!std::isfinite(b.mass) || !b.com.allFinite() || !b.inertiaCom.allFinite()) return false;
  for (const Joint& j : m.joints)
    if (!j.placement.E.allFinite() || !j.placement.r.allFinite() || !j.axis.allFinite() || !j.axis2.allFinite())
      return false;
  return true;
}

// Lines as YAML, XML and editors count them: LF, CR LF and a lone CR each end one.
int lineCount(const std::string& text) {
  int lines = 1;
  for (std::size_t i = 0; i < text.size(); ++i)
    lines += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  return lines;
}

}  // namespace

std::vector<std::string> splitArguments(const std::string& text) {
  std::vector<std::string> args;
  std::string current;
  for (char c : text) {
    if (c == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) args.push_back(current);
  return args;
}

// The shared contract of the model loaders: one ModelError, one line, naming `file`, at a line
// inside the input (0: the file as a whole); an accepted model holds only finite numbers.
template <class Parse>
void modelLoader(const char* target, const std::string& file, const std::string& text, Parse parse) {
  try {
    const Model model = parse(text, file).build();
    if (!finite(model)) violation(target, "an accepted model holds a non-finite number");
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    if (msg.empty() || msg.find('\n') != std::string::npos) violation(target, "the message is not one line: " + msg);
    if (e.where().file != file) violation(target, "the error does not name the file: " + msg);
    if (e.where().line < 0 || e.where().line > lineCount(text) + 1) violation(target, "line out of range: " + msg);
  } catch (const std::exception& e) {
    violation(target, std::string("an exception other than ModelError: ") + e.what());
  }
}

void modelYaml(const std::uint8_t* data, std::size_t size) {
  modelLoader("model_yaml", "fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size), parseModelYaml);
}

void problemYaml(const std::uint8_t* data, std::size_t size) {
  const std::string file = ARTICULA_SOURCE_DIR "/problems/fuzz.yaml";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ProblemFile f = parseProblemYaml(text, file);
    if (!f.problem.initialParameters().allFinite()) violation("problem_yaml", "an accepted problem has a non-finite start");
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    if (msg.empty() || msg.find('\n') != std::string::npos) violation("problem_yaml", "the message is not one line: " + msg);
    if (e.where().file.empty()) violation("problem_yaml", "the error names no file: " + msg);
    if (e.where().file == file && (e.where().line < 0 || e.where().line > lineCount(text) + 1))
      violation("problem_yaml", "line out of range: " + msg);
  } catch (const std::exception& e) {
    violation("problem_yaml", std::string("an exception other than ModelError: ") + e.what());
  }
}

void modelUrdf(const std::uint8_t* data, std::size_t size) {
  modelLoader("model_urdf", "fuzz.urdf", std::string(reinterpret_cast<const char*>(data), size), parseUrdf);
}

void sweepCases(const std::uint8_t* data, std::size_t size) {
  static const Model model = loadModel(ARTICULA_SOURCE_DIR "/models/five_bar.yaml");
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const sweep::CaseTable table = sweep::parseCases(text, "fuzz.csv", model);
    std::vector<std::string> ids;
    for (const sweep::Case& c : table.cases) {
      if (c.values.size() != table.columns.size()) violation("sweep_cases", "a case with the wrong number of values");
      for (const double x : c.values)
        if (!std::isfinite(x)) violation("sweep_cases", "an accepted case holds a non-finite value");
      if (c.id.empty() || c.id[0] == '.' || c.id.find('/') != std::string::npos) violation("sweep_cases", "an unusable id: " + c.id);
      ids.push_back(c.id);
      // A case's values are written into the model, or refused with an articula::Error.
      Model edited = model;
      SimulationOptions options;
      try {
        sweep::applyCase(table, c, edited, options, model);
        if (!finite(edited) || !std::isfinite(options.tEnd)) violation("sweep_cases", "a case made the model non-finite");
      } catch (const Error&) {
      }
    }
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) violation("sweep_cases", "accepted a duplicate id");
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    if (msg.empty() || msg.find('\n') != std::string::npos) violation("sweep_cases", "the message is not one line: " + msg);
    if (e.where().file != "fuzz.csv") violation("sweep_cases", "the error does not name the file: " + msg);
    if (e.where().line < 0 || e.where().line > lineCount(text) + 1) violation("sweep_cases", "line out of range: " + msg);
  } catch (const std::exception& e) {
    violation("sweep_cases", std::string("an exception other than ModelError: ") + e.what());
  }
}

void cliArgs(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args = splitArguments(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const cli::Command c = cli::parse(args);
    if (c.kind == cli::Command::Kind::Simulate) {
      const auto& o = c.options;
      if (!(o.tEnd > o.tStart) || !(o.outputInterval > 0.0) || !std::isfinite(o.tEnd) || !std::isfinite(o.tStart))
        violation("cli_args", "accepted a simulate command with an invalid time range or output interval");
      if (!(o.integratorOptions.dt > 0.0) || !std::isfinite(o.integratorOptions.dt))
        violation("cli_args", "accepted a non-positive or non-finite step");
    }
    if (c.kind == cli::Command::Kind::Sweep) {
      const auto& s = c.sweep;
      if (!s.casesFile.empty() + !s.grid.empty() + (s.monteCarlo > 0) != 1) violation("cli_args", "a sweep without exactly one source of cases");
      for (const auto& axis : s.grid)
        if (axis.values.empty() || !std::all_of(axis.values.begin(), axis.values.end(), [](double x) { return std::isfinite(x); }))
          violation("cli_args", "accepted an empty or non-finite grid axis");
    }
    if (c.kind == cli::Command::Kind::Plot || c.kind == cli::Command::Kind::Report) {
      if (c.resultsPath.empty() || c.outputFile.empty()) violation("cli_args", "accepted plot or report without results or -o");
      if (c.kind == cli::Command::Kind::Plot &&
          (c.plot.y.empty() || std::any_of(c.plot.y.begin(), c.plot.y.end(), [](const std::string& y) { return y.empty(); })))
        violation("cli_args", "accepted a plot with no or an empty --y item");
      if (c.plot.width < 200 || c.plot.height < 150) violation("cli_args", "accepted a plot smaller than 200 x 150");
    }
  } catch (const cli::UsageError& e) {
    if (std::string(e.what()).empty()) violation("cli_args", "empty usage message");
  } catch (const std::exception& e) {
    violation("cli_args", std::string("an exception other than UsageError: ") + e.what());
  }
}

}  // namespace articula::fuzz
