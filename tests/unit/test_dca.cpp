// The divide-and-conquer algorithm (dynamics/dca.hpp) against ABA and RNEA, and the assembly
// tree it runs on (dynamics/assembly_tree.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "articula/dynamics/dca.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/simulation.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

// The ABA formulation's accelerations (force elements included) and DCA's, at the model's
// initial state and t = 0.3.
double dcaVersusAba(const Model& model, int threads = 1, const PairingPolicy& pairing = balancedPairing) {
  auto aba = makeFormulation("aba", model);
  DcaFormulation dca(model, DcaOptions{threads, pairing});
  Eigen::VectorXd expected(model.nv), actual(model.nv);
  aba->accelerations(0.3, model.q0, model.v0, expected);
  dca.accelerations(0.3, model.q0, model.v0, actual);
  return relativeError(actual, expected);
}

int ceilLog2(int n) { return n <= 1 ? 0 : static_cast<int>(std::ceil(std::log2(static_cast<double>(n)))); }

// Every body is one leaf, every joint not on the ground joins exactly one node, children lie
// in lower tiers than their parents, and the roots are the bodies on the ground.
void expectWellFormed(const Model& model, const AssemblyTree& tree) {
  const int n = model.bodyCount();
  const auto& nodes = tree.nodes();
  ASSERT_EQ(tree.tierBegin(0), 0);
  ASSERT_EQ(tree.tierEnd(0), n);
  for (int i = 1; i <= n; ++i) EXPECT_EQ(nodes[static_cast<std::size_t>(i - 1)].top, i);
  std::set<int> joints;
  for (int tier = 1; tier < tree.tierCount(); ++tier)
    for (int k = tree.tierBegin(tier); k < tree.tierEnd(tier); ++k) {
      const AssemblyNode& node = nodes[static_cast<std::size_t>(k)];
      EXPECT_TRUE(joints.insert(node.joint).second) << "joint " << node.joint << " joined twice";
      EXPECT_LT(node.first, tree.tierBegin(tier));
      EXPECT_LT(node.second, tree.tierBegin(tier));
      EXPECT_EQ(nodes[static_cast<std::size_t>(node.second)].top, node.joint);
      EXPECT_EQ(nodes[static_cast<std::size_t>(node.first)].bottom, model.parent(node.joint));
    }
  int groundBodies = 0;
  for (int i = 1; i <= n; ++i) groundBodies += model.parent(i) == 0;
  EXPECT_EQ(static_cast<int>(joints.size()), n - groundBodies);
  ASSERT_EQ(static_cast<int>(tree.roots().size()), groundBodies);
  for (int r : tree.roots()) EXPECT_EQ(model.parent(nodes[static_cast<std::size_t>(r)].top), 0);
}

}  // namespace

TEST(Dca, AgreesWithAbaOnRandomTreesWithEveryJointType) {
  for (int bodies : {1, 2, 3, 5, 8, 13, 21, 34, 64, 100, 128})
    for (unsigned seed = 0; seed < 4; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      EXPECT_LT(dcaVersusAba(model), 1e-9) << bodies << " bodies, seed " << seed;
    }
}

TEST(Dca, AgreesWithAbaWithForceElements) {
  for (int bodies : {1, 4, 17, 50})
    for (unsigned seed = 0; seed < 3; ++seed)
      EXPECT_LT(dcaVersusAba(test_models::randomTreeWithForceElements(bodies, seed)), 1e-9)
          << bodies << " bodies, seed " << seed;
}

TEST(Dca, AgreesWithAbaOnChains) {
  for (bool spatial : {false, true})
    for (int links : {1, 2, 3, 4, 7, 16, 33, 64, 128})
      EXPECT_LT(dcaVersusAba(makeChain(links, spatial)), 1e-9) << links << " links, spatial " << spatial;
}

TEST(Dca, AgreesWithAbaOnAFloatingBase) { EXPECT_LT(dcaVersusAba(test_models::floatingBase()), 1e-12); }

