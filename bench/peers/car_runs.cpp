// The car part of the peers program (`peers --car`): models/car.yaml, 8 s over the ramp and stairs,
// in Articula and its peers (car.hpp; every engine calls Articula's tyre element). First the physics
// check at t = 0 (the same body poses and velocities, loop closure, energy, tyre loads, and the
// constrained accelerations of every body), then whole runs of every setting in interleaved
// rounds, each scored by seed 001 eq. (43) against the seed's reference (hybrid + trapezoidal at
// 1e-3 s), and a Markdown table for docs/benchmarks.md.
#include "car_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "car.hpp"
#include "stats.hpp"

namespace peers {

namespace car_runs {  // named: a unity build puts this file next to loop_runs.cpp

constexpr double kEnd = 8.0, kSample = 0.01;  // seed 001 section 4; eq. (43) samples every 0.01 s
constexpr double kAcceptable = 5e-3;          // seed 001 section 5: acceptable executions

// The engines compiled in; Articula first, the reference of the ratio column.
std::vector<std::function<CarRuns(const Car&)>> factories() {
  std::vector<std::function<CarRuns(const Car&)>> f;
  f.push_back(makeArticulaCarRuns);  // this part needs Articula (car_runs.cpp is built with it)
#ifdef PEERS_HAVE_SIMBODY
  f.push_back(makeSimbodyCarRuns);
#endif
#ifdef PEERS_HAVE_MUJOCO
  f.push_back(makeMujocoCarRuns);
#endif
#ifdef PEERS_HAVE_DART
  f.push_back(makeDartCarRuns);
#endif
  return f;
}

std::string loadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string s;
  std::getline(f, s);
  return s.empty() ? "unknown" : s;
}

// The differences of one engine's initial state from Articula's.
struct Differences {
  double position = 0, rotation = 0, velocity = 0, closure = 0, energy = 0, tyreLoad = 0, acceleration = NAN;
  bool softConstraints = false;
};

Differences compare(const Car& car, const CarRun::Initial& i, const CarRun::Initial& ref) {
  Differences d;
  for (std::size_t b = 0; b < ref.poses.size(); ++b) {
    const CarPose &p = i.poses[b], &r = ref.poses[b];
    d.position = std::max(d.position, carDistance(p.origin, r.origin));
    for (std::size_t k = 0; k < 9; ++k) d.rotation = std::max(d.rotation, std::abs(p.rotation[k] - r.rotation[k]));
    d.velocity = std::max({d.velocity, carDistance(p.omega, r.omega), carDistance(p.velocity, r.velocity)});
  }
  d.closure = carClosure(car, i.poses);
  d.softConstraints = i.softConstraints;
  d.energy = i.energy - ref.energy;
  for (std::size_t k = 0; k < ref.tyreLoads.size(); ++k) d.tyreLoad = std::max(d.tyreLoad, std::abs(i.tyreLoads[k] - ref.tyreLoads[k]));
  if (!i.accelerations.empty()) {
    d.acceleration = 0;
    for (std::size_t b = 0; b < ref.accelerations.size(); ++b)
      for (std::size_t k = 0; k < 6; ++k)
        d.acceleration = std::max(d.acceleration, std::abs(i.accelerations[b][k] - ref.accelerations[b][k]));
  }
  return d;
}

// Every run's initial state against Articula's first. Tolerances:
//  - poses, velocities, loop closure 1e-9 (m, m/s, rad/s): the same assembled state, fitted;
//  - energy 1e-9 relative: the same state and the same energy terms (kinetic, gravity, springs,
//    tyres' radial springs), summed in another order;
//  - tyre loads 1e-9 relative: the same code (Articula's tyre element) on the same wheel state;
//  - constrained accelerations of every body (angular and of its origin, world) 1e-9 relative to
//    the largest, as the chain check: both engines solve the same linear equations directly
//    (Simbody by its O(n) operators and a constraint solve, Articula's reference formulation by a
//    dense one), so they differ by round-off amplified by the conditioning of the constrained
//    mass matrix (2 kg links against a 1100 kg chassis): 8e-13 relative measured on 2026-11-26,
//    a margin of 1000 that still catches a wrong force, inertia, frame or sign. Not for an engine
//    with soft constraints (MuJoCo): its constraint forces are those of a stiff spring-damper
//    regularised by solimp, not the exact ones, so its accelerations are printed, not checked.
bool checkPhysics(const Car& car, const CarRuns& runs) {
  const CarRun::Initial ref = runs.front()->initial();
  double accScale = 0, fzScale = 0;
  for (const auto& a : ref.accelerations)
    for (double x : a) accScale = std::max(accScale, std::abs(x));
  for (double f : ref.tyreLoads) fzScale = std::max(fzScale, std::abs(f));
  std::printf("car (%s, %zu bodies, %zu loops, %zu locked coordinate, %zu spring-dampers, %zu tyres): state at t = 0,\n"
              "Articula's assembly; E0 = %.12g J, tyre loads", car.source.c_str(), car.bodies.size(), car.loops.size(),
              car.locks.size(), car.springs.size(), car.tyreBodies.size(), ref.energy);
  for (double f : ref.tyreLoads) std::printf(" %.6g", f);
  std::printf(" N, constrained accelerations up to %.4g (rad/s^2, m/s^2) by Articula\n", accScale);
  std::printf("  every engine uses Articula's tyre code (articula::tyreResponse): Simbody calls it from a Force::Custom,\n"
              "  MuJoCo from its passive-force callback, DART as external forces before each step\n");
  std::printf("  differences from row 1 (max over bodies; accelerations: every body's angular and origin acceleration)\n");
  std::printf("  %3s %-9s %9s %9s %9s %10s %11s %9s %10s  %s\n", "row", "engine", "|dpos|_m", "|dR|", "|dvel|", "closure_m",
              "E-E_art_J", "|dFz|_N", "|dacc|", "settings");
  bool ok = true;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Differences d = compare(car, runs[k]->initial(), ref);
    const bool same = d.position <= 1e-9 && d.rotation <= 1e-9 && d.velocity <= 1e-9 && d.closure <= 1e-9 &&
                      std::abs(d.energy) <= 1e-9 * std::abs(ref.energy) && d.tyreLoad <= 1e-9 * fzScale &&
                      (d.softConstraints || !(d.acceleration > 1e-9 * accScale));  // NaN: the engine gives none
    std::printf("  %3zu %-9s %9.2g %9.2g %9.2g %10.2g %11.2g %9.2g %10.2g%s  %s%s\n", k + 1, runs[k]->engine().c_str(),
                d.position, d.rotation, d.velocity, d.closure, d.energy, d.tyreLoad, d.acceleration,
                d.softConstraints ? " (soft, unchecked)" : "", runs[k]->settings().c_str(), same ? "" : "  *** MISMATCH ***");
    ok = ok && same;
  }
  std::printf("  tolerances: poses, velocities, closure 1e-9; energy and tyre loads 1e-9 relative; accelerations\n"
              "  1e-9 relative to the largest (%.3g)  =>  %s\n\n",
              1e-9 * accScale, ok ? "the engines agree" : "*** ENGINES DISAGREE ***");
  return ok;
}

