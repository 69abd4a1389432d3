// Forward dynamics of the chain benchmark in every engine found at build time (Articula and
// its peers), timed in one run so the figures compare on the same machine at the same moment.
// First checks that the engines build the same model (accelerations and energy agree).
// Then 10 s whole runs of the chains and of closed-loop linkages (loop_runs.cpp); with --car or
// --car-only, 8 s runs of the car of models/car.yaml (car_runs.cpp).
// Usage: peers [--csv FILE] [--quick] [--loops-only] [--car | --car-only]
//   exit status 1 when the engines disagree
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "car_runs.hpp"
#include "loop_runs.hpp"
#include "peer.hpp"
#include "stats.hpp"

using namespace peers;

namespace {

using Factory = std::function<std::unique_ptr<PeerChain>(int, bool)>;
struct Engine {
  std::string name;
  Factory make;
};

// The engines compiled in; the first is the reference of the ratio column. A new engine
// adds one line here (and its PEERS_HAVE_ definition in CMakeLists.txt).
std::vector<Engine> engines() {
  std::vector<Engine> e;
#ifdef PEERS_HAVE_ARTICULA
  e.push_back({"articula", makeArticula});
#endif
#ifdef PEERS_HAVE_SIMBODY
  e.push_back({"simbody", makeSimbody});
#endif
#ifdef PEERS_HAVE_DART
  e.push_back({"dart", makeDart});
#endif
#ifdef PEERS_HAVE_MUJOCO
  e.push_back({"mujoco", makeMujoco});
#endif
  return e;
}

// Articula's other formulations, timed in the same rounds as the engines; those that give joint
// accelerations (not HDCA, whose evaluation gives momentum rates) also join the physics check.
std::vector<Engine> articulaFormulations(bool accelerationsOnly) {
  std::vector<Engine> e;
#ifdef PEERS_HAVE_ARTICULA
  for (const char* f : {"semi-recursive", "dca", "hdca"}) {
    if (accelerationsOnly && std::string(f) == "hdca") continue;
    e.push_back({std::string("articula ") + f,
                 [f](int n, bool spatial) { return makeArticulaFormulation(n, spatial, f); }});
  }
#else
  (void)accelerationsOnly;
#endif
  return e;
}

template <class T>
std::vector<T> joined(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const char* modelName(bool spatial) { return spatial ? "spatial" : "planar"; }

// The benchmark state: q1 = 0.3, the other q = 0.1, all rates zero.
void chainState(int n, std::vector<double>& q, std::vector<double>& v) {
  q.assign(static_cast<std::size_t>(n), 0.1);
  q[0] = 0.3;
  v.assign(static_cast<std::size_t>(n), 0.0);
}

// ---------------------------------------------------------------- agreement

struct Results {
  std::vector<std::string> names;
  std::vector<std::vector<double>> acc;
  std::vector<double> energy;
};

Results evaluate(const std::vector<Engine>& list, int n, bool spatial, const std::vector<double>& q,
                 const std::vector<double>& v) {
  Results r;
  for (const auto& e : list) {
    try {
      auto c = e.make(n, spatial);
      std::vector<double> a;
      c->setState(q, v);
      c->forwardDynamics(a);
      r.names.push_back(e.name);
      r.acc.push_back(a);
      r.energy.push_back(c->totalEnergy());
    } catch (const std::exception& ex) {
      std::printf("  %-23s cannot build: %s\n", e.name.c_str(), ex.what());
    }
  }
  return r;
}

// Largest |x_i[k] - x_j[k]| over all engine pairs i < j and components k; names the pair.
double maxPairwise(const Results& r, const std::vector<std::vector<double>>& x, std::string& pair) {
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j)
      for (std::size_t k = 0; k < x[i].size() && k < x[j].size(); ++k) {
        const double d = std::abs(x[i][k] - x[j][k]);
        if (!(d <= worst)) {  // also catches NaN
          worst = d;
          pair = r.names[i] + " vs " + r.names[j];
        }
      }
  return worst;
}

// Prints the verdict line; returns false on a mismatch above tol.
bool verdict(const char* what, double worst, const std::string& pair, double tol) {
  if (pair.empty()) {
    std::printf("  %s: fewer than two engines, nothing to compare\n", what);
    return true;
  }
  const bool ok = worst <= tol;
  std::printf("  %s: max pairwise difference %.3g (%s)  %s\n", what, worst, pair.c_str(),
              ok ? "ok" : "*** MISMATCH ***");
  if (!ok) std::printf("  *** MISMATCH: %s differ by %.3g > %.0e ***\n", pair.c_str(), worst, tol);
  return ok;
}

// The required check: chain2 at q = (0.3, 0.1), v = (0.5, -0.3), to 1e-9.
bool checkChain2(const std::vector<Engine>& list, bool spatial) {
  std::printf("chain2 %s: joint accelerations at q = (0.3, 0.1), v = (0.5, -0.3) [rad/s^2], energy [J]\n",
              modelName(spatial));
  const Results r = evaluate(list, 2, spatial, {0.3, 0.1}, {0.5, -0.3});
  for (std::size_t i = 0; i < r.names.size(); ++i) {
    char energy[40] = " n/a";  // an engine without totalEnergy()
    if (!std::isnan(r.energy[i])) std::snprintf(energy, sizeof energy, "% #.17g", r.energy[i]);
    // '#': keep trailing zeros, so every figure shows 17 significant digits.
    std::printf("  %-23s qdd1 = % #.17g  qdd2 = % #.17g  E = %s\n", r.names[i].c_str(), r.acc[i][0], r.acc[i][1],
                energy);
  }
  std::string pair;
  const double worst = maxPairwise(r, r.acc, pair);
  bool ok = verdict("accelerations", worst, pair, 1e-9);
  // Energy only between the engines that provide it.
  Results withEnergy;
  std::vector<std::vector<double>> e;
  for (std::size_t i = 0; i < r.names.size(); ++i)
    if (!std::isnan(r.energy[i])) {
      withEnergy.names.push_back(r.names[i]);
      e.push_back({r.energy[i]});
    }
  std::string epair;
  const double eworst = maxPairwise(withEnergy, e, epair);
  ok = verdict("energy", eworst, epair, 1e-9) && ok;
  return ok;
}

// An extra check on chain8, whose spatial version also has x-axis joints (chain2 has only
// z and y): state as in the benchmark with rates alternating 0.5, -0.3; tolerance 1e-9
// relative to the largest acceleration.
bool checkChain8(const std::vector<Engine>& list, bool spatial) {
  std::vector<double> q, v;
  chainState(8, q, v);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = k % 2 ? -0.3 : 0.5;
  std::printf("chain8 %s (extra check, rates 0.5, -0.3, 0.5, ...):\n", modelName(spatial));
  const Results r = evaluate(list, 8, spatial, q, v);
  double scale = 1.0;
  for (const auto& a : r.acc)
    for (double x : a) scale = std::max(scale, std::abs(x));
  std::string pair;
  const double worst = maxPairwise(r, r.acc, pair);
  return verdict("accelerations", worst, pair, 1e-9 * scale);
}

// ---------------------------------------------------------------- timing

struct Timing {
  double medianUs = 0, minUs = 0;
  double ratio = 1;  ///< median over rounds of (this engine's batch time / the reference's)
  int callsPerBatch = 0, batches = 0;
};

// One engine's forward dynamics, called the same way for every engine: each call sets a
// state (alternating q1 by 1e-9 so that no engine could reuse a result) and evaluates the
// accelerations; setState is a copy of 2N doubles and so part of every engine's figure alike.
class TimedChain {
 public:
  TimedChain(PeerChain& c, int n) : c_(c) { chainState(n, q_, v_); }
  void call() {
    q_[0] = 0.3 + ((++k_ & 1) ? 1e-9 : 0.0);
    c_.setState(q_, v_);
    c_.forwardDynamics(a_);
  }
  /// Mean time per call over `calls` calls, in microseconds.
  double batchUs(int calls) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) call();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
  }

 private:
  PeerChain& c_;
  std::vector<double> q_, v_, a_;
  long k_ = 0;
};

