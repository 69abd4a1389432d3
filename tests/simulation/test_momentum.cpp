// The momentum diagnostics of a run: the system momentum against its definition, and its
// conservation by every ODE formulation on a free-floating system with internal springs.
#include <gtest/gtest.h>

#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/builder.hpp"
#include "articula/simulate/simulation.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// A tumbling free body carrying a sprung, damped arm; without gravity nothing external acts.
Model floatingArm(const Vec3& gravity = Vec3::Zero()) {
  ModelBuilder b;
  b.gravity = gravity;
  b.addBody({"hub", 3.0, Vec3(0.01, 0.02, 0.0), Vec3(0.05, 0.07, 0.09).asDiagonal(), {}, {}});
  b.addBody({"arm", 1.0, Vec3(0.3, 0, 0), Vec3(0.001, 0.03, 0.03).asDiagonal(), {}, {}});
  JointSpec free;
  free.name = "float";
  free.type = JointType::Free;
  free.parent = "ground";
  free.child = "hub";
  free.v0 = {0.3, -0.5, 1.1, 0.2, 0.1, -0.4};
  b.addJoint(free);
  JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "hub";
  hinge.child = "arm";
  hinge.position = Vec3(0.1, 0, 0);
  hinge.axis = Vec3(0, 1, 1);
  hinge.q0 = {0.4};
  hinge.v0 = {2.0};
  b.addJoint(hinge);
  b.addJointSpring({"spring", "hinge", 0, 8.0, 0.05, 0.0, {}});
  return b.build();
}

}  // namespace

// Linear momentum = sum m v_com; angular about the origin = sum (c x m v_com + R I_c R^T w).
TEST(Momentum, SystemMomentumIsTheSumOverTheBodies) {
  const Model m = floatingArm();
  Workspace ws(m);
  updateVelocities(m, ws, m.q0, m.v0);
  Vec3 lin = Vec3::Zero(), ang = Vec3::Zero();
  for (int i = 1; i <= m.bodyCount(); ++i) {
    const Body& b = m.bodies[i];
    const Vec3 c = pointPosition(ws, i, b.com), vc = pointVelocity(ws, i, b.com);
    const Mat3 R = ws.X0[i].E.transpose();       // body axes in the world
    const Vec3 w = R * ws.v[i].ang;              // body angular velocity in the world
    lin += b.mass * vc;
    ang += c.cross(b.mass * vc) + R * b.inertiaCom * R.transpose() * w;
  }
  const Force h = systemMomentum(m, ws);
  EXPECT_LT((h.lin - lin).norm(), 1e-14 * lin.norm());
  EXPECT_LT((h.ang - ang).norm(), 1e-14 * ang.norm());
}

// rk45 at rtol 1e-10 over 2 s: the momentum stays within 1e-8 of its initial value (relative), an
// error of the integrator's size; the damper removes energy but no momentum.
TEST(Momentum, ConservedByEveryOdeFormulationOnAFreeSystem) {
  const Model m = floatingArm();
  ASSERT_TRUE(conservesMomentum(m));
  for (const char* formulation : {"aba", "crba", "reference", "dca", "hdca"}) {
    SimulationOptions o;
    o.formulation = formulation;
    o.tEnd = 2.0;
    o.integratorOptions.rtol = 1e-10;
    o.integratorOptions.atol = 1e-12;
    const SimulationResult r = simulate(m, o, {});
    ASSERT_TRUE(r.ok) << formulation << ": " << r.error;
    EXPECT_TRUE(r.momentumConserved);
    const double h0 = r.initialMomentum.vector().norm();
    EXPECT_GT(h0, 0.5) << formulation;
    EXPECT_LT(r.maxMomentumDrift, 1e-8 * h0) << formulation;
    EXPECT_GT(r.maxEnergyDrift, 1e-3) << formulation << ": the damper dissipates";
  }
}

TEST(Momentum, NotConservedWithGravityOrAGroundedJoint) {
  ModelBuilder b;
  b.addBody({"bob", 1.0, Vec3(0.5, 0, 0), Vec3(1e-3, 1e-3, 1e-3).asDiagonal(), {}, {}});
  JointSpec j;
  j.name = "pivot";
  j.parent = "ground";
  j.child = "bob";
  b.addJoint(j);
  b.gravity = Vec3::Zero();
  EXPECT_FALSE(conservesMomentum(b.build())) << "a revolute joint to the ground";
  EXPECT_FALSE(conservesMomentum(floatingArm(Vec3(0, -9.81, 0)))) << "gravity";
}

}  // namespace ARTICULA_TEST_FILE
