// RNEA, CRBA and ABA checked against each other on random trees with every joint type.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {
Eigen::VectorXd randomVector(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x(i) = u(gen);
  return x;
}

double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}
}  // namespace

// Accumulated rounding over n bodies stays far below 1e-10 for n <= 64 in double precision;
// 1e-10 is the acceptance bound.
TEST(RecursiveDynamics, InverseOfForwardIsIdentityOnRandomTrees) {
  for (int bodies : {1, 2, 3, 5, 8, 13, 21, 34, 64}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      Workspace ws(model);
      const Eigen::VectorXd tau = randomVector(model.nv, seed + 100);
      Eigen::VectorXd vdot(model.nv), tau2(model.nv);
      forwardDynamics(model, ws, model.q0, model.v0, tau, nullptr, vdot);
      inverseDynamics(model, ws, model.q0, model.v0, vdot, nullptr, tau2);
      EXPECT_LT(relativeError(tau2, tau), 1e-10) << bodies << " bodies, seed " << seed;
    }
  }
}

// The 6D ABA's shortcuts (revolute joints about coordinate axes, unrotated joint
// frames, diagonal central inertias) against RNEA, which has none of them. (One
// body about z is planar: the 6D kernel is called directly.)
TEST(RecursiveDynamics, AbaShortcutsAgreeWithInverseDynamics) {
  for (int bodies : {1, 2, 7, 16, 40}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Model model = test_models::randomRevoluteTree(bodies, seed).build();
      Workspace ws(model);
      int axisAligned = 0, unrotated = 0, diagonal = 0;
      for (int i = 1; i <= model.bodyCount(); ++i) {
        axisAligned += ws.aba.plan[i].revoluteAxis >= 0;
        unrotated += !ws.aba.plan[i].rotatedPlacement;
        diagonal += ws.aba.plan[i].diagonalInertia;
      }
      EXPECT_GE(axisAligned, (bodies + 1) / 2);
      EXPECT_GE(unrotated, (bodies + 1) / 2);
      EXPECT_GE(diagonal, (bodies + 1) / 2);
      const Eigen::VectorXd tau = randomVector(model.nv, seed + 30);
      Eigen::VectorXd vdot(model.nv), tau2(model.nv);
      spatialForwardDynamics(model, ws, model.q0, model.v0, tau, nullptr, vdot);
      inverseDynamics(model, ws, model.q0, model.v0, vdot, nullptr, tau2);
      EXPECT_LT(relativeError(tau2, tau), 1e-10) << bodies << " bodies, seed " << seed;
    }
  }
}

TEST(RecursiveDynamics, MassMatrixAgreesWithAba) {
  for (int bodies : {1, 4, 16, 64}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      Workspace ws(model);
      Eigen::MatrixXd H(model.nv, model.nv);
      massMatrix(model, ws, model.q0, H);
      EXPECT_LT((H - H.transpose()).norm(), 1e-12 * H.norm());
      Eigen::LLT<Eigen::MatrixXd> llt(H);
      ASSERT_EQ(llt.info(), Eigen::Success) << "mass matrix not positive definite";
      Eigen::VectorXd C(model.nv), vdot(model.nv);
      biasForces(model, ws, model.q0, model.v0, nullptr, C);
      const Eigen::VectorXd tau = randomVector(model.nv, seed + 7);
      forwardDynamics(model, ws, model.q0, model.v0, tau, nullptr, vdot);
      EXPECT_LT(relativeError(vdot, llt.solve(tau - C)), 1e-10) << bodies << " bodies, seed " << seed;
      // Kinetic energy from bodies equals 0.5 v^T H v.
      updateVelocities(model, ws, model.q0, model.v0);
      EXPECT_NEAR(kineticEnergy(model, ws), 0.5 * model.v0.dot(H * model.v0), 1e-10 * (1.0 + kineticEnergy(model, ws)));
    }
  }
}

TEST(RecursiveDynamics, ExternalForcesEnterConsistently) {
  const Model model = test_models::randomTree(12, 3).build();
  Workspace ws(model);
  ForceList fext(model.bodies.size());
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& f : fext) f = Force(Vec3(u(gen), u(gen), u(gen)), Vec3(u(gen), u(gen), u(gen)));
  const Eigen::VectorXd tau = randomVector(model.nv, 11);
  Eigen::VectorXd vdot(model.nv), tau2(model.nv);
  forwardDynamics(model, ws, model.q0, model.v0, tau, &fext, vdot);
  inverseDynamics(model, ws, model.q0, model.v0, vdot, &fext, tau2);
  EXPECT_LT(relativeError(tau2, tau), 1e-10);
}

// The planar kernel is the 6D one restricted to three coordinates: the two must agree to
// rounding (1e-12 relative) on planar trees, whatever the out-of-plane inertia, centre of
// mass height, gravity component and applied forces along z.
TEST(PlanarDynamics, PlanarKernelMatchesSpatialKernel) {
  for (int bodies : {1, 2, 3, 7, 16, 40}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      const Model model = test_models::randomPlanarTree(bodies, seed).build();
      Workspace ws(model);
      ASSERT_TRUE(ws.planar.isPlanar) << bodies << " bodies, seed " << seed;
      ForceList fext(model.bodies.size());
      std::mt19937 gen(seed);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (auto& f : fext) f = Force(Vec3(u(gen), u(gen), u(gen)), Vec3(u(gen), u(gen), u(gen)));
      const Eigen::VectorXd tau = randomVector(model.nv, seed + 30);
      Eigen::VectorXd planar(model.nv), spatial(model.nv), tau2(model.nv);
      planarForwardDynamics(model, ws, model.q0, model.v0, tau, &fext, planar);
      spatialForwardDynamics(model, ws, model.q0, model.v0, tau, &fext, spatial);
      EXPECT_LT(relativeError(planar, spatial), 1e-12) << bodies << " bodies, seed " << seed;
      forwardDynamics(model, ws, model.q0, model.v0, tau, &fext, planar);
      inverseDynamics(model, ws, model.q0, model.v0, planar, &fext, tau2);
      EXPECT_LT(relativeError(tau2, tau), 1e-10) << bodies << " bodies, seed " << seed;
    }
  }
}

