// Command-line parsing for the articula tool, kept apart from main() so it can be
// unit-tested and fuzzed.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "articula/optimize/trajectory_gradient.hpp"
#include "articula/simulate/simulation.hpp"
#include "articula/sweep/generators.hpp"

namespace articula::cli {

/// A malformed command line; the message says what is wrong.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Prints the one-line message of a failed command on stderr ("articula: error: ..."; a usage
/// error also points to --help) and returns the exit status 2.
int reportError(const std::exception& e);

struct Command {
  enum class Kind { Help, Version, Simulate, Info, Check, Convert, GenerateChain, GenerateNFourBar, GenerateRssr, GenerateRssrBank, Plot, Report, View, Gradient, Optimize, Track, Sweep };
  Kind kind = Kind::Help;
  std::string helpTopic;  ///< help: the command whose help was asked for (empty: all)
  std::string modelPath;
  // simulate
  SimulationOptions options;
  std::string outDir = "out";
  std::optional<std::string> htmlPath;  ///< default: OUTDIR/animation.html
  bool html = true;
  bool quiet = false;
  std::optional<double> checkpointSeconds;  ///< --checkpoint: restart-file interval
  bool resume = false;                      ///< --resume: continue from OUTDIR/restart.bin
  // sweep (docs/sweep.md): the cases come from one of a file, a grid or Monte Carlo draws
  struct SweepArgs {
    std::string casesFile;                      ///< --cases
    std::vector<sweep::GridAxis> grid;          ///< --grid, one per factor
    int monteCarlo = 0;                         ///< --monte-carlo N
    std::vector<sweep::Distribution> vary;      ///< --vary, one per random input
    std::optional<std::uint64_t> seed;          ///< --seed (default 1)
    long maxCases = -1;                         ///< --max-cases: stop after this many (-1: all)
  } sweep;
  // generate chain | n-four-bar | rssr | rssr-bank
  int links = 0;         ///< --n: links of the chain, four-bars of the n-four-bar, loops of the bank
  bool spatial = false;  ///< chain only
  bool rod = false;      ///< rssr only: the coupler as a distance constraint
  std::string outputFile;
  // plot | report
  std::string resultsPath;  ///< a results directory or its results.csv
  struct PlotArgs {
    std::vector<std::string> y;  ///< --y: columns, aliases or prefixes (results_columns.hpp)
    std::string x = "time";
    bool logY = false;
    std::optional<std::string> title;  ///< default: the model name from summary.json
    int width = 800, height = 480;
  } plot;
  // gradient | optimize | track
  std::string problemPath;
  std::vector<GradientMethod> gradientMethods;  ///< gradient: methods to compare; optimize: the one to use
  std::string startFile;                        ///< --start: a parameters.csv to start from
  std::optional<std::string> algorithm;         ///< optimize --algorithm
  std::optional<int> maxEvaluations;            ///< optimize --max-evaluations
};

/// Parses argv[1..]; throws UsageError.
Command parse(const std::vector<std::string>& args);

/// The --help text.
std::string usage();
/// The help of one command (`articula COMMAND --help`): its synopsis and its options.
std::string usage(const std::string& command);

}  // namespace articula::cli
