// The parametric example models of model/generators.hpp: the N four-bar mechanism (IFToMM
// benchmark A02) starts exactly on its constraints and assembly leaves it there; the spatial
// RSSR crank-rocker closes for every crank angle on one branch, away from singular
// positions, with a positive definite mass matrix; the shipped model files are the
// generators' output.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <numbers>
#include <sstream>

#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr double kPi = std::numbers::pi;

// prefix + i (appended: GCC 12 warns falsely about `"A" + std::to_string(i)`, -Wrestrict).
std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}
const std::string kExamples = std::string(ARTICULA_SOURCE_DIR) + "/models/";

struct ConstraintState {
  double position = 0.0;  ///< |g(q)|_inf
  double velocity = 0.0;  ///< |J v - nu|_inf
  Eigen::MatrixXd J;
};

ConstraintState constraintsAt(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Workspace ws(m);
  ConstraintEvaluator c(m);
  updatePositions(m, ws, q);
  c.positions(ws, 0.0, q);
  c.jacobian(ws, 0.0);
  return {c.g.cwiseAbs().maxCoeff(), (c.J * v - c.nu).cwiseAbs().maxCoeff(), c.J};
}

Vec3 markerPosition(const Model& m, Workspace& ws, const char* name) {
  const Marker& mk = m.markers[static_cast<std::size_t>(*m.findMarker(name))];
  return pointPosition(ws, mk.body, mk.position);
}

double smallestEigenvalueOfMassMatrix(const Model& m, const Eigen::VectorXd& q) {
  Workspace ws(m);
  Eigen::MatrixXd H(m.nv, m.nv);
  massMatrix(m, ws, q, H);
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(H).info(), Eigen::Success);
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff();
}

Model reloaded(const Model& m) {
  std::ostringstream out;
  writeModelYaml(m, out);
  return parseModelYaml(out.str(), "generated.yaml").build();
}

// Bit-for-bit the same model in everything the tests below look at.
void expectSameModel(const Model& a, const Model& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.gravity, b.gravity);
  ASSERT_EQ(a.bodyCount(), b.bodyCount());
  for (int i = 1; i <= a.bodyCount(); ++i) {
    EXPECT_EQ(a.bodies[i].name, b.bodies[i].name);
    EXPECT_EQ(a.bodies[i].mass, b.bodies[i].mass);
    EXPECT_EQ(a.bodies[i].com, b.bodies[i].com);
    EXPECT_EQ(a.bodies[i].inertiaCom, b.bodies[i].inertiaCom);
    EXPECT_EQ(a.joints[i].name, b.joints[i].name);
    EXPECT_EQ(a.joints[i].type, b.joints[i].type);
    EXPECT_EQ(a.joints[i].parent, b.joints[i].parent);
    EXPECT_EQ(a.joints[i].placement.r, b.joints[i].placement.r);
    EXPECT_EQ(a.joints[i].placement.E, b.joints[i].placement.E);
    EXPECT_EQ(a.joints[i].axis, b.joints[i].axis);
  }
  ASSERT_EQ(a.nq, b.nq);
  ASSERT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.q0, b.q0);
  EXPECT_EQ(a.v0, b.v0);
  EXPECT_EQ(a.lockedInAssembly, b.lockedInAssembly);
  ASSERT_EQ(a.loops.size(), b.loops.size());
  for (std::size_t k = 0; k < a.loops.size(); ++k) {
    EXPECT_EQ(a.loops[k].name, b.loops[k].name);
    EXPECT_EQ(a.loops[k].type, b.loops[k].type);
    EXPECT_EQ(a.loops[k].bodyA, b.loops[k].bodyA);
    EXPECT_EQ(a.loops[k].bodyB, b.loops[k].bodyB);
    EXPECT_EQ(a.loops[k].pointA, b.loops[k].pointA);
    EXPECT_EQ(a.loops[k].pointB, b.loops[k].pointB);
    EXPECT_EQ(a.loops[k].rotationA, b.loops[k].rotationA);
    EXPECT_EQ(a.loops[k].rotationB, b.loops[k].rotationB);
  }
  EXPECT_EQ(a.constraintCount(), b.constraintCount());
  ASSERT_EQ(a.markers.size(), b.markers.size());
}

}  // namespace

// ---------------------------------------------------------------------------------
// N four-bar mechanism (IFToMM A02)

