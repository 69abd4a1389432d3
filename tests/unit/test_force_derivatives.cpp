// Finite-difference stiffness and damping matrices (seed 004 eq. (52)-(53)): parallel equals
// serial bit for bit, grouped columns equal ungrouped ones bit for bit, the structural pattern
// holds every entry that can change, and the springs' matrices match the analytic ones.
#include <gtest/gtest.h>

#include "articula/dynamics/force_derivatives.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/dynamics/spring_damper_tangent.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "generalised_forces.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// A random tree with point springs and dampers between random bodies (some to the ground).
Model springyTree(int bodies, unsigned seed, bool gravity = true) {
  ModelBuilder b = test_models::randomTree(bodies, seed);
  if (!gravity) b.gravity = Vec3::Zero();
  const Model bare = b.build();
  std::mt19937 gen(seed + 5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 1; k <= bare.bodyCount(); k += 2) {
    PointSpringSpec s;
    const int other = static_cast<int>(gen() % static_cast<unsigned>(bare.bodyCount() + 1));
    if (other == k) continue;
    s.name = "ps" + std::to_string(k), s.bodyA = bare.bodies[k].name, s.bodyB = bare.bodies[other].name;
    s.pointA = Vec3(0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen)), s.pointB = Vec3(0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen));
    s.stiffness = 80.0, s.damping = 3.0, s.restLength = 0.4;
    b.addPointSpring(s);
  }
  return b.build();
}

struct Matrices {
  Eigen::MatrixXd K, C;
};

Matrices finiteDifferences(const Model& model, const ForceDerivativeOptions& o, const Eigen::VectorXd& v) {
  ForceDerivatives d(model, o);
  Matrices m{Eigen::MatrixXd(model.nv, model.nv), Eigen::MatrixXd(model.nv, model.nv)};
  d.evaluate(0.2, model.q0, v, m.K, m.C);
  return m;
}

Eigen::VectorXd forces(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  return test_models::generalisedForces(model, 0.2, q, v);
}

}  // namespace

TEST(ForceDerivatives, ParallelAndGroupedEqualSerialBitForBit) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = springyTree(12, seed);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.5);
    const Matrices serial = finiteDifferences(model, {1, false}, v);
    for (const ForceDerivativeOptions o : {ForceDerivativeOptions{1, true}, ForceDerivativeOptions{2, false},
                                           ForceDerivativeOptions{2, true}, ForceDerivativeOptions{3, true}}) {
      const Matrices m = finiteDifferences(model, o, v);
      EXPECT_TRUE(m.K == serial.K) << "seed " << seed << " threads " << o.threads << " grouped " << o.groupColumns;
      EXPECT_TRUE(m.C == serial.C) << "seed " << seed << " threads " << o.threads << " grouped " << o.groupColumns;
    }
  }
}

// Every change of Q that one coordinate causes lies in its column's pattern: outside it, the
// perturbed forces are bitwise those of the unperturbed state (the rows never see the change).
TEST(ForceDerivatives, PatternHoldsEveryEntryThatCanChange) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = springyTree(10, seed);
    const ForceDerivatives d(model);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -1.0);
    const Eigen::VectorXd Q0 = forces(model, model.q0, v);
    for (int j = 0; j < model.nv; ++j) {
      Eigen::VectorXd q = model.q0, step = Eigen::VectorXd::Zero(model.nv);
      step[j] = 1e-3;
      integrateConfiguration(model, q, step);
      const Eigen::VectorXd dQ = forces(model, q, v) - Q0, dQv = forces(model, model.q0, v + step) - Q0;
      std::vector<char> inPattern(static_cast<std::size_t>(model.nv), 0);
      for (int r : d.pattern(j)) inPattern[r] = 1;
      for (int r = 0; r < model.nv; ++r)
        if (!inPattern[r]) {
          EXPECT_EQ(dQ[r], 0.0) << "seed " << seed << " column " << j << " row " << r;
          EXPECT_EQ(dQv[r], 0.0) << "seed " << seed << " column " << j << " row " << r;
        }
    }
  }
}

// Without gravity, at rest, with the springs at their rest length, the force derivatives are
// the springs' analytic K and C (seed 001 eq. (31), (34)). Forward differences err by about
// sqrt(eps) relative (truncation and round-off balanced): 1e-6 leaves a margin of fifty.
TEST(ForceDerivatives, MatchTheAnalyticSpringMatricesAtRestLength) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    ModelBuilder b = test_models::randomTree(6, seed);
    b.gravity = Vec3::Zero();
    const Model bare = b.build();
    Workspace ws(bare);
    updatePositions(bare, ws, bare.q0);
    for (int k = 1; k <= bare.bodyCount(); ++k) {
      PointSpringSpec s;
      s.name = "ps" + std::to_string(k), s.bodyA = bare.bodies[k].name, s.bodyB = bare.bodies[k - 1].name;
      s.pointA = Vec3(0.1, 0.2 * k, -0.1), s.pointB = Vec3(-0.2, 0.1, 0.05 * k);
      s.restLength = (pointPosition(ws, k - 1, s.pointB) - pointPosition(ws, k, s.pointA)).norm();
      s.stiffness = 60.0 + k, s.damping = 2.0 + 0.5 * k;
      b.addPointSpring(s);
    }
    const Model model = b.build();
    const Matrices fd = finiteDifferences(model, {2, true}, Eigen::VectorXd::Zero(model.nv));
    Workspace w(model);
    updatePositions(model, w, model.q0);
    Eigen::MatrixXd K(model.nv, model.nv), C(model.nv, model.nv);
    SpringDamperTangent(model).evaluate(w, model.q0, Eigen::VectorXd::Zero(model.nv), K, C);
    K.triangularView<Eigen::StrictlyLower>() = K.transpose();  // it writes the upper triangles
    C.triangularView<Eigen::StrictlyLower>() = C.transpose();
    EXPECT_LT((fd.K - K).norm(), 1e-6 * K.norm()) << "seed " << seed;
    EXPECT_LT((fd.C - C).norm(), 1e-6 * C.norm()) << "seed " << seed;
  }
}

// Two identical chains hanging from the ground share no row: each column pairs with one of the
// other chain, so the grouped sweep needs half the evaluations (seed 004 section 3.3).
TEST(ForceDerivatives, TwoIndependentBranchesNeedHalfTheEvaluations) {
  ModelBuilder b;
  for (const char* side : {"left", "right"})
    for (int i = 1; i <= 4; ++i) {
      BodySpec body;
      body.name = std::string(side) + std::to_string(i);
      body.mass = 1.0;
      body.com = Vec3(0.25, 0, 0);
      body.inertia = boxInertia(1.0, Vec3(0.5, 0.05, 0.05));
      b.addBody(body);
      JointSpec j;
      j.name = "j" + body.name;
      j.type = JointType::Revolute;
      j.parent = i == 1 ? "ground" : std::string(side) + std::to_string(i - 1);
      j.child = body.name;
      j.position = i == 1 ? Vec3(side[0] == 'l' ? -1.0 : 1.0, 0, 0) : Vec3(0.5, 0, 0);
      j.q0 = {0.1 * i};
      b.addJoint(j);
    }
  const Model model = b.build();
  EXPECT_EQ(ForceDerivatives(model, {1, true}).groups().size(), 4u);
  EXPECT_EQ(ForceDerivatives(model, {1, false}).groups().size(), 8u);
}

}  // namespace ARTICULA_TEST_FILE
