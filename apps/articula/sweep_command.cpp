#include "sweep_command.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "articula/core/archive.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/sweep/sweep.hpp"

namespace articula::cli {

namespace {

std::string readFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read the " + what + " '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The table text and the name it is known by in messages: the file, or the generated table
// (its columns checked against the model first, so that a mistake names the option).
std::pair<std::string, std::string> casesText(const Command& c, const Model& model) {
  const Command::SweepArgs& s = c.sweep;
  if (!s.casesFile.empty()) return {readFile(s.casesFile, "cases file"), s.casesFile};
  auto check = [&](const std::string& option, const std::string& column) {
    try {
      sweep::resolveColumn(model, column);
    } catch (const Error& e) {
      throw UsageError("option " + option + ": column '" + column + "': " + e.what());
    }
  };
  for (const auto& axis : s.grid) check("--grid", axis.column);
  for (const auto& d : s.vary) check("--vary", d.column);
  const std::string generated = c.outDir + "/cases.csv";
  if (!s.grid.empty()) return {sweep::fullFactorial(s.grid), generated};
  return {sweep::monteCarlo(s.vary, s.monteCarlo, s.seed.value_or(1)), generated};
}

int runOnRank(const Command& c, const parallel::Communicator& world) {
  const bool root = world.rank() == 0;
  const Model model = loadModel(c.modelPath);
  if (root)
    for (const std::string& w : model.warnings) std::cerr << "articula: warning: " << c.modelPath << ": " << w << "\n";
  sweep::SweepSetup setup;
  setup.modelPath = c.modelPath;
  setup.modelFingerprint = fingerprint(readFile(c.modelPath, "model file"));
  std::string label;
  std::tie(setup.casesText, label) = casesText(c, model);
  const sweep::CaseTable table = sweep::parseCases(setup.casesText, label, model);
  setup.outDir = c.outDir;
  setup.options = c.options;
  setup.maxCases = c.sweep.maxCases;
  setup.quiet = c.quiet;
  checkRunOptions(model, c.options);
  if (root && !c.quiet)
    std::cout << "sweep: " << table.cases.size() << " cases of " << model.name << " on " << world.size()
              << (world.size() == 1 ? " process" : " MPI ranks")
              << (parallel::Communicator::mpiBuilt() ? "" : " (built without MPI: the cases run one after another)") << "\n";
  const sweep::SweepOutcome outcome = sweep::runSweep(model, table, setup, world, std::cout);
  if (!root) return 0;
  const std::size_t remaining = outcome.cases - outcome.finished;
  if (!c.quiet) {
    std::cout << "sweep: " << outcome.finished << " of " << outcome.cases << " cases finished (" << outcome.ranNow
              << " in this run), " << outcome.failed << " failed; " << c.outDir << "/summary.csv\n";
    if (remaining > 0) std::cout << "sweep: " << remaining << " cases remain: run the same command again to continue\n";
  }
  return outcome.failed > 0 ? 1 : 0;
}

}  // namespace

int sweepCommand(const Command& c) {
  // Every rank of a build without MPI would run every case into the same directory.
  if (parallel::Communicator::launchedByMpi() && !parallel::Communicator::mpiBuilt())
    throw Error("this articula was built without MPI (ARTICULA_MPI): start the sweep without mpirun");
  const parallel::Communicator world;
  // Every rank meets the same errors (the same files and table); rank 0 says it once, here:
  // rethrown, the message would come only after this communicator's MPI_Finalize, by when mpirun
  // may have ended rank 0 for the other ranks' exit status.
  try {
    return runOnRank(c, world);
  } catch (const std::exception& e) {
    return world.rank() == 0 ? reportError(e) : 2;
  }
}

}  // namespace articula::cli
