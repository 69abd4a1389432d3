// The distributed formulation (seed 003's subsystem method, docs/distributed.md) against ABA on
// open chains and trees and against the reference formulation on closed loops, for several
// partitions; the traffic between hierarchy levels; the partition errors.
#include <gtest/gtest.h>

#include <numbers>

#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "articula/model/subsystems.hpp"
#include "articula/simulate/simulation.hpp"
#include "distributed_support.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
using test_models::accelerationsOf;
using test_models::distributedAccelerations;
using test_models::randomState;
using test_models::relativeDifference;

namespace {

BodySpec link(const std::string& name, double mass, const Vec3& com, const Vec3& inertia) {
  BodySpec b;
  b.name = name;
  b.mass = mass;
  b.com = com;
  b.inertia = inertia.asDiagonal();
  return b;
}

JointSpec joint(const std::string& name, JointType type, const std::string& parent, const std::string& child,
                const Vec3& at, const Vec3& axis = Vec3::UnitZ()) {
  JointSpec j;
  j.name = name;
  j.type = type;
  j.parent = parent;
  j.child = child;
  j.position = at;
  j.axis = axis;
  j.axis2 = axis.cross(Vec3(0.3, 0.5, 0.8)).normalized();
  return j;
}

// A spatial tree of 14 bodies with every kind of moving joint: a floating base (free joint)
// carrying three branches (revolutes about changing axes; a spherical joint then a universal,
// a prismatic and a cylindrical one; a short branch hanging from the first).
Model branchedTree() {
  ModelBuilder b;
  b.gravity = Vec3(0.0, -9.81, 0.0);
  const char* names[] = {"base", "a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2", "d1", "d2", "d3"};
  for (int k = 0; k < 14; ++k)
    b.addBody(link(names[k], 1.0 + 0.1 * k, Vec3(0.25, 0.02 * k, 0.0), Vec3(0.01 + 0.001 * k, 0.03, 0.035)));
  b.addJoint(joint("base", JointType::Free, "ground", "base", Vec3(0, 1, 0)));
  b.addJoint(joint("a1", JointType::Revolute, "base", "a1", Vec3(0.5, 0, 0), Vec3::UnitZ()));
  b.addJoint(joint("a2", JointType::Revolute, "a1", "a2", Vec3(0.5, 0, 0), Vec3::UnitY()));
  b.addJoint(joint("a3", JointType::Revolute, "a2", "a3", Vec3(0.5, 0, 0), Vec3::UnitX()));
  b.addJoint(joint("a4", JointType::Revolute, "a3", "a4", Vec3(0.5, 0, 0), Vec3(1, 1, 0)));
  b.addJoint(joint("b1", JointType::Spherical, "base", "b1", Vec3(0, 0.2, 0.1)));
  b.addJoint(joint("b2", JointType::Universal, "b1", "b2", Vec3(0.5, 0, 0), Vec3::UnitZ()));
  b.addJoint(joint("b3", JointType::Prismatic, "b2", "b3", Vec3(0.5, 0, 0), Vec3::UnitX()));
  b.addJoint(joint("b4", JointType::Cylindrical, "b3", "b4", Vec3(0.5, 0, 0), Vec3::UnitY()));
  b.addJoint(joint("c1", JointType::Revolute, "base", "c1", Vec3(0, -0.2, 0), Vec3::UnitY()));
  b.addJoint(joint("c2", JointType::Revolute, "c1", "c2", Vec3(0.5, 0, 0), Vec3::UnitZ()));
  b.addJoint(joint("d1", JointType::Revolute, "a2", "d1", Vec3(0.2, 0.1, 0), Vec3::UnitZ()));
  b.addJoint(joint("d2", JointType::Revolute, "d1", "d2", Vec3(0.5, 0, 0), Vec3::UnitX()));
  b.addJoint(joint("d3", JointType::Revolute, "d2", "d3", Vec3(0.5, 0, 0), Vec3::UnitZ()));
  return b.build();
}

// Seed 003's four bars with the loop closed onto bar 1 instead of the ground: a loop inside the
// chain (inside one subsystem, or between two). `type` is the loop's kind.
Model fourBarsClosedOnBar1(LoopConstraint::Type type) {
  ModelBuilder c;
  c.gravity = Vec3(0.0, -9.81, 0.0);
  for (const char* name : {"bar1", "bar2", "bar3", "bar4"})
    c.addBody(link(name, 1.0, Vec3(0.5, 0, 0), Vec3(6.666666666666667e-05, 1.0 / 12, 1.0 / 12)));
  const double pi = std::numbers::pi;
  JointSpec j = joint("O1", JointType::Revolute, "ground", "bar1", Vec3::Zero());
  j.q0 = {-pi / 4 + 0.1};
  c.addJoint(j);
  const char* bars[] = {"bar1", "bar2", "bar3", "bar4"};
  for (int k = 1; k < 4; ++k) {
    j = joint("J" + std::to_string(k), JointType::Revolute, bars[k - 1], bars[k], Vec3(1, 0, 0));
    j.q0 = {pi / 2};
    c.addJoint(j);
  }
  LoopSpec l;
  l.name = "close";
  l.type = type;
  l.bodyA = "bar1";
  l.bodyB = "bar4";
  l.pointB = Vec3(1, 0, 0);
  c.addLoop(l);
  return c.build();
}

// The assembled initial state of a closed-loop model, moved along the constraints: the velocity
// is the consistent one for a random joint-rate guess.
void consistentState(const Model& model, unsigned seed, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  randomState(model, seed, 0.3, q, v);
  assemble(model, 0.0, q, v);
}

}  // namespace