TEST(PlanarDynamics, DetectsWhichModelsArePlanar) {
  EXPECT_TRUE(Workspace(makeChain(8, false)).planar.isPlanar);
  EXPECT_FALSE(Workspace(makeChain(8, true)).planar.isPlanar);
  EXPECT_FALSE(Workspace(test_models::randomTree(8, 1).build()).planar.isPlanar);
  // A single hinge tilted away from z, or a placement turning z over, makes the model spatial.
  for (int variant = 0; variant < 2; ++variant) {
    Model m = test_models::randomPlanarTree(6, 2).build();
    ASSERT_TRUE(Workspace(m).planar.isPlanar);
    Joint& hinge = m.joints[5];
    ASSERT_EQ(hinge.type, JointType::Revolute);
    if (variant == 0)
      hinge.axis = Vec3(0.0, 1e-6, 1.0).normalized();
    else
      hinge.placement.E = axisAngle(Vec3::UnitX(), 3.14159).transpose() * hinge.placement.E;
    Workspace ws(m);
    EXPECT_FALSE(ws.planar.isPlanar) << "variant " << variant;
    Eigen::VectorXd vdot(m.nv);
    EXPECT_THROW(planarForwardDynamics(m, ws, m.q0, m.v0, Eigen::VectorXd::Zero(m.nv), nullptr, vdot), Error);
  }
}

TEST(Kinematics, JacobiansMatchVelocities) {
  const Model model = test_models::randomTree(20, 9).build();
  Workspace ws(model);
  updateVelocities(model, ws, model.q0, model.v0);
  Eigen::MatrixXd J(6, model.nv), Jp(3, model.nv);
  for (int b = 1; b <= model.bodyCount(); ++b) {
    bodyJacobian(model, ws, b, J);
    const Vec6 vw = ws.X0[b].applyInverse(ws.v[b]).vector();
    EXPECT_LT((J * model.v0 - vw).norm(), 1e-12 * (1.0 + vw.norm()));
    const Vec3 p(0.1, -0.2, 0.3);
    pointJacobian(model, ws, b, p, Jp);
    EXPECT_LT((Jp * model.v0 - pointVelocity(ws, b, p)).norm(), 1e-12 * (1.0 + model.v0.norm()));
  }
}

// Positions moved along qdot = G(q) v for a small dt agree with the velocities (central difference).
TEST(Kinematics, ConfigurationRateMatchesPointVelocities) {
  const Model model = test_models::randomTree(15, 4).build();
  Workspace ws(model);
  updateVelocities(model, ws, model.q0, model.v0);
  Eigen::VectorXd qdot(model.nq);
  configurationRate(model, model.q0, model.v0, qdot);
  const double h = 1e-6;
  const Eigen::VectorXd qp = model.q0 + h * qdot, qm = model.q0 - h * qdot;
  Workspace wp(model), wm(model);
  updatePositions(model, wp, qp);
  updatePositions(model, wm, qm);
  const Vec3 p(0.2, 0.1, -0.1);
  for (int b = 1; b <= model.bodyCount(); ++b) {
    const Vec3 fd = (pointPosition(wp, b, p) - pointPosition(wm, b, p)) / (2 * h);
    // Central difference error O(h^2) ~ 1e-12 plus rounding 1e-16/1e-6 = 1e-10.
    EXPECT_LT((fd - pointVelocity(ws, b, p)).norm(), 1e-8) << "body " << b;
  }
}

// Accelerations from updateAccelerations match the derivative of point velocities.
TEST(Kinematics, AccelerationsMatchFiniteDifferences) {
  const Model model = test_models::randomTree(15, 6).build();
  Workspace ws(model), wp(model), wm(model);
  const Eigen::VectorXd vdot = randomVector(model.nv, 3);
  updateVelocities(model, ws, model.q0, model.v0);
  updateAccelerations(model, ws, vdot);
  Eigen::VectorXd qdot(model.nq);
  configurationRate(model, model.q0, model.v0, qdot);
  const double h = 1e-6;
  Eigen::VectorXd qp = model.q0 + h * qdot, qm = model.q0 - h * qdot;
  updateVelocities(model, wp, qp, model.v0 + h * vdot);
  updateVelocities(model, wm, qm, model.v0 - h * vdot);
  const Vec3 p(0.2, 0.1, -0.1);
  for (int b = 1; b <= model.bodyCount(); ++b) {
    const Vec3 fd = (pointVelocity(wp, b, p) - pointVelocity(wm, b, p)) / (2 * h);
    EXPECT_LT((fd - pointAcceleration(ws, b, p)).norm(), 1e-6 * (1.0 + fd.norm())) << "body " << b;
  }
}

}  // namespace ARTICULA_TEST_FILE
