// The closed-loop part of the peers program: the linkages of linkage.hpp, 10 s in every engine
// with its own integrator. First the physics check (same initial state, energy and, where the
// engine gives them, constrained accelerations), then one checked run per setting (loop closure
// and energy observed every millisecond, not timed), then the timed runs in interleaved rounds.
#include "loop_runs.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>

#include "linkage.hpp"
#include "stats.hpp"

namespace peers {

namespace {

constexpr double kEnd = 10.0, kObserve = 1e-3;

// The engines compiled in; Articula first, the reference of the ratio column.
std::vector<std::function<LinkageRuns(const Linkage&)>> factories() {
  std::vector<std::function<LinkageRuns(const Linkage&)>> f;
  f.push_back(makeArticulaLinkages);  // this part needs Articula (loop_runs.cpp is built with it)
#ifdef PEERS_HAVE_SIMBODY
  f.push_back(makeSimbodyLinkages);
#endif
#ifdef PEERS_HAVE_DART
  f.push_back(makeDartLinkages);
#endif
#ifdef PEERS_HAVE_MUJOCO
  f.push_back(makeMujocoLinkages);
#endif
  return f;
}

double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  return worst;
}

// Every run against Articula's first at t = 0. Positions, rates and energy must agree to
// 1e-9 (the same assembled state); constrained accelerations are reported (MuJoCo's soft
// constraint gives other ones by design; DART gives none).
bool checkPhysics(const Linkage& l, const LinkageRuns& runs) {
  std::printf("%s (%s, %zu bodies, %zu loops): state at t = 0, Articula's assembly; E0 = %.12g J by Articula\n",
              l.name.c_str(), l.source.c_str(), l.bodies.size(), l.loops.size(), l.energy0);
  std::printf("  %-9s %-10s %10s %10s %12s %14s  %s\n", "engine", "", "|dq|", "|dv|", "closure_m", "E-E_articula",
              "|dqddot| (constrained)");
  const LinkageRun::Initial ref = runs.front()->initial();
  bool ok = true;
  for (const auto& r : runs) {
    const LinkageRun::Initial i = r->initial();
    const double dq = maxAbsDiff(i.q, ref.q), dv = maxAbsDiff(i.v, ref.v), de = i.energy - ref.energy;
    char acc[48] = "n/a";
    if (!i.qddot.empty()) std::snprintf(acc, sizeof acc, "%.3g", maxAbsDiff(i.qddot, ref.qddot));
    const bool same = dq <= 1e-9 && dv <= 1e-9 && std::abs(de) <= 1e-9 && i.closure <= 1e-9;
    std::printf("  %-9s %-10s %10.2g %10.2g %12.2g %14.2g  %s%s\n", r->engine().c_str(), "", dq, dv, i.closure, de, acc,
                same ? "" : "  *** MISMATCH ***");
    ok = ok && same;
  }
  return ok;
}

}  // namespace

bool runLinkages(bool quick) {
  std::printf("\n10 s runs of closed-loop linkages, each engine with its own integrator\n");
  bool ok = true;
  for (const Linkage& l : linkagesToMeasure()) {
    LinkageRuns runs;
    for (const auto& make : factories()) {
      try {
        for (auto& r : make(l)) runs.push_back(std::move(r));
      } catch (const std::exception& e) {
        std::printf("  cannot build %s in an engine: %s\n", l.name.c_str(), e.what());
      }
    }
    ok = checkPhysics(l, runs) && ok;

    // Checked runs: observe every millisecond (the timed runs below follow the same
    // trajectories; they observe only at the start and the end).
    std::vector<RunFigures> checked;
    for (const auto& r : runs) {
      try {
        checked.push_back(r->run(kEnd, kObserve));
      } catch (const std::exception& e) {
        std::printf("  %s (%s) failed: %s\n", r->engine().c_str(), r->settings().c_str(), e.what());
        checked.push_back({NAN, NAN, NAN, NAN, -1});
      }
    }
    // Timed runs, interleaved: each round runs every setting once, back to back.
    const int rounds = quick ? 1 : 5;
    std::vector<std::vector<double>> seconds(runs.size()), ratios(runs.size());
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t k = 0; k < runs.size(); ++k) {
        double s = NAN;
        if (!std::isnan(checked[k].seconds)) s = runs[k]->run(kEnd, kEnd).seconds;
        seconds[k].push_back(s);
      }
      for (std::size_t k = 0; k < runs.size(); ++k) ratios[k].push_back(seconds[k].back() / seconds[0].back());
    }
    std::printf("  10 s from rest; wall time = median of %d interleaved rounds; ratio = median of the per-round\n"
                "  ratios to the first row; closure = max distance between the ends of a cut joint, drift = max\n"
                "  |E(t) - E(0)|, both observed every 1 ms in a separate untimed run of the same setting\n",
                rounds);
    std::printf("  %-9s %8s %8s %8s %11s %11s  %s\n", "engine", "wall_s", "ratio", "steps", "closure_m", "drift_J",
                "integrator and settings");
    for (std::size_t k = 0; k < runs.size(); ++k)
      std::printf("  %-9s %8.4f %7.1fx %8ld %11.2e %11.2e  %s\n", runs[k]->engine().c_str(), median(seconds[k]),
                  median(ratios[k]), checked[k].steps, checked[k].maxClosure, checked[k].maxEnergyDrift,
                  runs[k]->settings().c_str());
    std::printf("\n");
  }
  return ok;
}

}  // namespace peers