// The serial tree (assembly_tree.hpp) solves the same equations with other joins: one complete
// subtree joined per tier. Same bounds as on the balanced tree.
TEST(Dca, SerialTreeAgreesWithAba) {
  for (int bodies : {1, 2, 5, 21, 64, 128})
    for (unsigned seed = 0; seed < 3; ++seed)
      EXPECT_LT(dcaVersusAba(test_models::randomTreeWithForceElements(bodies, seed), 1, serialPairing), 1e-9)
          << bodies << " bodies, seed " << seed;
  for (bool spatial : {false, true})
    for (int links : {1, 2, 7, 64, 128})
      EXPECT_LT(dcaVersusAba(makeChain(links, spatial), 1, serialPairing), 1e-9)
          << links << " links, spatial " << spatial;
  EXPECT_LT(dcaVersusAba(test_models::floatingBase(), 1, serialPairing), 1e-12);
}

// The joint forces of the disassembly are the forces RNEA transmits across each joint for the
// same accelerations (RBDA table 5.1, gravity as a base acceleration in both), about the child
// body's origin in world axes.
TEST(Dca, JointForcesEqualInverseDynamics) {
  for (unsigned seed = 0; seed < 3; ++seed) {
    const Model model = test_models::randomTreeWithForceElements(20, seed);
    DcaFormulation dca(model);
    Eigen::VectorXd vdot(model.nv), tau(model.nv);
    dca.accelerations(0.3, model.q0, model.v0, vdot);
    Workspace ws(model);
    updateVelocities(model, ws, model.q0, model.v0);
    evaluateForceElements(model, ws, 0.3, model.q0, model.v0);
    const ForceList fext = ws.fext;
    inverseDynamics(model, ws, model.q0, model.v0, vdot, &fext, tau);
    for (int i = 1; i <= model.bodyCount(); ++i) {
      const Mat3 R = ws.X0[static_cast<std::size_t>(i)].E.transpose();  // body axes in world axes
      const Force& f = ws.f[static_cast<std::size_t>(i)];
      Vec6 expected;
      expected << R * f.ang, R * f.lin;
      const Vec6& actual = dca.jointForces()[static_cast<std::size_t>(i)];
      EXPECT_LT((actual - expected).norm(), 1e-9 * std::max(1.0, expected.norm())) << "joint " << i << " seed " << seed;
    }
  }
}

TEST(Dca, OneTwoAndThreeThreadsGiveIdenticalBits) {
  for (const Model& model : {test_models::randomTreeWithForceElements(128, 3), makeChain(200, true)})
    for (const PairingPolicy& pairing : {PairingPolicy(balancedPairing), PairingPolicy(serialPairing)}) {
      DcaFormulation serial(model, DcaOptions{1, pairing});
      Eigen::VectorXd a(model.nv), b(model.nv);
      serial.accelerations(0.1, model.q0, model.v0, a);
      for (int threads : {2, 3}) {
        DcaFormulation parallel(model, DcaOptions{threads, pairing});
        parallel.accelerations(0.1, model.q0, model.v0, b);
        for (int k = 0; k < model.nv; ++k) ASSERT_EQ(a[k], b[k]) << "coordinate " << k << ", " << threads << " threads";
        for (int i = 1; i <= model.bodyCount(); ++i)
          for (int r = 0; r < 6; ++r)
            ASSERT_EQ(serial.jointForces()[static_cast<std::size_t>(i)][r],
                      parallel.jointForces()[static_cast<std::size_t>(i)][r]);
      }
    }
}

TEST(Dca, NonFiniteStateIsReportedWithTheJoint) {
  const Model model = makeChain(5, true);
  DcaFormulation dca(model);
  Eigen::VectorXd q = model.q0, vdot(model.nv);
  q[2] = std::nan("");
  EXPECT_THROW(dca.accelerations(0.0, q, model.v0, vdot), Error);
}

