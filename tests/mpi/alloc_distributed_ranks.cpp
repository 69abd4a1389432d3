// The distributed formulation's evaluation across MPI ranks allocates nothing (tests/mpi/mpirun.sh
// 2): every heap allocation of the process is counted (tests/alloc/counting_allocator.hpp) during
// 100 evaluations after a warm-up of 20, on each rank, for the 64-body spatial chain in 8
// subsystems (messages between the ranks, the gather) and seed 003's four bars in two (a loop
// between the ranks). Exit status 0 when no rank's own code (Articula, Eigen, the standard
// library through operator new) allocated.
//
// Open MPI's own allocations, made from its shared libraries, are counted apart and only
// reported: it grows its free lists of message fragments in chunks when a message arrives before
// its receive is posted, which depends on the timing of the ranks (measured 0 or 1 in 100
// evaluations here, at a different evaluation on each rank and run).
#include <iostream>
#include <string>
#include <utility>

#include "articula/dynamics/distributed.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/communicator.hpp"

#include "counting_allocator.hpp"

using namespace articula;

namespace {

// Allocations by this executable's code and by all code during 100 evaluations.
std::pair<long, long> allocationsDuring(const Model& model, int subsystems, const parallel::Communicator& world) {
  FormulationOptions o;
  o.subsystems = subsystems;
  o.communicator = &world;
  DistributedFormulation f(model, o);
  Eigen::VectorXd vdot(model.nv);
  for (int k = 0; k < 20; ++k) f.accelerations(0.0, model.q0, model.v0, vdot);  // warm-up
  world.barrier();
  const long before = executableAllocations.load(), beforeAll = allocations.load();
  for (int k = 0; k < 100; ++k) f.accelerations(0.01 * k, model.q0, model.v0, vdot);
  return {executableAllocations.load() - before, allocations.load() - beforeAll};
}

}  // namespace

int main() {
  const parallel::Communicator world;
  int failures = 0;
  const std::pair<std::string, std::pair<long, long>> counts[] = {
      {"64-body spatial chain in 8 subsystems", allocationsDuring(makeChain(64, true), 8, world)},
      {"seed 003's four bars in 2 subsystems",
       allocationsDuring(loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/seed003_four_bars.yaml"), 2, world)}};
  for (const auto& [what, count] : counts) {
    if (count.first != 0) {
      std::cerr << "rank " << world.rank() << ": " << what << ": " << count.first << " allocations in 100 evaluations\n";
      ++failures;
    }
    if (count.second != count.first)
      std::cout << "rank " << world.rank() << ": " << what << ": " << count.second - count.first
                << " allocations by Open MPI in 100 evaluations\n";
  }
  world.barrier();
  if (failures == 0 && world.rank() == 0)
    std::cout << "distributed formulation: no allocation in 100 evaluations on each of " << world.size() << " ranks\n";
  return failures == 0 ? 0 : 1;
}