// A 64-body chain, planar and spatial, split into 1, 2, 4 and 8 subsystems: the accelerations of
// ABA to 1e-9 relative (both are exact in exact arithmetic; measured at most 2.7e-12 on the planar
// chain and 2.3e-10 on the spatial one, whose mass matrix has cond ~ 1e8: docs/design.md).
TEST(Distributed, Chain64MatchesAbaForEveryPartition) {
  for (bool spatial : {false, true}) {
    const Model model = makeChain(64, spatial);
    for (unsigned seed : {1u, 2u}) {
      Eigen::VectorXd q, v;
      randomState(model, seed, 0.8, q, v);
      const Eigen::VectorXd aba = accelerationsOf("aba", model, q, v);
      for (int parts : {1, 2, 4, 8}) {
        FormulationOptions o;
        o.subsystems = parts;
        DistributedFormulation f(model, o);
        ASSERT_EQ(static_cast<int>(f.hierarchy().subsystems.size()), parts);
        Eigen::VectorXd vdot(model.nv);
        f.accelerations(0.0, q, v, vdot);
        EXPECT_LT(relativeDifference(vdot, aba), 1e-9) << (spatial ? "spatial" : "planar") << " parts " << parts;
      }
    }
  }
}

// Subsystems on several threads compute the same numbers: each subsystem's arithmetic does not
// depend on which thread runs it, and the hierarchy runs in the calling thread.
TEST(Distributed, ThreadsGiveIdenticalAccelerations) {
  const Model model = makeChain(64, true);
  Eigen::VectorXd q, v;
  randomState(model, 5, 0.8, q, v);
  FormulationOptions o;
  o.subsystems = 8;
  Eigen::VectorXd one(model.nv), two(model.nv);
  DistributedFormulation(model, o).accelerations(0.0, q, v, one);
  o.threads = 2;
  DistributedFormulation(model, o).accelerations(0.0, q, v, two);
  EXPECT_EQ(one, two);
  o.threads = 0;
  EXPECT_THROW(DistributedFormulation(model, o), Error);
}

// A short run of the 64-body spatial chain in 8 subsystems equals the reference formulation's:
// same integrator and step, so the two trajectories differ only by the rounding of the
// accelerations (1e-11 relative), which 0.2 s of rk4 leave below 1e-9.
TEST(Distributed, Chain64RunMatchesReference) {
  const Model model = makeChain(64, true);
  SimulationOptions o;
  o.integrator = "rk4";
  o.integratorOptions.dt = 1e-3;
  o.tEnd = 0.2;
  o.outputInterval = 0.2;
  o.formulation = "reference";
  test_models::Recorder ref;
  ASSERT_TRUE(simulate(model, o, {&ref}).ok);
  o.formulation = "distributed";
  o.subsystems = 8;
  test_models::Recorder dist;
  const SimulationResult r = simulate(model, o, {&dist});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.formulation, "distributed");
  EXPECT_GT(r.exchangedBytesPerEvaluation, 0);
  EXPECT_LT((dist.q.back() - ref.q.back()).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((dist.v.back() - ref.v.back()).cwiseAbs().maxCoeff(), 1e-8);
}