TEST(Dca, RejectsLoopsAndBadThreadCounts) {
  EXPECT_THROW(DcaFormulation(makeNFourBar(1)), Error);
  EXPECT_THROW(DcaFormulation(makeChain(3, true), DcaOptions{0}), Error);
  EXPECT_NO_THROW(makeFormulation("dca", makeChain(3, true)));
}

// rk4 with a fixed step on a spatial chain: both formulations give the same accelerations up to
// rounding, so the trajectories agree to far below the integration error (1e-9 m after 1 s).
TEST(Dca, SimulatesASpatialChainLikeAba) {
  const Model model = makeChain(8, true);
  struct Last final : SampleSink {
    Eigen::VectorXd q;
    void write(const Sample& s) override { q = s.q; }
  };
  Eigen::VectorXd finalQ[2];
  const char* names[] = {"aba", "dca"};
  for (int k = 0; k < 2; ++k) {
    SimulationOptions o;
    o.formulation = names[k];
    o.integrator = "rk4";
    o.integratorOptions.dt = 1e-3;
    o.tEnd = 1.0;
    o.outputInterval = 0.5;
    Last last;
    const SimulationResult r = simulate(model, o, {&last});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.formulation, names[k]);
    finalQ[k] = last.q;
  }
  ASSERT_EQ(finalQ[0].size(), model.nq);
  EXPECT_GT((finalQ[0] - model.q0).norm(), 0.1);  // the chain has moved
  EXPECT_LT((finalQ[1] - finalQ[0]).lpNorm<Eigen::Infinity>(), 1e-9);
}

TEST(AssemblyTree, ChainDepthIsCeilLog2) {
  for (int links : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 1024, 1025}) {
    const Model model = makeChain(links, false);
    const AssemblyTree tree(model);
    expectWellFormed(model, tree);
    EXPECT_EQ(tree.depth(), ceilLog2(links)) << links << " links";
    EXPECT_EQ(tree.tierCount(), tree.depth() + 1);
  }
}

// Random trees (branching, several bodies on the ground): the policy's bound is ceil(log2 n)
// plus one tier per extra branch at a body, which the test keeps as ceil(log2 n) + 1 +
// (largest number of children of one body - 1).
TEST(AssemblyTree, RandomTreesAreShallowAndWellFormed) {
  for (int bodies : {1, 2, 5, 16, 64, 128, 500})
    for (unsigned seed = 0; seed < 6; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const AssemblyTree tree(model);
      expectWellFormed(model, tree);
      std::vector<int> children(static_cast<std::size_t>(bodies) + 1, 0);
      for (int i = 1; i <= bodies; ++i) ++children[static_cast<std::size_t>(model.parent(i))];
      int branching = 1;
      for (int i = 1; i <= bodies; ++i) branching = std::max(branching, children[static_cast<std::size_t>(i)]);
      EXPECT_LE(tree.depth(), ceilLog2(bodies) + branching) << bodies << " bodies, seed " << seed;
    }
}

// The serial policy joins one complete subtree per tier (a rake, or a compress of a body's last
// branch), and the depth is the number of joints not on the ground; on a chain no node keeps a
// lower handle.
TEST(AssemblyTree, SerialPairingJoinsCompleteSubtreesOnly) {
  for (int bodies : {1, 2, 16, 128})
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const AssemblyTree tree(model, serialPairing);
      expectWellFormed(model, tree);
      EXPECT_TRUE(tree.articulated()) << bodies << " bodies, seed " << seed;
      int groundBodies = 0;
      for (int i = 1; i <= bodies; ++i) groundBodies += model.parent(i) == 0;
      EXPECT_EQ(tree.depth(), bodies - groundBodies) << bodies << " bodies, seed " << seed;
      for (int k = tree.tierBegin(1); k < tree.tierEnd(tree.tierCount() - 1); ++k) {
        const int second = tree.nodes()[static_cast<std::size_t>(k)].second;
        EXPECT_FALSE(tree.nodes()[static_cast<std::size_t>(second)].hasDownHandle) << "node " << k;
      }
    }
  const Model chain = makeChain(16, true);
  const AssemblyTree tree(chain, serialPairing);
  EXPECT_EQ(tree.depth(), 15);
  EXPECT_FALSE(AssemblyTree(chain, balancedPairing).articulated());  // it joins pairs of bodies below the top
  for (const AssemblyNode& node : tree.nodes()) {
    if (node.joint > 0) {
      EXPECT_FALSE(node.hasDownHandle) << "joint " << node.joint;
    }
  }
}

