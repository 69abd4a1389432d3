// Whole-run table of formulation x integrator, laid out like seed 001 Tables 4-7: for each
// combination, the largest fixed step (from a halving sequence) whose error by seed 001 eq. (43)
// stays below a threshold, the CPU time of the run at that step (the integration alone, without
// writing the samples), and the real-time factor.
// Error (seed001_error.hpp): three vertical coordinates (points on the mechanism) sampled every
// 0.01 s against the reference formulation with rk45 at 1e-12.
// Run: build/bin/formulation_table [threshold]   (prints a Markdown table; docs/benchmarks.md)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include "articula/model/generators.hpp"
#include "seed001_error.hpp"

using namespace articula;
using bench::ProbeTrace;
using bench::Probe;

namespace {

// The halving sequence of steps tried, largest first.
constexpr double kLargestStep = 0.08, kSmallestStep = 0.08 / 256;

struct Case {
  std::string label;
  Model model;
  std::vector<Probe> probes;
  double tEnd;
};

struct Run {
  bool ok;
  double error, seconds;
};

Run run(const Case& c, const char* formulation, const char* integrator, double dt, const ProbeTrace* reference) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.integratorOptions.dt = dt;
  o.tEnd = c.tEnd;
  o.outputInterval = 0.01;
  o.stopAtSingularities = false;
  double best = INFINITY;
  ProbeTrace h(c.probes, c.model);
  for (int repeat = 0; repeat < 3; ++repeat) {  // best of three: the machine is noisy
    ProbeTrace trial(c.probes, c.model);
    const SimulationResult r = simulate(c.model, o, {&trial});
    if (!r.ok) return {false, INFINITY, r.wallSeconds};
    // The integration alone, as seed 001's tables time it: every formulation writes the same 501
    // samples, and projecting the interpolated ones costs more than a step of the fast rows.
    best = std::min(best, r.wallSeconds - r.outputSeconds);
    h = trial;
  }
  const double error = bench::seed001Error(h, *reference);
  return {true, error, best};
}

ProbeTrace referenceRun(const Case& c) {
  SimulationOptions o;
  o.formulation = "reference";
  o.integratorOptions.rtol = o.integratorOptions.atol = 1e-12;
  o.integratorOptions.dt = 0.0;
  o.tEnd = c.tEnd;
  o.outputInterval = 0.01;
  o.stopAtSingularities = false;
  ProbeTrace h(c.probes, c.model);
  const SimulationResult r = simulate(c.model, o, {&h});
  if (!r.ok) {
    std::fprintf(stderr, "reference run of %s failed: %s\n", c.label.c_str(), r.error.c_str());
    std::exit(1);
  }
  return h;
}

Case nFourBar(int n) {
  // Hanging and released at rest 1.2 rad from the bottom: a large swing that never reaches the
  // flat singular position (benchmark A02 proper does; see docs/validation.md).
  Model m = makeNFourBar(n, -std::numbers::pi / 2 + 1.2, 0.0);
  const Vec3 tip(1, 0, 0);
  return {"N-four-bar, N = " + std::to_string(n),
          m,
          {{*m.findBody("crank0"), tip},
           {*m.findBody("crank" + std::to_string(n / 2)), tip},
           {*m.findBody("crank" + std::to_string(n)), tip}},
          5.0};
}

Case rssr() {
  Model m = makeRssr();
  return {"RSSR (spatial loop)",
          m,
          {{*m.findBody("crank"), Vec3(0.3, 0, 0)},
           {*m.findBody("coupler"), Vec3(0.6, 0, 0)},
           {*m.findBody("rocker"), Vec3(0, 0.6, 0)}},
          5.0};
}

Case rssrBank(int loops) {
  // Heights of the rocker tips of the first, middle and last loops.
  Model m = makeRssrBank(loops);
  const Vec3 tip(0, 0.6, 0);
  return {"RSSR bank, " + std::to_string(loops) + " spatial loops on one crankshaft",
          m,
          {{*m.findBody("rocker0"), tip},
           {*m.findBody("rocker" + std::to_string(loops / 2)), tip},
           {*m.findBody("rocker" + std::to_string(loops - 1)), tip}},
          5.0};
}

}  // namespace

int main(int argc, char** argv) {
  const double threshold = argc > 1 ? std::atof(argv[1]) : 1e-4;
  struct Combination {
    const char *formulation, *integrator;
  };
  const Combination combinations[] = {
      {"hybrid", "trapezoidal"}, {"hybrid", "newmark"}, {"hybrid", "hht"}, {"hybrid", "generalized-alpha"},
      {"global", "trapezoidal"}, {"global", "newmark"}, {"global", "hht"}, {"global", "generalized-alpha"},
      {"semi-recursive", "rk4"}, {"reference", "rk4"},
  };
  std::printf("error threshold %.3g (seed 001 eq. (43), samples every 0.01 s)\n\n", threshold);
  for (const Case& c : {nFourBar(10), nFourBar(50), rssr(), rssrBank(10)}) {
    const ProbeTrace reference = referenceRun(c);
    std::printf(
        "### %s, %.0f s\n\n| formulation | integrator | largest step (s) | error | CPU time (s) | real-time factor |\n"
        "| --- | --- | --- | --- | --- | --- |\n",
        c.label.c_str(), c.tEnd);
    for (const Combination& k : combinations) {
      bool found = false;
      for (double dt = kLargestStep; dt >= kSmallestStep && !found; dt *= 0.5) {
        const Run r = run(c, k.formulation, k.integrator, dt, &reference);
        if (r.ok && r.error < threshold) {
          std::printf("| %s | %s | %.5g | %.2e | %.4f | %.1f |\n", k.formulation, k.integrator, dt, r.error, r.seconds,
                      c.tEnd / r.seconds);
          found = true;
        }
      }
      if (!found) std::printf("| %s | %s | none down to %.3g | | | |\n", k.formulation, k.integrator, kSmallestStep);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
}
