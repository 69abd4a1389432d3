// How threads share the sweeps over an assembly tree (dynamics/tree_schedule.hpp): partitions
// and crown cover the tree once, and a sweep visits children before parents on the way up and
// parents before children on the way down, for any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "articula/dynamics/handle_assembly.hpp"
#include "articula/dynamics/tree_kinematics.hpp"
#include "articula/dynamics/tree_schedule.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/thread_team.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// Runs a sweep on the calling thread and checks the order of the visits: every internal node
// goes up after its children (leaves by body) and down after its parent, roots last up and first
// down, each exactly once; every body's leaf goes down after its parent node.
void expectOrderedSweep(const AssemblyTree& tree, const TreeSchedule& schedule, int bodies) {
  const auto& nodes = tree.nodes();
  const std::size_t count = nodes.size();
  std::vector<int> upAt(count, -1), downAt(count, -1);
  int clock = 0, rootsAt = -1;
  auto mark = [&](std::vector<int>& at, int node) {
    ASSERT_EQ(at[static_cast<std::size_t>(node)], -1) << "node " << node << " visited twice";
    at[static_cast<std::size_t>(node)] = clock++;
  };
  schedule.sweep([&](int body) { mark(upAt, body - 1); }, [&](int node) { mark(upAt, node); },
                 [&] { rootsAt = clock++; }, [&](int node) { mark(downAt, node); },
                 [&](int body) { mark(downAt, body - 1); });
  ASSERT_GE(rootsAt, 0);
  std::vector<int> parentOf(count, -1);
  for (std::size_t k = 0; k < count; ++k)
    if (nodes[k].joint > 0)
      parentOf[static_cast<std::size_t>(nodes[k].first)] = parentOf[static_cast<std::size_t>(nodes[k].second)] =
          static_cast<int>(k);
  for (std::size_t k = 0; k < count; ++k) {
    ASSERT_GE(upAt[k], 0) << "node " << k << " not visited up";
    ASSERT_GE(downAt[k], 0) << "node " << k << " not visited down";
    EXPECT_LT(upAt[k], rootsAt);
    EXPECT_GT(downAt[k], rootsAt);
    const int parent = parentOf[k];
    if (parent >= 0) {
      EXPECT_LT(upAt[k], upAt[static_cast<std::size_t>(parent)]) << "node " << k;
      EXPECT_GT(downAt[k], downAt[static_cast<std::size_t>(parent)]) << "node " << k;
    }
  }
  int leaves = 0;
  for (const auto& part : schedule.partitions()) leaves += static_cast<int>(part.bodies.size());
  EXPECT_EQ(leaves, bodies);
}

}  // namespace

TEST(TreeSchedule, SweepsEveryNodeOnceInTreeOrder) {
  for (int bodies : {1, 2, 5, 17, 64, 128})
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const AssemblyTree tree(model);
      for (int threads : {1, 2, 3, 8}) {
        SCOPED_TRACE(testing::Message() << bodies << " bodies, seed " << seed << ", " << threads << " threads");
        expectOrderedSweep(tree, TreeSchedule(tree, threads), bodies);
      }
    }
}

// One thread takes each root's whole subtree; more threads split a chain into as many
// partitions as asked, with the split nodes (one fewer) in the crown.
TEST(TreeSchedule, PartitionsPerThread) {
  const Model chain = makeChain(256, true);
  const AssemblyTree tree(chain);
  const TreeSchedule serial(tree, 1);
  EXPECT_EQ(serial.partitions().size(), 1u);
  EXPECT_TRUE(serial.crown().empty());
  for (int threads : {2, 4}) {
    const TreeSchedule parallel(tree, threads);
    const std::size_t wanted = static_cast<std::size_t>(TreeSchedule::kPartitionsPerThread * threads);
    EXPECT_EQ(parallel.partitions().size(), wanted);
    EXPECT_EQ(parallel.crown().size(), wanted - 1);
    // On a balanced chain tree the partitions hold equal numbers of bodies.
    for (const auto& part : parallel.partitions()) EXPECT_EQ(part.bodies.size(), 256u / wanted);
  }
  EXPECT_THROW(TreeSchedule(tree, 0), Error);
}

// The body poses as a prefix over the assembly tree (dynamics/tree_kinematics.hpp) equal the
// serial recursion's to round-off (their products are taken in another order), on random trees
// with every joint type and on a 200-link spatial chain, swept serially and on 2 threads
// (bit-identical); on the balanced and the serial assembly trees.
TEST(TreePositions, EqualTheSerialRecursion) {
  for (const Model& model : {test_models::randomTree(60, 4).build(), makeChain(200, true)})
    for (const PairingPolicy& pairing : {PairingPolicy(balancedPairing), PairingPolicy(serialPairing)}) {
      const AssemblyTree tree(model, pairing);
      Workspace serial(model), swept(model), parallel(model);
      updatePositions(model, serial, model.q0);
      TreePositions positions(model, tree), positions2(model, tree);
      positions.update(swept, model.q0, TreeSchedule(tree, 1));
      const TreeSchedule two(tree, 2);
      parallel::ThreadTeam team(2);
      team.run([&] { positions2.update(parallel, model.q0, two); });
      for (int i = 1; i <= model.bodyCount(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        EXPECT_LT((swept.X0[k].E - serial.X0[k].E).norm(), 1e-13) << model.name << " body " << i;
        EXPECT_LT((swept.X0[k].r - serial.X0[k].r).norm(), 1e-12 * std::max(1.0, serial.X0[k].r.norm()))
            << model.name << " body " << i;
        EXPECT_EQ(swept.X0[k].E, parallel.X0[k].E) << model.name << " body " << i;
        EXPECT_EQ(swept.X0[k].r, parallel.X0[k].r) << model.name << " body " << i;
      }
    }
}

}  // namespace ARTICULA_TEST_FILE
