// The distributed formulation across the ranks of mpirun -np N (tests/mpi/mpirun.sh; run with N = 2
// and N = 4): on every rank, the accelerations and whole runs equal the same formulation in one
// process bit for bit (the same arithmetic in the same order, docs/distributed.md), and ABA's
// accelerations to the in-process tests' tolerance; more ranks than subsystems is refused with
// both counts named. Exit status 0 when every check holds on every rank.
//
// Models: a 64-body spatial chain in 2, 4 and 8 subsystems (1e-9 relative to ABA on the states of
// tests/simulation/test_distributed.cpp: cond(M) ~ 1e8 on this chain, measured 1.7e-10), and
// on 2 ranks seed 003's four bars in its two subsystems (1 s of heun at dt = 0.01 s; the loop stays
// closed to 1e-12 m, the bound of tests/simulation/test_distributed_seed003.cpp).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "articula/core/error.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/communicator.hpp"
#include "articula/simulate/simulation.hpp"
#include "distributed_support.hpp"
#include "recorder.hpp"

using namespace articula;

namespace {

int failures = 0;
int rank = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  std::cerr << "rank " << rank << ": " << what << "\n";
  ++failures;
}

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

std::string label(const std::string& model, int subsystems) {
  return model + " in " + std::to_string(subsystems) + " subsystems";
}

// Accelerations at the two random states of tests/simulation/test_distributed.cpp (spread 0.8,
// seeds 1 and 2): across the ranks, in one process, and by ABA. On those states this chain's
// distributed accelerations are within 1.7e-10 of ABA's (measured); other states reach 1e-9,
// where ABA and the reference formulation themselves differ by up to 7e-10 (cond(M) ~ 1e8).
void checkAccelerations(const Model& model, const std::string& name, int subsystems, const parallel::Communicator& world) {
  FormulationOptions o;
  o.subsystems = subsystems;
  DistributedFormulation alone(model, o);
  o.communicator = &world;
  DistributedFormulation ranks(model, o);
  Eigen::VectorXd q, v, a(model.nv), b(model.nv);
  for (unsigned seed = 1; seed <= 2; ++seed) {
    test_models::randomState(model, seed, 0.8, q, v);
    ranks.accelerations(0.1 * seed, q, v, a);
    alone.accelerations(0.1 * seed, q, v, b);
    check(sameBits(a, b), label(name, subsystems) + ": accelerations differ from one process by " +
                              scientific((a - b).cwiseAbs().maxCoeff()) + " (seed " + std::to_string(seed) + ")");
    const double aba = test_models::relativeDifference(a, test_models::accelerationsOf("aba", model, q, v, 0.1 * seed));
    check(aba <= 1e-9, label(name, subsystems) + ": ABA's accelerations differ by " + scientific(aba) + " relative (seed " +
                           std::to_string(seed) + ")");
  }
}

// A whole run (simulate(): integrator, projection, sampling) across the ranks and in one process.
test_models::Recorder run(const Model& model, SimulationOptions o, const parallel::Communicator* world) {
  o.communicator = world;
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, o, {&rec});
  check(r.ok, "run failed: " + r.error);
  return rec;
}

void checkRun(const Model& model, const std::string& name, const SimulationOptions& o, const parallel::Communicator& world) {
  const test_models::Recorder a = run(model, o, &world), b = run(model, o, nullptr);
  check(a.q.size() == b.q.size() && !a.q.empty(), label(name, o.subsystems) + ": the runs have different sample counts");
  for (std::size_t k = 0; k < std::min(a.q.size(), b.q.size()); ++k)
    if (!sameBits(a.q[k], b.q[k]) || !sameBits(a.v[k], b.v[k])) {
      check(false, label(name, o.subsystems) + ": sample " + std::to_string(k) + " differs from the run in one process");
      break;
    }
  if (model.hasConstraints())
    check(*std::max_element(a.positionError.begin(), a.positionError.end()) <= 1e-12,
          label(name, o.subsystems) + ": the loop opened beyond 1e-12");
}

void checkRefused(const Model& model, int subsystems, int ranks, const parallel::Communicator& world) {
  FormulationOptions o;
  o.subsystems = subsystems;
  o.communicator = &world;
  std::string message;
  try {
    DistributedFormulation f(model, o);
  } catch (const Error& e) {
    message = e.what();
  }
  check(message.find(std::to_string(ranks) + " MPI ranks but only " + std::to_string(subsystems) + " subsystems") !=
            std::string::npos,
        "more ranks than subsystems: got '" + message + "'");
}

}  // namespace

int main() {
  const parallel::Communicator world;
  rank = world.rank();
  const int size = world.size();
  if (size < 2) {
    std::cerr << "run on 2 or more ranks (size " << size << ")\n";
    return 1;
  }
  try {
    const Model chain = makeChain(64, true);
    for (int subsystems : {2, 4, 8}) {
      if (subsystems < size) {
        checkRefused(chain, subsystems, size, world);
        continue;
      }
      checkAccelerations(chain, "64-body spatial chain", subsystems, world);
      SimulationOptions o;
      o.formulation = "distributed";
      o.subsystems = subsystems;
      o.integrator = "rk4";
      o.integratorOptions.dt = 1e-3;
      o.tEnd = 0.02;
      o.outputInterval = 5e-3;
      checkRun(chain, "64-body spatial chain", o, world);
    }
    const Model fourBars = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/seed003_four_bars.yaml");
    if (size == 2) {
      SimulationOptions o;
      o.formulation = "distributed";
      o.integrator = "heun";
      o.integratorOptions.dt = 0.01;
      o.tEnd = 1.0;
      o.outputInterval = 0.01;
      o.stopAtSingularities = false;
      checkRun(fourBars, "seed 003's four bars", o, world);
    } else {
      checkRefused(fourBars, 2, size, world);
    }
  } catch (const std::exception& e) {
    check(false, std::string("unexpected error: ") + e.what());
  }
  world.barrier();
  if (failures == 0 && rank == 0) std::cout << "distributed formulation: every check passed on " << size << " ranks\n";
  return failures == 0 ? 0 : 1;
}