// A floating tree with every joint type (quaternion joints included), balanced partitions and a
// partition given by hand (a middle subsystem with two child subsystems below it).
TEST(Distributed, BranchedTreeMatchesAba) {
  const Model model = branchedTree();
  Eigen::VectorXd q, v;
  randomState(model, 7, 0.6, q, v);
  const Eigen::VectorXd aba = accelerationsOf("aba", model, q, v);
  for (int parts : {1, 2, 3, 5, 14}) {
    const Eigen::VectorXd vdot = distributedAccelerations(model, parts, q, v);
    EXPECT_LT(relativeDifference(vdot, aba), 1e-10) << parts << " parts";
  }
  // A partition by hand: base + c branch, a1-a2 (with d and a3 below it), a3-a4, d, b.
  std::vector<std::vector<int>> parts;
  auto body = [&](const char* n) { return *model.findBody(n); };
  parts.push_back({body("base"), body("c1"), body("c2")});
  parts.push_back({body("a1"), body("a2")});
  parts.push_back({body("a3"), body("a4")});
  parts.push_back({body("d1"), body("d2"), body("d3")});
  parts.push_back({body("b1"), body("b2"), body("b3"), body("b4")});
  Model partitioned = model;
  partitioned.subsystems = parts;
  checkPartition(partitioned, parts);
  EXPECT_LT(relativeDifference(distributedAccelerations(partitioned, 0, q, v), aba), 1e-10);
}

// Loops: inside one subsystem and between two (revolute closure with dependent rows in the
// plane, and a ball closure); the n-four-bar (loops between every crank and coupler); the
// spatial RSSR (a ball loop, a spherical joint). Reference accelerations at consistent states
// (measured 1.5e-12 to 4.7e-12 relative on the N-four-bar and the RSSR).
TEST(Distributed, ClosedLoopsMatchReference) {
  struct Case {
    std::string name;
    Model model;
    std::vector<int> parts;
  };
  std::vector<Case> cases;
  cases.push_back({"bars closed on bar 1, revolute", fourBarsClosedOnBar1(LoopConstraint::Type::Revolute), {1, 2, 4}});
  cases.push_back({"bars closed on bar 1, ball", fourBarsClosedOnBar1(LoopConstraint::Type::Ball), {1, 2, 3}});
  cases.push_back({"n-four-bar 3", makeNFourBar(3, std::numbers::pi / 2 - 0.3, -1.0), {1, 4, 7}});
  cases.push_back({"rssr", makeRssr(0.4), {1, 3}});
  for (const Case& c : cases) {
    Eigen::VectorXd q, v;
    consistentState(c.model, 3, q, v);
    const Eigen::VectorXd ref = accelerationsOf("reference", c.model, q, v);
    for (int parts : c.parts) {
      const Eigen::VectorXd vdot = distributedAccelerations(c.model, parts, q, v);
      EXPECT_LT(relativeDifference(vdot, ref), 1e-9) << c.name << ", " << parts << " parts";
    }
  }
}

// What passes between levels: nothing with one subsystem; with two subsystems of a chain, the
// root receives the first's interface (top and bottom handles: a 12x12 D, a 12-vector R) and the
// second's (its top: 6x6, 6) and sends back their handle forces (12 + 6 doubles).
TEST(Distributed, TrafficCountsTheInterfacesBetweenLevels) {
  const Model model = makeChain(64, true);
  FormulationOptions o;
  o.subsystems = 1;
  EXPECT_EQ(DistributedFormulation(model, o).exchangedBytesPerEvaluation(), 0);
  o.subsystems = 2;
  const DistributedFormulation two(model, o);
  ASSERT_EQ(two.traffic().size(), 1u);
  EXPECT_EQ(two.traffic()[0].interfaces, 2);
  EXPECT_EQ(two.traffic()[0].bytesUp, 8 * (144 + 12 + 36 + 6));
  EXPECT_EQ(two.traffic()[0].bytesDown, 8 * (12 + 6));
  o.subsystems = 8;
  const DistributedFormulation eight(model, o);
  ASSERT_EQ(eight.traffic().size(), 3u);  // levels 1..3 above the 8 leaves
  EXPECT_EQ(eight.traffic()[0].interfaces, 8);
  EXPECT_EQ(eight.traffic()[1].interfaces, 4);
  EXPECT_EQ(eight.traffic()[2].interfaces, 2);
}

