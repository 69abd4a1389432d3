// Forward dynamics of the chain benchmark in Articula and in the peers found at build
// time, timed in one run so the figures are ratios on the same machine at the same moment.
// Usage: peers [--csv FILE] [--quick]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>

#include "peer.hpp"

using namespace peers;

namespace {

using Factory = std::function<std::unique_ptr<PeerChain>(int, bool)>;

std::vector<std::pair<std::string, Factory>> engines() {
  std::vector<std::pair<std::string, Factory>> e{{"articula", makeArticula}};
#ifdef PEERS_HAVE_SIMBODY
  e.emplace_back("simbody", makeSimbody);
#endif
#ifdef PEERS_HAVE_DART
  e.emplace_back("dart", makeDart);
#endif
#ifdef PEERS_HAVE_MUJOCO
  e.emplace_back("mujoco", makeMujoco);
#endif
  return e;
}

void chainState(int n, std::vector<double>& q, std::vector<double>& v) {
  q.assign(static_cast<std::size_t>(n), 0.1);
  q[0] = 0.3;
  v.assign(static_cast<std::size_t>(n), 0.0);
}

// Median over batches of the time per call, in microseconds. Each call sets the state
// (so engines with caches recompute) and evaluates the accelerations.
double medianMicroseconds(PeerChain& c, int n, bool quick) {
  std::vector<double> q, v, a;
  chainState(n, q, v);
  const int perBatch = std::max(1, 20000 / n), batches = quick ? 5 : 15;
  for (int k = 0; k < perBatch; ++k) {  // warm-up
    c.setState(q, v);
    c.forwardDynamics(a);
  }
  std::vector<double> us;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < perBatch; ++k) {
      q[0] = 0.3 + 1e-9 * k;  // a new state each call
      c.setState(q, v);
      c.forwardDynamics(a);
    }
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / perBatch);
  }
  std::nth_element(us.begin(), us.begin() + static_cast<long>(us.size() / 2), us.end());
  return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string csvPath;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csvPath = argv[++i];
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
    else {
      std::fprintf(stderr, "usage: peers [--csv FILE] [--quick]\n");
      return 2;
    }
  }
  const auto list = engines();
  std::printf("engines:");
  for (const auto& [name, make] : list) std::printf(" %s (%s)", name.c_str(), make(2, false)->timedCalls().c_str());
  std::printf("\n\n");
  std::setvbuf(stdout, nullptr, _IOLBF, 0);

  // 1. The physics agrees: chain2 accelerations at q = (0.3, 0.1), v = (0.5, -0.3).
  bool agree = true;
  for (bool spatial : {false, true}) {
    std::printf("chain2 %s accelerations at q = (0.3, 0.1), v = (0.5, -0.3):\n", spatial ? "spatial" : "planar");
    std::vector<std::vector<double>> acc;
    for (const auto& [name, make] : list) {
      auto c = make(2, spatial);
      std::vector<double> a;
      c->setState({0.3, 0.1}, {0.5, -0.3});
      c->forwardDynamics(a);
      std::printf("  %-9s % .17g % .17g\n", name.c_str(), a[0], a[1]);
      acc.push_back(a);
    }
    double worst = 0.0;
    for (const auto& a : acc)
      for (std::size_t k = 0; k < 2; ++k) worst = std::max(worst, std::abs(a[k] - acc[0][k]));
    std::printf("  max difference from articula: %.3g %s\n", worst, worst > 1e-9 ? "MISMATCH (> 1e-9)" : "(agree to 1e-9)");
    agree = agree && worst <= 1e-9;
  }

  // 2. Timings.
  std::printf("\n%-9s %-8s %5s %12s %14s\n", "engine", "model", "N", "median_us", "vs_articula");
  std::ofstream csv;
  if (!csvPath.empty()) {
    csv.open(csvPath);
    csv << "engine,model,n,median_us,ratio_to_articula\n";
  }
  for (bool spatial : {false, true})
    for (int n : {2, 8, 32, 128, 512}) {
      double reference = 0.0;
      for (const auto& [name, make] : list) {
        std::unique_ptr<PeerChain> c;
        try {
          c = make(n, spatial);
        } catch (const std::exception& e) {  // e.g. MuJoCo's XML parser limits nesting depth
          std::printf("%-9s %-8s %5d %12s   cannot build: %.60s\n", name.c_str(), spatial ? "spatial" : "chain", n, "n/a", e.what());
          continue;
        }
        const double us = medianMicroseconds(*c, n, quick);
        if (name == "articula") reference = us;
        const char* model = spatial ? "spatial" : "chain";
        std::printf("%-9s %-8s %5d %12.3f %13.2fx\n", name.c_str(), model, n, us, us / reference);
        if (csv) csv << name << ',' << model << ',' << n << ',' << us << ',' << us / reference << '\n';
      }
    }
  return agree ? 0 : 1;
}