TEST(NFourBarGenerator, HasTheBenchmarkTopologyAndRods) {
  for (int n : {1, 2, 3, 10, 40}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const Model m = makeNFourBar(n);
    EXPECT_EQ(m.name, numbered("n_four_bar", n));
    EXPECT_EQ(m.bodyCount(), 2 * n + 1);
    EXPECT_EQ(m.nv, 2 * n + 1);
    EXPECT_EQ(static_cast<int>(m.loops.size()), n);
    EXPECT_EQ(m.constraintCount(), 5 * n);
    EXPECT_EQ(m.gravity, Vec3(0, -9.81, 0));
    for (int i = 1; i <= m.bodyCount(); ++i) {
      const Body& b = m.bodies[i];
      EXPECT_EQ(b.mass, 1.0);
      EXPECT_EQ(b.com, Vec3(0.5, 0, 0));
      EXPECT_EQ(b.inertiaCom(2, 2), 1.0 / 12.0) << b.name << ": in-plane moment m L^2 / 12 exactly";
      EXPECT_EQ(m.joints[i].type, JointType::Revolute);
      EXPECT_EQ(m.joints[i].axis, Vec3::UnitZ());
    }
    for (int i = 0; i <= n; ++i) {
      const Joint& A = m.joints[*m.findJoint(numbered("A", i))];
      EXPECT_EQ(A.parent, 0);
      EXPECT_EQ(A.placement.r, Vec3(i, 0, 0));
      EXPECT_EQ(m.lockedInAssembly[static_cast<std::size_t>(A.iv)], i == 0);
    }
    for (int i = 1; i <= n; ++i) {
      const Joint& B = m.joints[*m.findJoint(numbered("B", i - 1))];
      EXPECT_EQ(m.bodies[B.parent].name, numbered("crank", i - 1));
      EXPECT_EQ(m.bodies[B.child].name, numbered("coupler", i));
      const LoopConstraint& l = m.loops[static_cast<std::size_t>(i - 1)];
      EXPECT_EQ(l.type, LoopConstraint::Type::Revolute);
      EXPECT_EQ(m.bodies[l.bodyA].name, numbered("coupler", i));
      EXPECT_EQ(m.bodies[l.bodyB].name, numbered("crank", i));
    }
  }
  EXPECT_THROW(nFourBarBuilder(0), Error);
  EXPECT_THROW(nFourBarBuilder(-3), Error);
}

TEST(NFourBarGenerator, StartsExactlyOnItsConstraints) {
  for (int n : {1, 2, 10, 40}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const Model m = makeNFourBar(n);
    const ConstraintState c = constraintsAt(m, m.q0, m.v0);
    EXPECT_LE(c.position, 1e-14);
    EXPECT_LE(c.velocity, 1e-14);
    // Away from the horizontal singularity: the loops remove 2 of the 2N+1 tree dofs each.
    EXPECT_EQ(Eigen::JacobiSVD<Eigen::MatrixXd>(c.J).setThreshold(1e-10).rank(), 2 * n);

    Workspace ws(m);
    updateVelocities(m, ws, m.q0, m.v0);
    EXPECT_LE((markerPosition(m, ws, "B0") - Vec3(0, 1, 0)).norm(), 1e-15);
    const Marker& b0 = m.markers[static_cast<std::size_t>(*m.findMarker("B0"))];
    EXPECT_LE((pointVelocity(ws, b0.body, b0.position) - Vec3(1, 0, 0)).norm(), 1e-15);
    for (int i = 1; i <= n; ++i) {  // the couplers are horizontal at y = 1 and translate
      const int body = *m.findBody(numbered("coupler", i));
      EXPECT_LE((pointPosition(ws, body, Vec3(0.5, 0, 0)) - Vec3(i - 0.5, 1, 0)).norm(), 1e-14);
      EXPECT_LE(angularVelocity(ws, body).norm(), 1e-15);
      EXPECT_LE((pointVelocity(ws, body, Vec3(0.5, 0, 0)) - Vec3(1, 0, 0)).norm(), 1e-15);
    }
    EXPECT_GT(smallestEigenvalueOfMassMatrix(m, m.q0), 0.0);
  }
}

