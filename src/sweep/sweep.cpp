#include "articula/sweep/sweep.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "articula/core/archive.hpp"
#include "articula/io/csv_writer.hpp"
#include "articula/io/summary_json.hpp"

namespace fs = std::filesystem;

namespace articula::sweep {

namespace {

constexpr int root = 0;

std::string caseDir(const SweepSetup& s, const Case& c) { return s.outDir + "/cases/" + c.id; }
std::string recordPath(const SweepSetup& s, const Case& c) { return caseDir(s, c) + "/case.csv"; }

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// What makes two sweeps the same: the model file, the table and the options that change numbers.
std::string fingerprintText(const SweepSetup& s) {
  return "articula sweep\nmodel " + std::to_string(s.modelFingerprint) + "\ncases " +
         std::to_string(fingerprint(s.casesText)) + "\noptions " + runDescription(s.options) + "\n";
}

// A CSV field: quoted (with "" for ") when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The root's preparation: DIR and its fingerprint, cases.csv, the list of unfinished cases
// (their half-written directories removed). Returns "ok" and the indices, one per line.
std::string prepare(const CaseTable& table, const SweepSetup& s) {
  const std::string stamp = fingerprintText(s), stampPath = s.outDir + "/sweep.fingerprint";
  if (fs::exists(stampPath)) {
    const std::string old = readFile(stampPath);
    if (old != stamp) {
      std::istringstream a(old), b(stamp);
      std::string la, lb, what = "another sweep";
      while (std::getline(b, lb)) {
        if (!std::getline(a, la) || la != lb) {
          what = lb.rfind("model", 0) == 0   ? "another model file"
                 : lb.rfind("cases", 0) == 0 ? "other cases"
                                             : "other simulation options";
          break;
        }
      }
      throw Error("cannot resume the sweep in '" + s.outDir + "': it was made from " + what +
                  " (use another --out, or remove the directory)");
    }
  } else if (fs::exists(s.outDir + "/cases")) {
    throw Error("'" + s.outDir + "' holds cases/ but no sweep.fingerprint: not a sweep directory to resume");
  }
  fs::create_directories(s.outDir + "/cases");
  writeFileAtomically(stampPath, stamp, "sweep fingerprint");
  writeFileAtomically(s.outDir + "/cases.csv", s.casesText, "cases table");
  std::string message = "ok\n";
  long pending = 0;
  for (std::size_t k = 0; k < table.cases.size(); ++k) {
    const Case& c = table.cases[k];
    if (fs::exists(recordPath(s, c))) continue;
    fs::remove_all(caseDir(s, c) + ".partial");
    if (s.maxCases >= 0 && pending >= s.maxCases) continue;
    ++pending;
    message += std::to_string(k) + "\n";
  }
  return message;
}

// One case, written to DIR/cases/<id>.partial and renamed to DIR/cases/<id> when complete.
// Returns whether the case failed (its line says why); failures to write its files throw.
bool runCase(const Model& base, const CaseTable& table, const Case& c, const SweepSetup& s) {
  const std::string dir = caseDir(s, c), partial = dir + ".partial";
  fs::remove_all(partial);
  fs::create_directories(partial);
  const std::clock_t cpuStart = std::clock();
  Model model = base;
  SimulationOptions options = s.options;
  SimulationResult r;
  bool ran = false;
  try {
    applyCase(table, c, model, options, base);
    checkRunOptions(model, options);
    {
      CsvWriter csv(model, partial + "/results.csv");
      r = simulate(model, options, {&csv});
    }
    ran = true;
    writeSummaryJson(partial + "/summary.json", model, s.modelPath, options, r);
  } catch (const Error& e) {
    if (ran) throw;  // the summary could not be written
    r.ok = false;
    r.error = e.what();
  }
  const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  std::string line = c.id;
  auto field = [&line](const std::string& text) {
    line += ',';
    line += text;
  };
  for (const double x : c.values) field(formatNumber(x));
  field(r.ok ? "ok" : "failed");
  for (const double x : {r.tReached, r.maxRelativeEnergyDrift, r.maxPositionError}) field(ran ? formatNumber(x) : "");
  field(formatNumber(cpu));
  field(csvField(r.error));
  line += '\n';
  writeFileAtomically(partial + "/case.csv", line, "case record");
  std::error_code ec;
  fs::rename(partial, dir, ec);
  if (ec) throw Error("cannot rename '" + partial + "' to '" + dir + "': " + ec.message());
  return !r.ok;
}

}  // namespace

std::string summaryHeader(const CaseTable& table) {
  std::string h = "id";
  for (const CaseColumn& c : table.columns) (h += ',') += c.name;
  return h + ",status,t_reached,energy_drift,constraint_error,cpu_seconds,message\n";
}

SweepOutcome runSweep(const Model& model, const CaseTable& table, const SweepSetup& setup,
                      const parallel::Communicator& world, std::ostream& log) {
  std::string plan;
  if (world.rank() == root) {
    try {
      plan = prepare(table, setup);
    } catch (const std::exception& e) {
      plan = std::string("error\n") + e.what();
    }
  }
  world.broadcast(plan, root);
  std::istringstream lines(plan);
  std::string word;
  std::getline(lines, word);
  if (word != "ok") throw Error(plan.substr(plan.find('\n') + 1));
  std::vector<std::size_t> pending;
  for (std::size_t k; lines >> k;) pending.push_back(k);

  // Static round-robin: the cases of one sweep cost about the same, so neighbours in the table
  // go to different ranks and no rank waits for work or spends itself on handing it out.
  std::string writeError;
  double ran = 0.0;
  for (std::size_t i = static_cast<std::size_t>(world.rank()); i < pending.size(); i += static_cast<std::size_t>(world.size())) {
    const Case& c = table.cases[pending[i]];
    try {
      const bool failed = runCase(model, table, c, setup);
      ran += 1.0;
      if (!setup.quiet) {
        std::ostringstream out;
        out << "case " << c.id << (failed ? " failed" : " ok");
        if (world.size() > 1) out << " (rank " << world.rank() << ")";
        out << "\n";
        log << out.str() << std::flush;
      }
    } catch (const std::exception& e) {
      writeError = e.what();
      std::cerr << "articula: sweep: rank " << world.rank() << ": " << writeError << "\n";
      break;
    }
  }
  world.barrier();
  const std::vector<double> ranByRank = world.gather(ran, root);
  const std::vector<double> errorsByRank = world.gather(writeError.empty() ? 0.0 : 1.0, root);
  SweepOutcome outcome;
  if (world.rank() != root) return outcome;
  for (const double e : errorsByRank)
    if (e > 0.0) throw Error(writeError.empty() ? "a rank could not write its case files (its message is above)" : writeError);
  for (const double n : ranByRank) outcome.ranNow += static_cast<std::size_t>(n);
  outcome.cases = table.cases.size();
  std::string summary = summaryHeader(table);
  for (const Case& c : table.cases) {
    if (!fs::exists(recordPath(setup, c))) continue;
    const std::string line = readFile(recordPath(setup, c));
    ++outcome.finished;
    // The status follows the id and the values, which hold no commas.
    std::size_t at = 0;
    for (std::size_t i = 0; i <= table.columns.size(); ++i) at = line.find(',', at) + 1;
    if (line.compare(at, 7, "failed,") == 0) ++outcome.failed;
    summary += line;
  }
  writeFileAtomically(setup.outDir + "/summary.csv", summary, "sweep summary");
  return outcome;
}

}  // namespace articula::sweep