// Times the engines on one model in interleaved rounds: each round runs one batch of every
// engine back to back, so a slow spell of the machine hits all of them alike. The ratio
// to the reference (engine 0) is the median over rounds of the per-round ratio.
std::vector<Timing> timeInterleaved(std::vector<PeerChain*> chains, int n, bool quick) {
  const double warmSeconds = quick ? 0.02 : 0.1, batchSeconds = quick ? 0.002 : 0.01;
  const int rounds = quick ? 7 : 21;
  std::vector<TimedChain> timed;
  std::vector<Timing> t(chains.size());
  for (auto* c : chains) timed.emplace_back(*c, n);
  for (std::size_t e = 0; e < timed.size(); ++e) {
    // Warm-up (caches, branch predictors, lazy allocations) that also measures the call cost.
    const auto w0 = std::chrono::steady_clock::now();
    long warmCalls = 0;
    while (warmCalls < 10 || std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < warmSeconds) {
      timed[e].call();
      ++warmCalls;
    }
    const double perCall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() / warmCalls;
    t[e].callsPerBatch = std::max(1, static_cast<int>(batchSeconds / perCall));
    t[e].batches = rounds;
  }
  std::vector<std::vector<double>> us(timed.size()), ratios(timed.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t e = 0; e < timed.size(); ++e) us[e].push_back(timed[e].batchUs(t[e].callsPerBatch));
    for (std::size_t e = 0; e < timed.size(); ++e) ratios[e].push_back(us[e].back() / us[0].back());
  }
  for (std::size_t e = 0; e < timed.size(); ++e) {
    t[e].medianUs = median(us[e]);
    t[e].minUs = *std::min_element(us[e].begin(), us[e].end());
    t[e].ratio = median(ratios[e]);
  }
  return t;
}