TEST(NFourBarGenerator, AssemblyLeavesTheInitialStateUnchanged) {
  for (int n : {1, 3, 10, 40}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const Model m = makeNFourBar(n);
    Eigen::VectorXd q = m.q0, v = m.v0;
    const AssemblyResult r = assemble(m, 0.0, q, v);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(q, m.q0) << "no Newton step at all";
    EXPECT_LE((v - m.v0).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_EQ(r.constraintRank, 2 * n);
  }
}

// ---------------------------------------------------------------------------------
// RSSR crank-rocker

namespace {

struct RssrPose {
  double crank = 0.0, rocker = 0.0;
  Vec3 couplerAxis = Vec3::Zero();  ///< world
};

RssrPose rssrPose(const Model& m, const Eigen::VectorXd& q) {
  Workspace ws(m);
  updatePositions(m, ws, q);
  const int coupler = *m.findBody("coupler");
  return {q[m.joints[*m.findJoint("A")].iq], q[m.joints[*m.findJoint("D")].iq], bodyRotation(ws, coupler).col(0)};
}

}  // namespace

TEST(RssrGenerator, InitialStateIsTheExactClosureAtTwoRadiansPerSecond) {
  const Model m = makeRssr();
  EXPECT_EQ(m.name, "rssr");
  EXPECT_EQ(m.bodyCount(), 3);
  EXPECT_EQ(m.nq, 6);
  EXPECT_EQ(m.nv, 5);
  ASSERT_EQ(m.loops.size(), 1u);
  EXPECT_EQ(m.loops[0].type, LoopConstraint::Type::Ball);
  EXPECT_EQ(m.joints[*m.findJoint("B")].type, JointType::Spherical);
  const Joint& A = m.joints[*m.findJoint("A")];
  const Joint& D = m.joints[*m.findJoint("D")];
  EXPECT_EQ(A.axis, Vec3::UnitZ());
  EXPECT_EQ(D.axis, Vec3::UnitX()) << "not parallel to the crank axis: a spatial loop";
  EXPECT_TRUE(m.lockedInAssembly[static_cast<std::size_t>(A.iv)]);
  EXPECT_EQ(m.v0[A.iv], 2.0);

  const ConstraintState c = constraintsAt(m, m.q0, m.v0);
  EXPECT_LE(c.position, 1e-14);
  EXPECT_LE(c.velocity, 1e-14);
  Workspace ws(m);
  updateVelocities(m, ws, m.q0, m.v0);
  EXPECT_LE((markerPosition(m, ws, "B") - Vec3(0.3, 0, 0)).norm(), 1e-15);
  EXPECT_NEAR((markerPosition(m, ws, "C") - markerPosition(m, ws, "B")).norm(), 1.2, 1e-14);
  const int coupler = *m.findBody("coupler");
  EXPECT_LE(std::abs(angularVelocity(ws, coupler).dot(bodyRotation(ws, coupler).col(0))), 1e-14) << "no spin";

  Eigen::VectorXd q = m.q0, v = m.v0;
  const AssemblyResult r = assemble(m, 0.0, q, v);
  EXPECT_EQ(r.constraintRank, 3);
  EXPECT_LE((q - m.q0).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LE((v - m.v0).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(RssrGenerator, ClosesOnOneBranchForAFullCrankTurn) {
  // A kinematic sweep: at each of 36 crank angles the crank is set (it is locked in
  // assembly) and the loop is closed from the previous pose; the result is the
  // generator's exact closure at that angle (same branch), away from singular positions.
  const Model m = makeRssr();
  const int crankCoordinate = m.joints[*m.findJoint("A")].iq;
  const int rockerVelocity = m.joints[*m.findJoint("D")].iv;
  Eigen::VectorXd q = m.q0;
  double worstRockerTransmission = 1.0, smallestEigenvalue = 1e300;
  for (int k = 0; k <= 36; ++k) {
    const double angle = 2.0 * kPi * k / 36;
    SCOPED_TRACE("crank angle " + std::to_string(angle));
    q[crankCoordinate] = angle;
    Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
    const AssemblyResult r = assemble(m, 0.0, q, v);
    EXPECT_LE(r.positionError, 1e-12);
    EXPECT_LE(constraintsAt(m, q, v).position, 1e-12);
    EXPECT_EQ(r.constraintRank, 3);

    const Model exact = makeRssr(angle);
    const ConstraintState e = constraintsAt(exact, exact.q0, exact.v0);
    EXPECT_LE(e.position, 1e-14);
    EXPECT_LE(e.velocity, 1e-14);
    const RssrPose got = rssrPose(m, q), want = rssrPose(exact, exact.q0);
    EXPECT_NEAR(got.rocker, want.rocker, 1e-10) << "the branch with the rocker hanging down";
    EXPECT_LT(want.rocker, -0.45);
    EXPECT_GT(want.rocker, -1.65);
    EXPECT_LE((got.couplerAxis - want.couplerAxis).norm(), 1e-10);

    // The rocker's column of J against the coupler axis: zero at a dead point of the rocker.
    const Eigen::MatrixXd J = constraintsAt(m, q, v).J;
    const Vec3 rockerTipVelocity = J.col(rockerVelocity);
    worstRockerTransmission =
        std::min(worstRockerTransmission, std::abs(rockerTipVelocity.normalized().dot(got.couplerAxis)));
    smallestEigenvalue = std::min(smallestEigenvalue, smallestEigenvalueOfMassMatrix(m, q));
  }
  // The transmission angle stays within about 52..128 degrees; the coupler's axial
  // inertia (8e-5 kg m^2) bounds the mass matrix's smallest eigenvalue.
  EXPECT_GT(worstRockerTransmission, 0.75);
  EXPECT_GT(smallestEigenvalue, 1e-5);
  std::cout << "RSSR sweep: min |cos(rocker tip velocity, coupler axis)| = " << worstRockerTransmission
            << ", smallest mass-matrix eigenvalue = " << smallestEigenvalue << "\n";
  EXPECT_LE((rssrPose(m, q).couplerAxis - rssrPose(m, m.q0).couplerAxis).norm(), 1e-10) << "back where it started";
}

// ---------------------------------------------------------------------------------
// Model files

TEST(GeneratorYaml, GeneratedModelsRoundTripBitForBit) {
  for (int n : {1, 3, 10}) expectSameModel(makeNFourBar(n), reloaded(makeNFourBar(n)));
  expectSameModel(makeRssr(), reloaded(makeRssr()));
  expectSameModel(makeRssr(1.0), reloaded(makeRssr(1.0)));
}

TEST(GeneratorYaml, ShippedModelsAreTheGeneratorOutput) {
  // models/n_four_bar.yaml: `articula generate n-four-bar --n 10`; models/rssr.yaml:
  // `articula generate rssr` (plus a descriptive comment header).
  const Model nfb = loadModel(kExamples + "n_four_bar.yaml");
  expectSameModel(makeNFourBar(10), nfb);
  EXPECT_EQ(nfb.loops.size(), 10u);
  const Model rssr = loadModel(kExamples + "rssr.yaml");
  expectSameModel(makeRssr(), rssr);
  EXPECT_EQ(rssr.loops.size(), 1u);
}

// Each loop of the bank is the RSSR at its phase, lifted: the same rocker angle and coupler
// axis as the single RSSR generated at that crank angle; every loop closes and moves
// consistently at q0, v0 (round-off of the closure formulas: 1e-14).
TEST(RssrBankGenerator, EveryLoopIsTheRssrAtItsPhase) {
  constexpr int kLoops = 4;
  const Model m = makeRssrBank(kLoops);
  EXPECT_EQ(m.name, "rssr_bank4");
  EXPECT_EQ(m.bodyCount(), 1 + 2 * kLoops);
  EXPECT_EQ(m.nv, 1 + 4 * kLoops);
  ASSERT_EQ(m.loops.size(), static_cast<std::size_t>(kLoops));
  const ConstraintState c = constraintsAt(m, m.q0, m.v0);
  EXPECT_LE(c.position, 1e-14);
  EXPECT_LE(c.velocity, 1e-14);
  Workspace ws(m);
  updatePositions(m, ws, m.q0);
  for (int k = 0; k < kLoops; ++k) {
    SCOPED_TRACE("loop " + std::to_string(k));
    const std::string s = std::to_string(k);
    const Model single = makeRssr(2.0 * kPi * k / kLoops);
    const RssrPose want = rssrPose(single, single.q0);
    EXPECT_NEAR(m.q0[m.joints[*m.findJoint("D" + s)].iq], want.rocker, 1e-14);
    EXPECT_LE((bodyRotation(ws, *m.findBody("coupler" + s)).col(0) - want.couplerAxis).norm(), 1e-14);
    EXPECT_NEAR(markerPosition(m, ws, ("B" + s).c_str()).z(), 0.25 * k, 1e-15);
  }
  EXPECT_THROW(makeRssrBank(0), Error);
}

}  // namespace ARTICULA_TEST_FILE
