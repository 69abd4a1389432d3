#include "cli_args.hpp"

#include <charconv>
#include <cmath>
#include <iostream>
#include <sstream>

#include "articula/dynamics/assembly_tree.hpp"
#include "articula/simulate/option_names.hpp"

namespace articula::cli {

std::string usage() {
  return R"(articula - multibody dynamics

usage:
  articula simulate MODEL [options]        simulate and write OUT/results.csv, OUT/summary.json, OUT/animation.html
  articula sweep MODEL (--cases FILE.csv | --grid SPEC... | --monte-carlo N --vary SPEC...) [options]
                                           run one simulation per case (parameters and initial
                                           conditions from a table, docs/sweep.md), over MPI ranks
                                           under mpirun; OUT/cases/ID/results.csv, OUT/summary.csv
  articula info MODEL                      bodies, joints, degrees of freedom, loops, force elements
  articula check MODEL                     validate the model (exit 0 when valid)
  articula convert MODEL -o FILE.yaml      write MODEL (a URDF robot, or a YAML model) in the YAML format
                                           MODEL: a YAML model (docs/model-format.md) or a URDF robot
                                           (*.urdf; the mapping is in docs/model-format.md)
  articula generate chain --n N [--spatial] -o FILE.yaml
                                           write the N-link pendulum chain benchmark model
  articula generate n-four-bar --n N -o FILE.yaml
                                           write the N four-bar mechanism (IFToMM benchmark A02)
  articula generate rssr [--rod] -o FILE.yaml
                                           write the spatial RSSR crank-rocker (one closed loop); --rod:
                                           its coupler as a massless rod (a distance constraint)
  articula generate rssr-bank --n N -o FILE.yaml
                                           write N RSSR loops on one crankshaft (spatial, N loops)
  articula plot RESULTS --y LIST [--x COLUMN] [--log-y] [--title TEXT] [--width PX] [--height PX] -o FILE.svg
                                           plot columns of RESULTS/results.csv (RESULTS: the output
                                           directory of simulate, or its results.csv) as an SVG line plot
  articula report RESULTS -o FILE.html     write a self-contained HTML report of the run in RESULTS:
                                           summary, benchmark of the run, energy and constraint drift plots
  articula view RESULTS [--model MODEL] [-o FILE.html]
                                           rebuild the 3D animation page of the run in RESULTS from its
                                           results.csv (default RESULTS/animation.html); the model is the
                                           one summary.json names unless --model gives it
  articula gradient PROBLEM [--method LIST] [--start FILE.csv]
                                           dJ/db of an optimal control/design problem (docs/optimal-control.md)
                                           by each method in LIST (default adjoint,direct,fd), timed
  articula optimize PROBLEM [--out DIR] [--algorithm NAME] [--max-evaluations N] [--gradient METHOD]
                    [--start FILE.csv] [--quiet]
                                           minimise the problem's cost; writes DIR/parameters.csv,
                                           controls.csv, history.csv, optimization.json, the optimal
                                           model optimum.yaml and its run (results.csv, animation.html)
  articula track PROBLEM [--start FILE.csv] [--out DIR] [--quiet]
                                           feed-forward + feedback (seed 002 chapter 7): the controls at
                                           the parameters of FILE.csv as feed-forward next to the PD
                                           loops of the problem's `tracking` section, on its perturbed
                                           plant, against the loops alone; writes DIR/tracking.csv and
                                           tracking.json (the integral squared errors)
  articula --help | --version

simulate options:
  --formulation NAME     auto (default: aba for open trees, reference with loops; hybrid with a
                         structural integrator), aba, crba, dca (open trees), semi-recursive
                         (coordinate partitioning on loops), reference; Hamiltonian, state [q; p]:
                         hdca (trees and closed loops); index-3: hybrid, global
  --integrator NAME      rk45 (default, adaptive Dormand-Prince 5(4)), rk4, heun, euler: ODE form;
                         trapezoidal, newmark, hht, generalized-alpha: structural integrators for
                         the index-3 formulations (hybrid, global)
  --dt SECONDS           step of the fixed-step integrators; first step hint for rk45 (default 1e-3)
  --basic-parameter X    of the structural integrator (seed 001 Table 2): newmark xi in [-1, 0]
                         (default -0.05), hht deltaF in [0, 1/3] (0.05), generalized-alpha
                         rhoInfinity in [0, 1] (0.9)
  --penalty ALPHA        augmented-Lagrangian penalty factor (default: automatic, see docs)
  --newton-tolerance X   the structural integrators' Newton iteration stops when its correction
                         of the accelerations is below X (1 + |accelerations|) (default 1e-10)
  --tangent KIND         K and C of the structural integrators' tangent matrix: analytic
                         (default: springs and dampers) or finite-difference (all forces)
  --threads N            threads of the finite-difference tangent, of dca, hdca and distributed;
                         with 2 or more, the hybrid formulation's analytic K and C are computed
                         alongside its forces (default 1; same results for every N)
  --assembly-tree KIND   dca and hdca: balanced (default; the threads share its subtrees, depth
                         about log2 n) or serial (one join per tier: the fastest on one thread,
                         no parallel speed-up; results differ from balanced by round-off)
  --subsystems N         distributed formulation: split the bodies into N balanced connected
                         subsystems (default: the model's 'subsystems', else one); under
                         mpirun -np P (P <= subsystems) they spread over the P ranks, rank 0
                         writes the outputs (docs/distributed.md)
  --rtol X, --atol X     rk45 tolerances (default 1e-8, 1e-10)
  --t-end SECONDS        end time (default 10)
  --output-dt SECONDS    sampling period of the outputs (default 0.01)
  --stabilization KIND   projection (default), baumgarte, none: how loop constraints are kept
  --no-assemble          skip the initial assembly of closed loops
  --through-singularities  do not stop when a closed loop passes a singular configuration
                         (the summary counts them); the default stops with a message
  --out DIR              output directory (default out)
  --html FILE            animation file (default OUT/animation.html); --no-html to skip it
  --quiet                no progress bar and no report on stdout
  --checkpoint SECONDS   write OUT/restart.bin every SECONDS of wall-clock time (atomically)
  --resume               continue the run stopped in OUT from OUT/restart.bin (same model and
                         options); the results continue bit-for-bit as if it had never stopped
  --realtime             pace the run to the wall clock (hardware in the loop): each step waits
                         until the wall-clock time of its simulated end; the samples are written
                         by a second thread, no progress bar; the report gives the worst and mean
                         step time and the deadline misses (not with --checkpoint)
  --realtime-speed S     paced at S simulated seconds per wall-clock second (implies --realtime)

sweep options:
  the simulate options (but --html, --no-html, --checkpoint, --resume, --realtime), for every
  case, and
  --cases FILE.csv       the cases: a column id, then one column per quantity that varies:
                         mass:BODY, stiffness:SPRING, damping:SPRING, rest_length:SPRING,
                         rest_position:JOINT_SPRING, q0:JOINT, v0:JOINT (JOINT[k] for one of
                         several coordinates), gravity:x|y|z, t_end
  --grid COLUMN=LO:HI:N  a full-factorial factor: N values from LO to HI (or COLUMN=V1,V2,...);
                         repeat for each factor
  --monte-carlo N        N cases drawn from the --vary distributions (--seed S, default 1)
  --vary COLUMN=DIST     uniform(LO,HI) or normal(MEAN,SD); repeat for each random input
  --max-cases K          run at most K unfinished cases, then stop (the next run continues)
  A sweep stopped for any reason continues when run again with the same arguments; OUT keeps
  the table it ran (OUT/cases.csv) and refuses another model, table or options.

plot options:
  --y LIST               comma-separated columns to plot: column names (time, A.q, total_energy, ...,
                         and the derived relative_energy_drift = (E(t) - E(0)) / |E(0)|), aliases
                         (energy, constraint_error, q, v, markers) or prefixes up to a '.' or '_' (a
                         joint or marker name: crank selects crank.q and crank.v); an item that
                         selects nothing is an error listing the columns
  --x COLUMN             the abscissa (default time)
  --log-y                plot |value| on a log axis (errors, drifts); zeros lie on the bottom edge
  --title TEXT           default: the model name from summary.json
  --width PX, --height PX  image size (default 800 x 480, from 200 x 150); long series are thinned to
                         the pixel columns, keeping each column's minimum and maximum
  Values that are not finite (nan, inf) are left out with a warning naming the column and line.

gradient and optimize options:
  --method LIST          gradient: comma-separated adjoint (discrete adjoint, checkpointed), direct
                         (forward sensitivities), fd (central finite differences of whole runs)
  --gradient METHOD      optimize: the gradient the optimiser uses (default: the problem's, adjoint)
  --algorithm NAME       optimize: lbfgs, slsqp, mma, ccsaq (NLopt), ipopt (default: the problem's, lbfgs)
  --max-evaluations N    optimize: cost-and-gradient evaluations allowed
  --start FILE.csv       start from the values of a parameters.csv of an earlier run (warm start)
  --out DIR              optimize, track: output directory (default out)

exit status: 0 success, 1 the run failed (results up to the failure are kept), 2 bad command line, model or results
)";
}

std::string usage(const std::string& command) {
  if (command.empty()) return usage();
  // The command's lines of the usage section (its synopsis and their indented continuations),
  // then its "COMMAND options:" block, cut from the one help text.
  std::istringstream text(usage());
  std::string line, synopsis, options;
  bool inSynopsis = false, inOptions = false;
  const std::string head = "  articula " + command + " ";
  while (std::getline(text, line)) {
    if (line.rfind("  articula ", 0) == 0) inSynopsis = line.rfind(head, 0) == 0;
    else if (line.rfind("   ", 0) != 0) inSynopsis = false;
    if (line.empty() || (line.back() == ':' && line[0] != ' ')) inOptions = line == command + " options:";
    if (inSynopsis) synopsis += line + "\n";
    if (inOptions) options += line + "\n";
  }
  return "usage:\n" + synopsis + (options.empty() ? "" : "\n" + options) + "\nsee articula --help for every command\n";
}

namespace {

class Args {
 public:
  explicit Args(const std::vector<std::string>& a) : a_(a) {}
  bool done() const { return i_ >= a_.size(); }
  const std::string& next() { return a_[i_++]; }
  const std::string& value(const std::string& flag) {
    if (done()) throw UsageError("option " + flag + " needs a value");
    return next();
  }
  double number(const std::string& flag) {
    const std::string& s = value(flag);
    double x = 0.0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(x))
      throw UsageError("option " + flag + ": '" + s + "' is not a number");
    return x;
  }
  double positive(const std::string& flag) {
    const double x = number(flag);
    if (x <= 0.0) throw UsageError("option " + flag + " must be positive");
    return x;
  }
  // Range checked before the conversion: a double outside int's range must never reach static_cast<int>.
  int wholeNumber(const std::string& flag, int lo, int hi) {
    const double x = number(flag);
    if (x < lo || x > hi || x != std::floor(x))
      throw UsageError("option " + flag + " needs a whole number from " + std::to_string(lo) + " to " +
                       std::to_string(hi));
    return static_cast<int>(x);
  }

 private:
  const std::vector<std::string>& a_;
  std::size_t i_ = 0;
};

// The core's option-name parsers (simulate/option_names.hpp) throw articula::Error; on the
// command line a bad name is a usage error.
template <class Parse>
auto asUsageError(Parse parse) {
  try {
    return parse();
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// The options of a run (simulate, and every case of a sweep); false for any other argument.
bool runOption(Args& args, Command& c, const std::string& a) {
  if (a == "--formulation")
    c.options.formulation = args.value(a);
  else if (a == "--integrator")
    c.options.integrator = args.value(a);
  else if (a == "--dt")
    c.options.integratorOptions.dt = args.positive(a);
  else if (a == "--basic-parameter")
    c.options.basicParameter = args.number(a);
  else if (a == "--penalty")
    c.options.augmentedLagrangian.penalty = args.positive(a);
  else if (a == "--newton-tolerance")
    c.options.augmentedLagrangian.newtonTolerance = args.positive(a);
  else if (a == "--tangent")
    c.options.augmentedLagrangian.finiteDifferenceTangent =
        asUsageError([&] { return finiteDifferenceTangentFromName(args.value(a)); });
  else if (a == "--threads")
    c.options.augmentedLagrangian.derivatives.threads = args.wholeNumber(a, 1, 1024);
  else if (a == "--assembly-tree")
    c.options.assemblyTree = asUsageError([&] {
      const std::string name = args.value(a);
      pairingPolicy(name);  // rejects an unknown name here, as a usage error
      return name;
    });
  else if (a == "--subsystems")
    c.options.subsystems = args.wholeNumber(a, 1, 1 << 20);
  else if (a == "--rtol")
    c.options.integratorOptions.rtol = args.positive(a);
  else if (a == "--atol")
    c.options.integratorOptions.atol = args.positive(a);
  else if (a == "--t-end")
    c.options.tEnd = args.positive(a);
  else if (a == "--output-dt")
    c.options.outputInterval = args.positive(a);
  else if (a == "--stabilization")
    c.options.stabilization = asUsageError([&] { return stabilizationFromName(args.value(a)); });
  else if (a == "--no-assemble")
    c.options.assemble = false;
  else if (a == "--through-singularities")
    c.options.stopAtSingularities = false;
  else if (a == "--out")
    c.outDir = args.value(a);
  else if (a == "--quiet")
    c.quiet = true;
  else
    return false;
  return true;
}

// The arguments of a command that takes one input (a file or a directory) and options: `option`
// consumes one of the command's own options and returns false for any other argument.
template <class Option>
void parseInputAndOptions(Args& args, const std::string& verb, const std::string& inputKind, std::string& input, Option option) {
  while (!args.done()) {
    const std::string& a = args.next();
    if (option(a)) continue;
    if (!a.empty() && a[0] == '-') throw UsageError("unknown option '" + a + "' for " + verb + " (see articula --help)");
    if (!input.empty()) throw UsageError("unexpected argument '" + a + "': " + verb + " takes one " + inputKind);
    input = a;
  }
  if (input.empty()) throw UsageError(verb + " needs a " + inputKind);
}

void parseSimulate(Args& args, Command& c) {
  parseInputAndOptions(args, "simulate", "model file", c.modelPath, [&](const std::string& a) {
    if (runOption(args, c, a))
      return true;
    else if (a == "--html")
      c.htmlPath = args.value(a);
    else if (a == "--no-html")
      c.html = false;
    else if (a == "--checkpoint")
      c.checkpointSeconds = args.positive(a);
    else if (a == "--resume")
      c.resume = true;
    else if (a == "--realtime")
      c.options.realtimeSpeed = c.options.realtimeSpeed > 0.0 ? c.options.realtimeSpeed : 1.0;
    else if (a == "--realtime-speed")
      c.options.realtimeSpeed = args.positive(a);
    else
      return false;
    return true;
  });
}

void parseSweep(Args& args, Command& c) {
  Command::SweepArgs& s = c.sweep;
  parseInputAndOptions(args, "sweep", "model file", c.modelPath, [&](const std::string& a) {
    if (runOption(args, c, a))
      return true;
    else if (a == "--cases")
      s.casesFile = args.value(a);
    else if (a == "--grid")
      s.grid.push_back(asUsageError([&] { return sweep::parseGridAxis(args.value(a)); }));
    else if (a == "--monte-carlo")
      s.monteCarlo = args.wholeNumber(a, 1, 1000000);
    else if (a == "--vary")
      s.vary.push_back(asUsageError([&] { return sweep::parseDistribution(args.value(a)); }));
    else if (a == "--seed")
      s.seed = static_cast<std::uint64_t>(args.wholeNumber(a, 0, 2147483647));
    else if (a == "--max-cases")
      s.maxCases = args.wholeNumber(a, 0, 100000000);
    else if (a == "--html" || a == "--no-html" || a == "--checkpoint" || a == "--resume" || a == "--realtime" ||
             a == "--realtime-speed")
      throw UsageError("option " + a + " is not for sweep: it writes no animations, resumes by itself and runs its cases as fast as it can (docs/sweep.md)");
    else
      return false;
    return true;
  });
  const int sources = !s.casesFile.empty() + !s.grid.empty() + (s.monteCarlo > 0);
  if (sources != 1) throw UsageError("sweep needs exactly one of --cases FILE, --grid SPEC..., --monte-carlo N");
  if ((s.monteCarlo > 0) != !s.vary.empty()) throw UsageError("--monte-carlo N and --vary SPEC go together");
  if (s.seed && s.monteCarlo == 0) throw UsageError("--seed is for --monte-carlo");
}

void parseGenerate(Args& args, Command& c) {
  if (args.done()) throw UsageError("generate needs a model kind (chain, n-four-bar, rssr, rssr-bank)");
  const std::string kind = args.next();
  if (kind == "chain")
    c.kind = Command::Kind::GenerateChain;
  else if (kind == "n-four-bar")
    c.kind = Command::Kind::GenerateNFourBar;
  else if (kind == "rssr")
    c.kind = Command::Kind::GenerateRssr;
  else if (kind == "rssr-bank")
    c.kind = Command::Kind::GenerateRssrBank;
  else
    throw UsageError("unknown model kind '" + kind + "' for generate (valid: chain, n-four-bar, rssr, rssr-bank)");
  const bool takesN = c.kind != Command::Kind::GenerateRssr;
  bool haveN = false;
  while (!args.done()) {
    const std::string& a = args.next();
    if (a == "--n" && takesN) {
      c.links = args.wholeNumber(a, 1, 100000);
      haveN = true;
    } else if (a == "--spatial" && c.kind == Command::Kind::GenerateChain)
      c.spatial = true;
    else if (a == "--rod" && c.kind == Command::Kind::GenerateRssr)
      c.rod = true;
    else if (a == "-o" || a == "--output")
      c.outputFile = args.value(a);
    else
      throw UsageError("unknown argument '" + a + "' for generate " + kind);
  }
  if (takesN && !haveN) throw UsageError("generate " + kind + " needs --n N");
  if (c.outputFile.empty()) throw UsageError("generate " + kind + " needs -o FILE");
}

void parsePlotOrReport(Args& args, Command& c, const std::string& verb) {
  const bool plot = c.kind == Command::Kind::Plot;
  parseInputAndOptions(args, verb, "results directory (or its results.csv)", c.resultsPath, [&](const std::string& a) {
    if (a == "-o" || a == "--output")
      c.outputFile = args.value(a);
    else if (plot && a == "--y") {
      const std::string& list = args.value(a);
      for (std::size_t start = 0;;) {
        const std::size_t comma = list.find(',', start);
        c.plot.y.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (c.plot.y.back().empty()) throw UsageError("option --y: empty column name in '" + list + "'");
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (plot && a == "--x")
      c.plot.x = args.value(a);
    else if (plot && a == "--log-y")
      c.plot.logY = true;
    else if (plot && a == "--title")
      c.plot.title = args.value(a);
    else if (plot && a == "--width")
      c.plot.width = args.wholeNumber(a, 200, 20000);
    else if (plot && a == "--height")
      c.plot.height = args.wholeNumber(a, 150, 20000);
    else
      return false;
    return true;
  });
  if (plot && c.plot.y.empty()) throw UsageError("plot needs --y COLUMN[,COLUMN...]");
  if (c.outputFile.empty()) throw UsageError(verb + " needs -o FILE");
}

GradientMethod gradientMethodFromName(const std::string& name, const std::string& flag) {
  for (GradientMethod m : {GradientMethod::Adjoint, GradientMethod::DirectDifferentiation, GradientMethod::FiniteDifference})
    if (gradientMethodName(m) == name) return m;
  throw UsageError("option " + flag + ": unknown gradient method '" + name + "' (adjoint, direct, fd)");
}

void parseGradientOrOptimize(Args& args, Command& c, const std::string& verb) {
  const bool optimize = c.kind == Command::Kind::Optimize, track = c.kind == Command::Kind::Track;
  parseInputAndOptions(args, verb, "problem file", c.problemPath, [&](const std::string& a) {
    if (a == "--start")
      c.startFile = args.value(a);
    else if (c.kind == Command::Kind::Gradient && a == "--method") {
      const std::string& list = args.value(a);
      for (std::size_t start = 0;;) {
        const std::size_t comma = list.find(',', start);
        c.gradientMethods.push_back(
            gradientMethodFromName(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start), a));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (optimize && a == "--gradient")
      c.gradientMethods = {gradientMethodFromName(args.value(a), a)};
    else if (optimize && a == "--algorithm")
      c.algorithm = args.value(a);
    else if (optimize && a == "--max-evaluations")
      c.maxEvaluations = args.wholeNumber(a, 1, 1000000);
    else if ((optimize || track) && a == "--out")
      c.outDir = args.value(a);
    else if ((optimize || track) && a == "--quiet")
      c.quiet = true;
    else
      return false;
    return true;
  });
  if (c.kind == Command::Kind::Gradient && c.gradientMethods.empty())
    c.gradientMethods = {GradientMethod::Adjoint, GradientMethod::DirectDifferentiation, GradientMethod::FiniteDifference};
}

}  // namespace

Command parse(const std::vector<std::string>& argv) {
  Command c;
  Args args(argv);
  if (args.done()) return c;
  const std::string verb = args.next();
  if (verb == "--help" || verb == "-h" || verb == "help") return c;
  if (verb == "--version") {
    c.kind = Command::Kind::Version;
    return c;
  }
  // `articula COMMAND --help` (anywhere after the command): that command's part of the help.
  for (const std::string& a : argv)
    if (a == "--help" || a == "-h") {
      c.helpTopic = verb;
      if (usage(verb).find("articula " + verb) == std::string::npos)
        throw UsageError("unknown command '" + verb + "' (see articula --help)");
      return c;
    }
  if (verb == "simulate") {
    c.kind = Command::Kind::Simulate;
    parseSimulate(args, c);
  } else if (verb == "sweep") {
    c.kind = Command::Kind::Sweep;
    parseSweep(args, c);
  } else if (verb == "view") {
    c.kind = Command::Kind::View;
    parseInputAndOptions(args, verb, "results directory (or its results.csv)", c.resultsPath, [&](const std::string& a) {
      if (a == "-o" || a == "--output")
        c.outputFile = args.value(a);
      else if (a == "--model")
        c.modelPath = args.value(a);
      else
        return false;
      return true;
    });
  } else if (verb == "convert") {
    c.kind = Command::Kind::Convert;
    parseInputAndOptions(args, verb, "model file", c.modelPath, [&](const std::string& a) {
      if (a != "-o" && a != "--output") return false;
      c.outputFile = args.value(a);
      return true;
    });
    if (c.outputFile.empty()) throw UsageError("convert needs -o FILE.yaml");
  } else if (verb == "info" || verb == "check") {
    c.kind = verb == "info" ? Command::Kind::Info : Command::Kind::Check;
    if (args.done()) throw UsageError(verb + " needs a model file");
    c.modelPath = args.next();
    if (!args.done()) throw UsageError("unexpected argument '" + args.next() + "'");
  } else if (verb == "generate") {
    parseGenerate(args, c);
  } else if (verb == "gradient" || verb == "optimize" || verb == "track") {
    c.kind = verb == "gradient" ? Command::Kind::Gradient : verb == "optimize" ? Command::Kind::Optimize : Command::Kind::Track;
    parseGradientOrOptimize(args, c, verb);
  } else if (verb == "plot" || verb == "report") {
    c.kind = verb == "plot" ? Command::Kind::Plot : Command::Kind::Report;
    parsePlotOrReport(args, c, verb);
  } else {
    throw UsageError("unknown command '" + verb + "' (valid: simulate, sweep, info, check, convert, generate, plot, report, view, gradient, optimize, track; see articula --help)");
  }
  return c;
}

int reportError(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) != nullptr)
    std::cerr << "articula: " << e.what() << "\n(see articula --help)" << std::endl;
  else
    std::cerr << "articula: error: " << e.what() << std::endl;
  return 2;
}

}  // namespace articula::cli
