// The point spring-damper's suspension options: a piecewise-linear damping curve (asymmetric in
// bump and rebound, extended with its end slopes) and a one-sided bump stop; values computed by
// hand, and the potential energy whose derivative is the elastic tension.
#include <gtest/gtest.h>

#include "articula/dynamics/force_elements.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

PointSpringDamper strut() {
  PointSpringDamper s;
  s.name = "strut";
  s.stiffness = 500.0;
  s.restLength = 0.9;
  s.curveVelocity = {-1.0, 0.0, 0.5, 2.0};
  s.curveForce = {-3000.0, 0.0, 400.0, 900.0};
  s.bumpStopLength = 0.6;
  s.bumpStopStiffness = 2e4;
  return s;
}

TEST(SuspensionSprings, DampingCurveInterpolatesAndExtends) {
  const PointSpringDamper s = strut();
  const double L = 0.9;  // at rest: only the damper pulls
  // Bump (shortening, dL/dt < 0): slope 3000 N s/m; rebound: 800 up to 0.5 m/s, then 1000/3.
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, -0.5).tau, -1500.0);
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, -0.5).dqd, 3000.0);
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, 0.25).tau, 200.0);
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, 0.25).dqd, 800.0);
  EXPECT_NEAR(pointSpringTension(s, L, 3.0).tau, 900.0 + 500.0 / 1.5, 1e-12);  // beyond: last slope carries on
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, -2.0).tau, -6000.0);              // before: first slope
  EXPECT_DOUBLE_EQ(pointSpringTension(s, L, 0.0).tau, 0.0);
}

TEST(SuspensionSprings, BumpStopPushesOnlyBelowItsLength) {
  const PointSpringDamper s = strut();
  // L = 0.5: spring 500 * (0.5 - 0.9) = -200 N, stop 2e4 * (0.5 - 0.6) = -2000 N (pushing apart).
  const JointForce in = pointSpringTension(s, 0.5, 0.0);
  EXPECT_DOUBLE_EQ(in.tau, -2200.0);
  EXPECT_DOUBLE_EQ(in.dq, 20500.0);
  const JointForce out = pointSpringTension(s, 0.7, 0.0);
  EXPECT_DOUBLE_EQ(out.tau, -100.0);
  EXPECT_DOUBLE_EQ(out.dq, 500.0);
  // The energy's slope is the elastic tension, inside and outside the stop.
  for (double L : {0.3, 0.55, 0.65, 1.2}) {
    const double h = 1e-6;
    const double slope = (pointSpringEnergy(s, L + h) - pointSpringEnergy(s, L - h)) / (2 * h);
    EXPECT_NEAR(slope, pointSpringTension(s, L, 0.0).tau, 1e-6 * 2200.0) << "L = " << L;
  }
  EXPECT_DOUBLE_EQ(pointSpringEnergy(s, 0.5), 0.5 * 500.0 * 0.16 + 0.5 * 2e4 * 0.01);
}

TEST(SuspensionSprings, LinearSpringIsUnchanged) {
  PointSpringDamper s;
  s.stiffness = 10.0, s.damping = 2.0, s.restLength = 1.0;
  const JointForce t = pointSpringTension(s, 1.5, -0.25);
  EXPECT_DOUBLE_EQ(t.tau, 10.0 * 0.5 + 2.0 * -0.25);
  EXPECT_DOUBLE_EQ(t.dq, 10.0);
  EXPECT_DOUBLE_EQ(t.dqd, 2.0);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