// ---------------------------------------------------------------- whole runs

// 10 s of the chain from the benchmark state with the classical RK4 at dt = 1e-3, the same
// integrator for every engine (this loop, over each engine's setState + forwardDynamics):
// 10 000 steps, 40 000 evaluations. Returns the wall time and |E(10 s) - E(0)|.
struct WholeRun {
  double seconds = 0, energyDrift = std::nan("");
};

WholeRun rk4TenSeconds(PeerChain& c, int n) {
  std::vector<double> q, v;
  chainState(n, q, v);
  const double dt = 1e-3;
  const int steps = 10000;
  const std::size_t nv = q.size();
  std::vector<double> k1q(nv), k1v(nv), k2q(nv), k2v(nv), k3q(nv), k3v(nv), k4q(nv), k4v(nv), qs(nv), vs(nv);
  auto f = [&](const std::vector<double>& x, const std::vector<double>& xd, std::vector<double>& dq,
               std::vector<double>& dv) {
    c.setState(x, xd);
    c.forwardDynamics(dv);
    dq = xd;
  };
  auto stage = [&](const std::vector<double>& dq, const std::vector<double>& dv, double h) {
    for (std::size_t i = 0; i < nv; ++i) {
      qs[i] = q[i] + h * dq[i];
      vs[i] = v[i] + h * dv[i];
    }
  };
  c.setState(q, v);
  const double e0 = c.totalEnergy();
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    f(q, v, k1q, k1v);
    stage(k1q, k1v, 0.5 * dt);
    f(qs, vs, k2q, k2v);
    stage(k2q, k2v, 0.5 * dt);
    f(qs, vs, k3q, k3v);
    stage(k3q, k3v, dt);
    f(qs, vs, k4q, k4v);
    for (std::size_t i = 0; i < nv; ++i) {
      q[i] += dt / 6.0 * (k1q[i] + 2.0 * k2q[i] + 2.0 * k3q[i] + k4q[i]);
      v[i] += dt / 6.0 * (k1v[i] + 2.0 * k2v[i] + 2.0 * k3v[i] + k4v[i]);
    }
  }
  WholeRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.setState(q, v);
  r.energyDrift = std::abs(c.totalEnergy() - e0);
  return r;
}

// Three interleaved rounds per model; the median wall time of each engine.
void wholeRuns(const std::vector<Engine>& list, bool quick) {
  std::printf("\n10 s with RK4 at dt = 1e-3 (one shared RK4 loop over each engine's forward dynamics;\n"
              "median of %d interleaved rounds; energy drift |E(10) - E(0)| in J):\n",
              quick ? 1 : 3);
  std::printf("%-9s %-8s %5s %12s %10s %12s\n", "engine", "model", "N", "wall_s", "vs_first", "drift_J");
  for (bool spatial : {false, true})
    for (int n : {8, 32}) {
      std::vector<std::unique_ptr<PeerChain>> chains;
      for (const auto& e : list) chains.push_back(e.make(n, spatial));  // these sizes build in every engine
      std::vector<std::vector<double>> seconds(chains.size());
      std::vector<double> drift(chains.size());
      for (int round = 0; round < (quick ? 1 : 3); ++round)
        for (std::size_t e = 0; e < chains.size(); ++e) {
          const WholeRun r = rk4TenSeconds(*chains[e], n);
          seconds[e].push_back(r.seconds);
          drift[e] = r.energyDrift;
        }
      const double reference = median(seconds[0]);
      for (std::size_t e = 0; e < chains.size(); ++e)
        std::printf("%-9s %-8s %5d %12.3f %9.2fx %12.3g\n", list[e].name.c_str(), modelName(spatial), n,
                    median(seconds[e]), median(seconds[e]) / reference, drift[e]);
      // The engines' own RK4 where they have one (same method, so the same energy drift up
      // to the chaos of the chain).
      std::vector<double> own(chains.size(), std::nan(""));
      for (int round = 0; round < (quick ? 1 : 3); ++round)
        for (std::size_t e = 0; e < chains.size(); ++e) {
          std::vector<double> q, v;
          chainState(n, q, v);
          const auto t0 = std::chrono::steady_clock::now();
          if (!chains[e]->ownRk4(10000, 1e-3, q, v)) continue;
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          if (!(s >= own[e])) own[e] = s;  // the fastest round
        }
      for (std::size_t e = 0; e < chains.size(); ++e)
        if (!std::isnan(own[e]))
          std::printf("%-9s %-8s %5d %12.3f %9.2fx   (own RK4, fastest round)\n", list[e].name.c_str(),
                      modelName(spatial), n, own[e], own[e] / own[0]);
    }
}