// Across MPI ranks (RankPlan, no MPI needed): 8 subsystems of 8 bodies of a 64-body chain on 2 ranks
// go 4 and 4; only the root's second child comes from the other rank, and it keeps only the top
// of subsystem 4 (body 33; the chain's end needs no handle): 36 + 6 doubles up, 6 down. On 4 ranks
// level 2 also receives nodes {2, 3} (top of 2 and bottom of 3: 2 handles) and {6, 7} (top of 6).
// The gather: every joint but those between ranks, plus both bodies of each of those.
TEST(Distributed, RankPlanSendsOnlyTheInterfacesBetweenRanks) {
  const Model model = makeChain(64, true);
  FormulationOptions o;
  o.subsystems = 8;
  const DistributedFormulation f(model, o);
  const RankPlan two = makeRankPlan(model, f.hierarchy(), 2);
  EXPECT_EQ(two.subsystemRank, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  ASSERT_EQ(two.traffic.levels.size(), 1u);
  EXPECT_EQ(two.traffic.levels[0].level, 3);
  EXPECT_EQ(two.traffic.levels[0].messagesUp, 1);
  EXPECT_EQ(two.traffic.levels[0].bytesUp, 8 * (36 + 6));
  EXPECT_EQ(two.traffic.levels[0].bytesDown, 8 * 6);
  EXPECT_EQ(two.crossLinks, std::vector<int>{4});  // the top joint of subsystem 4
  EXPECT_EQ(two.counts, (std::vector<int>{32 + 6, 31 + 6}));
  EXPECT_EQ(two.traffic.gatherBytes, 8 * (63 + 12));
  const RankPlan four = makeRankPlan(model, f.hierarchy(), 4);
  ASSERT_EQ(four.traffic.levels.size(), 2u);
  EXPECT_EQ(four.traffic.levels[0].level, 2);
  EXPECT_EQ(four.traffic.levels[0].messagesDown, 2);
  EXPECT_EQ(four.traffic.levels[0].bytesUp, 8 * (36 * 4 + 12) + 8 * (36 + 6));
  EXPECT_EQ(four.traffic.levels[1].bytesUp, 8 * (36 + 6));
  EXPECT_EQ(four.traffic.gatherBytes, 8 * (61 + 36));
  // One rank: nothing between ranks. More ranks than subsystems: both counts in the message.
  EXPECT_EQ(makeRankPlan(model, f.hierarchy(), 1).traffic.messages(), 0);
  try {
    makeRankPlan(model, f.hierarchy(), 9);
    ADD_FAILURE() << "9 ranks for 8 subsystems accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("9 MPI ranks but only 8 subsystems"), std::string::npos) << e.what();
  }
}

// Bad partitions in a model file: one error naming the element and where it was written.
TEST(Distributed, BadPartitionsGiveOneClearError) {
  const std::string head = R"(name: p
bodies:
  - {name: a, mass: 1, inertia: [0.1, 0.1, 0.1]}
  - {name: b, mass: 1, inertia: [0.1, 0.1, 0.1]}
  - {name: c, mass: 1, inertia: [0.1, 0.1, 0.1]}
joints:
  - {name: ja, type: revolute, parent: ground, child: a}
  - {name: jb, type: revolute, parent: a, child: b}
  - {name: jc, type: revolute, parent: b, child: c}
)";
  auto error = [&](const std::string& partition) {
    try {
      parseModelYaml(head + partition, "p.yaml").build();
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("subsystems:\n  - [a, b]\n  - [b, c]\n"),
            "p.yaml:12:6: subsystem 2: body 'b' is in subsystems 1 and 2");
  EXPECT_EQ(error("subsystems:\n  - [a, x]\n  - [b, c]\n"), "p.yaml:11:9: subsystem 1: body 'x' is not defined");
  EXPECT_EQ(error("subsystems:\n  - [a, c]\n  - [b]\n"),
            "p.yaml:11:9: subsystem 1: subsystem 1 is not connected through tree joints: bodies 'a' and 'c' both "
            "have their parent outside it");
  EXPECT_EQ(error("subsystems:\n  - [a, b]\n"), "p.yaml:11:5: subsystem 1: body 'c' is in no subsystem");
  EXPECT_EQ(error("subsystems:\n  - [ground, a, b, c]\n"), "p.yaml:11:6: subsystem 1: the ground belongs to no subsystem");
  EXPECT_EQ(error("subsystems: [a, b, c]\n"),
            "p.yaml:10:14: subsystems: each subsystem is a list of body names, got 'a'");
  // Read back: the partition survives, ordered by top body.
  const Model m = parseModelYaml(head + "subsystems:\n  - [c, b]\n  - [a]\n", "p.yaml").build();
  ASSERT_EQ(m.subsystems.size(), 2u);
  EXPECT_EQ(m.subsystems[0], std::vector<int>({1}));
  EXPECT_EQ(m.subsystems[1], std::vector<int>({2, 3}));
  // A subsystem count that the model cannot have.
  FormulationOptions o;
  o.subsystems = 4;
  try {
    DistributedFormulation f(m, o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cannot split 3 bodies into 4 subsystems (1 to 3)");
  }
}

TEST(Distributed, PrescribedMotionIsRefused) {
  ModelBuilder b = chainBuilder(3, false);
  PrescribedMotionSpec p;
  p.name = "drive";
  p.joint = "joint1";
  b.addPrescribedMotion(p);
  const Model model = b.build();
  try {
    makeFormulation("distributed", model);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not handle prescribed motion (prescribed motion 'drive')"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace ARTICULA_TEST_FILE
