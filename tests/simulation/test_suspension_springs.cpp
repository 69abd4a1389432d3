// A mass on a vertical slide standing on a strut (point spring-damper from the ground): with a
// bump stop the energy is conserved when nothing damps; with an asymmetric damping curve it
// settles where spring and bump stop carry the weight; a curve that is a straight line through
// zero runs exactly like the linear damper.
#include <gtest/gtest.h>

#include "articula/model/builder.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr double kMass = 100.0, kGravity = 9.81, kStiffness = 2e4, kRest = 0.5;

// The mass's height is its joint coordinate; the strut joins the ground origin to the mass.
Model strutModel(double height, PointSpringSpec strut) {
  ModelBuilder b;
  b.gravity = Vec3(0, 0, -kGravity);
  b.addBody({"mass", kMass, Vec3::Zero(), Mat3(Vec3(1, 1, 1).asDiagonal()), {}, {}});
  JointSpec j;
  j.name = "slide";
  j.type = JointType::Prismatic;
  j.parent = "ground";
  j.child = "mass";
  j.q0 = {height};
  b.addJoint(j);
  strut.name = "strut", strut.bodyA = "ground", strut.bodyB = "mass";
  strut.stiffness = kStiffness, strut.restLength = kRest;
  b.addPointSpring(strut);
  return b.build();
}

test_models::Recorder run(const Model& m, double tEnd) {
  SimulationOptions o;
  o.integratorOptions.rtol = 1e-11;
  o.integratorOptions.atol = 1e-12;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  test_models::Recorder rec;
  const SimulationResult r = simulate(m, o, {&rec});
  EXPECT_TRUE(r.ok) << r.error;
  return rec;
}

}  // namespace

// Dropped from 0.2 m above the stop's engagement at 0.45 m (stop stiffness 10 k): every bounce
// passes through the stop, and spring, stop and gravity exchange energy without loss (1e-8
// relative, the integration tolerance).
TEST(SuspensionSprings, BumpStopConservesEnergy) {
  PointSpringSpec s;
  s.bumpStopLength = 0.45, s.bumpStopStiffness = 2e5;
  const test_models::Recorder r = run(strutModel(0.65, s), 2.0);
  double lowest = 1.0, drift = 0.0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    lowest = std::min(lowest, r.q[k][0]);
    drift = std::max(drift, std::abs(r.energy[k] - r.energy[0]) / std::abs(r.energy[0]));
  }
  EXPECT_LT(lowest, 0.45 - 0.005);  // the stop was reached
  EXPECT_LT(drift, 1e-8);
}

// Static: the weight 981 N would compress the spring alone to 0.5 - 0.04905 = 0.451 m, past the
// stop at 0.46 m, so the stop shares the load: L* = (k L0 + k_bs L_bs - m g) / (k + k_bs).
// Damped by a curve three times steeper in bump than in rebound; settled to 1e-9 m in 4 s.
TEST(SuspensionSprings, AsymmetricDamperSettlesOnTheBumpStop) {
  PointSpringSpec s;
  s.bumpStopLength = 0.46, s.bumpStopStiffness = 1e5;
  s.curveVelocity = {-1.0, 0.0, 1.0};
  s.curveForce = {-6000.0, 0.0, 2000.0};
  const test_models::Recorder r = run(strutModel(0.5, s), 4.0);
  const double expected = (kStiffness * kRest + 1e5 * 0.46 - kMass * kGravity) / (kStiffness + 1e5);
  EXPECT_LT(expected, 0.46);
  EXPECT_NEAR(r.q.back()[0], expected, 1e-9);
}

// A curve through (-1, -c) and (1, c) is the linear damper c: the runs agree to 1e-10 m.
TEST(SuspensionSprings, StraightCurveIsTheLinearDamper) {
  PointSpringSpec linear, curve;
  linear.damping = 800.0;
  curve.curveVelocity = {-1.0, 1.0};
  curve.curveForce = {-800.0, 800.0};
  const test_models::Recorder a = run(strutModel(0.6, linear), 1.0), b = run(strutModel(0.6, curve), 1.0);
  ASSERT_EQ(a.q.size(), b.q.size());
  for (std::size_t k = 0; k < a.q.size(); ++k) EXPECT_NEAR(a.q[k][0], b.q[k][0], 1e-10);
}

}  // namespace ARTICULA_TEST_FILE