// The chain part: the physics check, one forward-dynamics evaluation per engine and N, the
// 10 s runs. Returns 0, 1 when the engines disagree, 2 when the CSV cannot be written.
int runChains(const std::vector<Engine>& list, bool quick, const std::string& csvPath) {
  const std::vector<Engine> timed = joined(list, articulaFormulations(false));
  std::printf("engines and what is timed:\n");
  for (const auto& e : timed) std::printf("  %-23s %s\n", e.name.c_str(), e.make(2, false)->timedCalls().c_str());
  std::printf("\n");

  // 1. The engines build the same physics.
  bool agree = true;
  const std::vector<Engine> checked = joined(list, articulaFormulations(true));
  for (bool spatial : {false, true}) agree = checkChain2(checked, spatial) && agree;
  for (bool spatial : {false, true}) agree = checkChain8(checked, spatial) && agree;
  std::printf("%s\n\n", agree ? "all engines agree" : "*** ENGINES DISAGREE: see MISMATCH above ***");

  // 2. Timings.
  const std::string ref = list.front().name;
  std::ofstream csv;
  if (!csvPath.empty()) {
    csv.open(csvPath);
    if (!csv) {
      std::fprintf(stderr, "peers: cannot write %s\n", csvPath.c_str());
      return 2;
    }
    csv << "engine,model,n,median_us,min_us,calls_per_batch,batches,ratio_to_" << ref << ",note\n";
    csv.precision(6);
  }
  std::printf("%-23s %-8s %5s %12s %12s %14s %10s\n", "engine", "model", "N", "median_us", "min_us", "calls x batch",
              ("vs_" + ref).c_str());
  for (bool spatial : {false, true})
    for (int n : {2, 8, 32, 128, 512}) {
      std::vector<std::unique_ptr<PeerChain>> built;
      std::vector<PeerChain*> chains;
      std::vector<std::string> names;
      for (const auto& e : timed) {
        try {
          built.push_back(e.make(n, spatial));
          chains.push_back(built.back().get());
          names.push_back(e.name);
        } catch (const std::exception& ex) {
          std::printf("%-23s %-8s %5d %12s   cannot build: %.60s\n", e.name.c_str(), modelName(spatial), n, "n/a",
                      ex.what());
          if (csv) csv << e.name << ',' << modelName(spatial) << ',' << n << ",,,,,,cannot build\n";
        }
      }
      if (chains.empty() || names.front() != ref) continue;  // no reference, no ratios
      const std::vector<Timing> times = timeInterleaved(chains, n, quick);
      for (std::size_t e = 0; e < chains.size(); ++e) {
        const Timing& t = times[e];
        std::printf("%-23s %-8s %5d %12.3f %12.3f %7d x %-4d %9.2fx\n", names[e].c_str(), modelName(spatial), n,
                    t.medianUs, t.minUs, t.callsPerBatch, t.batches, t.ratio);
        if (csv)
          csv << names[e] << ',' << modelName(spatial) << ',' << n << ',' << t.medianUs << ',' << t.minUs << ','
              << t.callsPerBatch << ',' << t.batches << ',' << t.ratio << ",\n";
      }
    }
  wholeRuns(list, quick);
  return agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string csvPath;
  bool quick = false, loopsOnly = false, car = false, carOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
      csvPath = argv[++i];
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!std::strcmp(argv[i], "--loops-only")) {
      loopsOnly = true;
    } else if (!std::strcmp(argv[i], "--car")) {
      car = true;
    } else if (!std::strcmp(argv[i], "--car-only")) {
      car = carOnly = true;
    } else {
      std::fprintf(stderr, "usage: peers [--csv FILE] [--quick] [--loops-only] [--car | --car-only]\n");
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const auto list = engines();
  if (list.empty()) {
    std::fprintf(stderr, "peers: no engine was found at build time\n");
    return 2;
  }
  const int chains = loopsOnly || carOnly ? 0 : runChains(list, quick, csvPath);
  if (chains == 2) return 2;
  bool agree = chains == 0;
#ifdef PEERS_HAVE_ARTICULA
  // 3. Closed loops (the linkages are read and assembled by Articula).
  if (!carOnly) agree = runLinkages(quick) && agree;
  // 4. The car (read and assembled by Articula; every engine calls Articula's tyre element).
  if (car) agree = runCar(quick) && agree;
#else
  std::printf("\nclosed-loop linkages skipped: they need Articula (PEERS_WITH_ARTICULA)\n");
  if (car) std::printf("the car skipped: it needs Articula (PEERS_WITH_ARTICULA)\n");
#endif
  return agree ? 0 : 1;
}
