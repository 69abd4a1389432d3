// The articula command-line tool.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "articula/io/animation.hpp"
#include "articula/io/csv_writer.hpp"
#include "articula/io/summary_json.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/communicator.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "optimize_command.hpp"
#include "track_command.hpp"
#include "progress.hpp"
#include "results_commands.hpp"
#include "sweep_command.hpp"
#include "view_command.hpp"

using namespace articula;

namespace {

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The model, with what the loader could map only approximately said on stderr.
Model loadReported(const std::string& path) {
  Model model = loadModel(path);
  for (const std::string& w : model.warnings) std::cerr << "articula: warning: " << path << ": " << w << "\n";
  return model;
}

// One process (world null), or one rank of an MPI run of the distributed formulation: every rank
// integrates the whole state, rank 0 alone writes the outputs and the report.
int simulateRun(const cli::Command& c, const parallel::Communicator* world) {
  const bool root = world == nullptr || world->rank() == 0;
  const Model model = root ? loadReported(c.modelPath) : loadModel(c.modelPath);
  SimulationOptions options = c.options;
  if (world != nullptr && world->size() > 1) {
    if (options.formulation != "distributed")
      throw Error("under mpirun (" + std::to_string(world->size()) + " ranks) only --formulation distributed runs across "
                  "the ranks, not '" + options.formulation + "': start it without mpirun");
    if (c.checkpointSeconds || c.resume)
      throw Error("--checkpoint and --resume are not available across MPI ranks: start the run without them");
    options.communicator = world;
  }
  const std::string restartPath = c.outDir + "/restart.bin";
  if (c.checkpointSeconds) {
    options.checkpointPath = restartPath;
    options.checkpointInterval = *c.checkpointSeconds;
  }
  if (c.resume) {
    if (!std::filesystem::exists(restartPath))
      throw Error("cannot resume: no restart file '" + restartPath + "' (run with --checkpoint SECONDS first)");
    options.resumeFrom = restartPath;
  }
  // A restart file only fits the same model file and the same numerical options. The animation
  // takes part in the restart state, so --no-html must match too.
  options.runFingerprint = runDescription(options) + "|html=" + (c.html ? "1" : "0") + "|model=" +
                           std::to_string(fingerprint(fileBytes(c.modelPath)));
  // Configuration mistakes are reported before anything is written (exit status 2).
  checkRunOptions(model, options);
  if (c.options.assemble && !c.resume) cli::checkAssembly(model);
  if (c.resume) checkRestartFile(options);
  const std::string csvPath = c.outDir + "/results.csv";
  const std::string summaryPath = c.outDir + "/summary.json";
  std::optional<CsvWriter> csv;
  std::vector<SampleSink*> sinks;
  std::optional<AnimationWriter> animation;
  std::optional<AnimationSink> animationSink;
  // Rank 0 opens the outputs; the other ranks learn whether it could before the run, in which
  // they would otherwise wait for its messages forever.
  std::string failure;
  if (root) try {
      std::filesystem::create_directories(c.outDir);
      sinks.push_back(&csv.emplace(model, csvPath, c.resume));
      if (c.html) {
        animation.emplace(model, c.htmlPath.value_or(c.outDir + "/animation.html"));
        sinks.push_back(&animationSink.emplace(*animation));
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
  if (world != nullptr) world->broadcast(failure, 0);
  if (!failure.empty()) throw Error(failure);
  if (!root) return simulate(model, options, {}, [](double) {}).ok ? 0 : 1;
  cli::ProgressBar progress(c.options.tStart, c.options.tEnd, !c.quiet);
  const SimulationResult r = simulate(model, options, sinks, [&](double t) { progress.update(t); });
  progress.finish();
  writeSummaryJson(summaryPath, model, c.modelPath, options, r);
  if (animation) animation->write(r.ok ? "" : "run failed: " + r.error);
  if (!r.ok) {
    std::cerr << "articula: " << c.modelPath << ": simulation failed " << r.error << "\n"
              << "articula: results up to t = " << r.tReached << " s are in " << csvPath << "; summary in " << summaryPath << "\n";
    return 1;
  }
  // A finished run needs no restart file; a stale one would only invite a pointless resume.
  if (!options.checkpointPath.empty() || c.resume) std::filesystem::remove(restartPath);
  if (!c.quiet) cli::printRunReport(std::cout, model, r, c.outDir, animation ? animation->path() : "");
  return 0;
}

int simulateCommand(const cli::Command& c) {
  if (!parallel::Communicator::launchedByMpi()) return simulateRun(c, nullptr);
  // Every rank of a build without MPI would run the whole model into the same directory.
  if (!parallel::Communicator::mpiBuilt())
    throw Error("this articula was built without MPI (ARTICULA_MPI): start simulate without mpirun");
  const parallel::Communicator world;
  // Every rank meets the same configuration errors; rank 0 says it once, here: rethrown, it would
  // reach main's message only after this communicator's MPI_Finalize, by when mpirun may have
  // ended it for the other ranks' exit status.
  try {
    return simulateRun(c, &world);
  } catch (const std::exception& e) {
    return world.rank() == 0 ? cli::reportError(e) : 2;
  }
}

// `articula generate` and `convert`: the model in the YAML format.
int writeYamlModel(const Model& model, const std::string& path) {
  std::ofstream out(path);
  writeModelYaml(model, out);
  out.flush();
  if (!out) throw Error("cannot write '" + path + "'");
  return 0;
}

int run(const cli::Command& c) {
  switch (c.kind) {
    case cli::Command::Kind::Help:
      std::cout << cli::usage(c.helpTopic);
      return 0;
    case cli::Command::Kind::Version:
      std::cout << "articula 0.1.0\n";
      return 0;
    case cli::Command::Kind::Simulate:
      return simulateCommand(c);
    case cli::Command::Kind::Info:
      cli::printModelInfo(std::cout, loadReported(c.modelPath));
      return 0;
    case cli::Command::Kind::Check: {
      const Model model = loadReported(c.modelPath);
      cli::checkAssembly(model);
      std::cout << c.modelPath << ": ok (" << model.bodyCount() << " bodies, " << model.nv << " tree degrees of freedom, "
                << model.constraintCount() << " constraint equations)\n";
      return 0;
    }
    case cli::Command::Kind::Convert:
      return writeYamlModel(loadReported(c.modelPath), c.outputFile);
    case cli::Command::Kind::GenerateChain:
      return writeYamlModel(makeChain(c.links, c.spatial), c.outputFile);
    case cli::Command::Kind::GenerateNFourBar:
      return writeYamlModel(makeNFourBar(c.links), c.outputFile);
    case cli::Command::Kind::GenerateRssr:
      return writeYamlModel(makeRssr(0.0, c.rod), c.outputFile);
    case cli::Command::Kind::GenerateRssrBank:
      return writeYamlModel(makeRssrBank(c.links), c.outputFile);
    case cli::Command::Kind::Plot:
      return cli::plotCommand(c);
    case cli::Command::Kind::Report:
      return cli::reportCommand(c);
    case cli::Command::Kind::View:
      return cli::viewCommand(c);
    case cli::Command::Kind::Gradient:
      return cli::gradientCommand(c);
    case cli::Command::Kind::Optimize:
      return cli::optimizeCommand(c);
    case cli::Command::Kind::Track:
      return cli::trackCommand(c);
    case cli::Command::Kind::Sweep:
      return cli::sweepCommand(c);
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(cli::parse(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const std::exception& e) {
    return cli::reportError(e);
  }
}