TEST(AssemblyTree, RejectsPoliciesThatBreakTheShape) {
  const Model chain = makeChain(4, false);
  auto policy = [](AssemblyTiers tiers) { return [tiers](const std::vector<int>&) { return tiers; }; };
  EXPECT_NO_THROW(AssemblyTree(chain, policy({{2}, {3}, {4}})));  // sequential joins: depth 3
  EXPECT_EQ(AssemblyTree(chain, policy({{2}, {3}, {4}})).depth(), 3);
  EXPECT_FALSE(AssemblyTree(chain, policy({{2}, {3}, {4}})).articulated());  // B has a lower handle
  EXPECT_THROW(AssemblyTree(chain, policy({{2, 3}, {4}})), Error);  // body 2's subassembly twice in tier 1
  EXPECT_THROW(AssemblyTree(chain, policy({{2}})), Error);          // bodies 3 and 4 never joined
  EXPECT_THROW(AssemblyTree(chain, policy({{1}})), Error);          // joint 1 is on the ground
  // A body with two unfinished branches below it cannot join either: three handle bodies.
  ModelBuilder b;
  for (const char* name : {"a", "l1", "l2", "r1", "r2"}) {
    BodySpec body;
    body.name = name, body.mass = 1.0, body.inertia = Mat3::Identity();
    b.addBody(body);
  }
  const char* joints[][3] = {
      {"ground", "a", "ja"}, {"a", "l1", "jl1"}, {"l1", "l2", "jl2"}, {"a", "r1", "jr1"}, {"r1", "r2", "jr2"}};
  for (auto& [parent, child, name] : joints) {
    JointSpec j;
    j.name = name, j.parent = parent, j.child = child;
    b.addJoint(j);
  }
  const Model fork = b.build();
  EXPECT_THROW(AssemblyTree(fork, policy({{2}})), Error);
  const AssemblyTree tree(fork);
  expectWellFormed(fork, tree);
  EXPECT_LT(dcaVersusAba(fork), 1e-12);
}

// Complete binary trees are the policy's slow case: a body's second branch waits one tier for the
// first to be raked, so each level costs two tiers: depth <= 2 ceil(log2(n + 1)) - 2.
TEST(AssemblyTree, CompleteBinaryTreesTakeTwoTiersPerLevel) {
  for (int levels : {1, 2, 3, 5, 8}) {
    ModelBuilder b;
    const int n = (1 << levels) - 1;
    for (int i = 1; i <= n; ++i) {
      BodySpec body;
      body.name = "b" + std::to_string(i), body.mass = 1.0, body.inertia = Mat3::Identity();
      b.addBody(body);
      JointSpec j;
      j.name = "j" + std::to_string(i), j.child = body.name;
      j.parent = i == 1 ? "ground" : "b" + std::to_string(i / 2);
      j.position = Vec3(0.3, i % 2 ? 0.2 : -0.2, 0.0);
      b.addJoint(j);
    }
    const Model model = b.build();
    const AssemblyTree tree(model);
    expectWellFormed(model, tree);
    EXPECT_LE(tree.depth(), std::max(0, 2 * levels - 2)) << levels << " levels";
    EXPECT_LT(dcaVersusAba(model), 1e-9) << levels << " levels";
  }
}

}  // namespace ARTICULA_TEST_FILE
