// Where an evaluation of the distributed formulation spends its time, phase by phase
// (DistributedFormulation::profile), on the spatial chain of BODIES bodies split into N = 1, 2, 4,
// ..., BODIES subsystems, next to ABA's whole evaluation: the measured inputs of the cost model
// bench/distributed_model.py (docs/distributed.md, "Projection"). Process CPU time (the machine is
// shared: wall time would count the other users), medians of REPEAT rounds of EVALS evaluations,
// milliseconds per evaluation; `total` is timed without the phase marks (their clock reads). Under mpirun -np P the formulation runs across
// the P ranks (N >= P) and rank 0 prints its own phases (up/down then include the waits).
// With ONLY, only that subsystem count (for callgrind: valgrind --tool=callgrind
// build/bin/distributed_phases 1024 20 1 8 counts ABA's and the formulation's instructions).
// Run: build/bin/distributed_phases [BODIES [EVALS [REPEAT [ONLY]]]]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "articula/dynamics/distributed.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/communicator.hpp"

using namespace articula;

namespace {

double median(std::vector<double> x) {
  std::nth_element(x.begin(), x.begin() + static_cast<long>(x.size() / 2), x.end());
  return x[x.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const parallel::Communicator world;
  const int bodies = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int evals = argc > 2 ? std::atoi(argv[2]) : 200;
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 5;
  const int only = argc > 4 ? std::atoi(argv[4]) : 0;
  const bool root = world.rank() == 0;
  const Model model = makeChain(bodies, true);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.1);
  Eigen::VectorXd vdot(model.nv);
  auto cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  {
    Workspace ws(model);
    std::vector<double> rounds;
    for (int r = 0; r < repeat; ++r) {
      const double start = cpu();
      for (int e = 0; e < evals; ++e) {
        evaluateForceElements(model, ws, 0.0, model.q0, v);
        spatialForwardDynamics(model, ws, model.q0, v, ws.tau, &ws.fext, vdot);
      }
      rounds.push_back((cpu() - start) / evals * 1e3);
    }
    if (root) std::printf("# %d-body spatial chain, %d ranks; ms per evaluation\naba %.5f\n", bodies, world.size(), median(rounds));
  }
  if (root) std::printf("# subsystems total firstPass leaves linkRows up down expand gather\n");
  for (int n = std::max(1, world.size()); n <= bodies; n *= 2) {
    if (only > 0 && n != only) continue;
    FormulationOptions o;
    o.subsystems = n;
    o.communicator = &world;
    DistributedFormulation f(model, o);
    f.accelerations(0.0, model.q0, v, vdot);  // warm-up
    std::vector<std::vector<double>> phase(8);
    const int count = std::max(10, evals * 8 / std::max(8, n / 8));  // fewer evaluations of the slow many-subsystem runs
    for (int r = 0; r < repeat; ++r) {
      world.barrier();
      const double start = cpu();
      for (int e = 0; e < count; ++e) f.accelerations(0.0, model.q0, v, vdot);
      const double total = cpu() - start;
      world.barrier();
      f.profile(true);
      for (int e = 0; e < count; ++e) f.accelerations(0.0, model.q0, v, vdot);
      const DistributedPhases& p = f.phases();
      const double values[8] = {total, p.firstPass, p.leaves, p.linkRows, p.up, p.down, p.expand, p.gather};
      for (int k = 0; k < 8; ++k) phase[static_cast<std::size_t>(k)].push_back(values[k] / count * 1e3);
      f.profile(false);
    }
    if (!root) continue;
    std::printf("%d", n);
    for (const auto& p : phase) std::printf(" %.5f", median(p));
    std::printf("\n");
  }
  return 0;
}