struct Row {
  CarFigures first;  ///< the figures of the first round (the runs are deterministic)
  double error = NAN;
  std::vector<double> cpu, wall;
  std::string failure;
  bool acceptable() const { return failure.empty() && error < kAcceptable; }
};

// The fastest acceptable row of an engine (by median CPU time), or npos.
std::size_t fastest(const CarRuns& runs, const std::vector<Row>& rows, const std::string& engine) {
  std::size_t best = std::string::npos;
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (runs[k]->engine() == engine && rows[k].acceptable() &&
        (best == std::string::npos || median(rows[k].cpu) < median(rows[best].cpu)))
      best = k;
  return best;
}

bool run(bool quick) {
  std::printf("\nThe car of models/car.yaml, %g s over the ramp and stairs, each engine with its own integrator\n", kEnd);
  std::printf("load average at the start: %s\n", loadAverage().c_str());
  const Car car = carToMeasure();
  CarRuns runs;
  for (const auto& make : factories()) {
    try {
      for (auto& r : make(car)) runs.push_back(std::move(r));
    } catch (const std::exception& e) {
      std::printf("  cannot build the car in an engine: %s\n", e.what());
    }
  }
  if (runs.empty() || runs.front()->engine() != "articula") {
    std::printf("  car skipped: Articula, the reference, could not build it\n");
    return false;
  }
  const bool ok = checkPhysics(car, runs);

  const std::unique_ptr<CarReference> reference = makeCarReference(kEnd, kSample);
  std::printf("seed 001 eq. (43) reference: %s (%.2f s wall); acceptable below %g\n", reference->settings().c_str(),
              reference->seconds(), kAcceptable);

  // Whole runs in interleaved rounds: each round runs every setting once, back to back.
  const int rounds = quick ? 1 : 3;
  std::vector<Row> rows(runs.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (!rows[k].failure.empty()) continue;
      try {
        const CarFigures f = runs[k]->run(kEnd, kSample);
        if (round == 0) {
          rows[k].first = f;
          rows[k].error = reference->error(f.heights);  // seed 001 eq. (43)
        }
        rows[k].cpu.push_back(f.cpuSeconds);
        rows[k].wall.push_back(f.wallSeconds);
      } catch (const std::exception& e) {
        rows[k].failure = e.what();
      }
    }
  const std::size_t bestArticula = fastest(runs, rows, "articula");
  auto ratio = [&](std::size_t k) -> double {  // median over the rounds of the per-round CPU-time ratio
    if (bestArticula == std::string::npos || !rows[k].failure.empty()) return NAN;
    std::vector<double> r;
    for (std::size_t i = 0; i < rows[k].cpu.size(); ++i) r.push_back(rows[k].cpu[i] / rows[bestArticula].cpu[i]);
    return median(r);
  };

  std::printf("\n%g s from the assembled initial state; CPU and wall time of the whole run (sampling the three points\n"
              "and the loop closure every %g s included), median of %d interleaved round%s; error = seed 001 eq. (43)\n"
              "(x 1e-3; chassis front, front-left and rear-right wheel centres every 0.01 s) against the reference above;\n"
              "closure = max over the samples of the loop-closure error (ball: gap, tie rod: length error); ratio = median\n"
              "of the per-round CPU-time ratios to Articula's fastest acceptable row. Load average at the end: %s\n\n",
              kEnd, kSample, rounds, rounds == 1 ? "" : "s", loadAverage().c_str());
  std::printf("| engine | integrator and settings | steps | error (x 1e-3) | max closure (m) | CPU time (s) | wall time (s) "
              "| real time / CPU time | CPU time / Articula's best |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Row& r = rows[k];
    if (!r.failure.empty()) {
      std::printf("| %s | %s | failed: %s | | | | | | |\n", runs[k]->engine().c_str(), runs[k]->settings().c_str(),
                  r.failure.c_str());
      continue;
    }
    const double cpu = median(r.cpu);
    std::printf("| %s | %s | %ld | %.3g%s | %.1e | %.3f | %.3f | %.0f | %.2f%s |\n", runs[k]->engine().c_str(),
                runs[k]->settings().c_str(), r.first.steps, r.error * 1e3, r.acceptable() ? "" : " (not acceptable)",
                r.first.maxClosure, cpu, median(r.wall), kEnd / cpu, ratio(k), k == bestArticula ? " (reference)" : "");
  }
  std::printf("\n");
  std::vector<std::string> engines;  // those compiled in, in the order of the table
  for (const auto& r : runs)
    if (std::find(engines.begin(), engines.end(), r->engine()) == engines.end()) engines.push_back(r->engine());
  for (const std::string& engine : engines) {
    const std::size_t b = fastest(runs, rows, engine);
    if (b == std::string::npos) {
      std::printf("%s: no acceptable setting (error below %g)\n", engine.c_str(), kAcceptable);
      continue;
    }
    std::printf("%s: fastest acceptable setting: %s, error %.3g, CPU %.3f s (%.0fx real time), %.2fx Articula's best\n",
                engine.c_str(), runs[b]->settings().c_str(), rows[b].error, median(rows[b].cpu), kEnd / median(rows[b].cpu),
                ratio(b));
  }
  return ok;
}

}  // namespace car_runs

bool runCar(bool quick) { return car_runs::run(quick); }

}  // namespace peers
