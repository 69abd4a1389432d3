// Air springs (polytropic gas on an effective area) and leaf springs (a linear spring with
// smoothed interleaf friction) on the point spring-damper: forces and rates computed by hand,
// the energy's slope and a bottomed-out air spring's error (docs/vehicles.md).
#include <gtest/gtest.h>

#include <cmath>

#include "articula/core/error.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/io/yaml_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// A truck bellows: A = 0.05 m^2, V0 = 0.02 m^3 at L0 = 0.3 m, 5 bar gauge, adiabatic (n = 1.4).
PointSpringDamper bellows() {
  PointSpringDamper s;
  s.name = "bellows";
  s.air.area = 0.05;
  s.air.volume = 0.02;
  s.air.length = 0.3;
  s.air.ambient = 1e5;
  s.air.pressure = 5e5 + 1e5;
  s.air.exponent = 1.4;
  return s;
}

TEST(AirSpring, CarriesGaugePressureTimesAreaAtItsDesignLength) {
  const JointForce t = pointSpringTension(bellows(), 0.3, 0.0);
  EXPECT_DOUBLE_EQ(t.tau, -5e5 * 0.05);  // 25 kN pushing the points apart
  // Static rate n p A^2 / V = 1.4 * 6e5 * 0.0025 / 0.02 = 105 kN/m.
  EXPECT_NEAR(t.dq, 1.05e5, 1e-9 * 1.05e5);
}

TEST(AirSpring, FollowsThePolytropicLaw) {
  const PointSpringDamper s = bellows();
  // Compressed by 0.1 m: V = 0.02 - 0.005 = 0.015 m^3, p = 6e5 (0.02 / 0.015)^1.4.
  const double p = 6e5 * std::pow(0.02 / 0.015, 1.4);
  const JointForce t = pointSpringTension(s, 0.2, 0.0);
  EXPECT_NEAR(t.tau, -(p - 1e5) * 0.05, 1e-9 * p);
  EXPECT_NEAR(t.dq, 1.4 * p * 0.0025 / 0.015, 1e-9 * 1.4 * p);
  // Isothermal (n = 1) at the same length: p = 6e5 * 4 / 3 = 8e5, force 35 kN.
  PointSpringDamper iso = s;
  iso.air.exponent = 1.0;
  EXPECT_NEAR(pointSpringTension(iso, 0.2, 0.0).tau, -3.5e4, 1e-8);
}

TEST(AirSpring, EnergySlopeIsTheTension) {
  for (double n : {1.0, 1.3, 1.4}) {
    PointSpringDamper s = bellows();
    s.air.exponent = n;
    s.stiffness = 0.0;
    EXPECT_DOUBLE_EQ(pointSpringEnergy(s, 0.3), 0.0);
    for (double L : {0.05, 0.2, 0.3, 0.45}) {
      const double h = 1e-6;
      const double slope = (pointSpringEnergy(s, L + h) - pointSpringEnergy(s, L - h)) / (2 * h);
      EXPECT_NEAR(slope, pointSpringTension(s, L, 0.0).tau, 1e-6 * 1e5) << "n = " << n << ", L = " << L;
    }
  }
}

TEST(AirSpring, BottomingOutIsAnErrorNamingTheSpring) {
  // V = 0.02 + 0.05 (L - 0.3) reaches zero at L = -0.1 m, which a point spring cannot have; give
  // the spring a longer design length instead: V0 = 0.02 at L0 = 0.5 empties at L = 0.1.
  PointSpringDamper s = bellows();
  s.air.length = 0.5;
  try {
    pointSpringTension(s, 0.09, 0.0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("air spring 'bellows': bottomed out"), std::string::npos) << e.what();
  }
}

// A leaf spring: 300 kN/m with interleaf friction of 2 kN smoothed over 0.01 m/s.
PointSpringDamper leaf() {
  PointSpringDamper s;
  s.name = "leaf";
  s.stiffness = 3e5;
  s.restLength = 0.4;
  s.damping = 5e3;
  s.frictionForce = 2e3;
  s.frictionSlipVelocity = 0.01;
  return s;
}

TEST(LeafSpring, InterleafFrictionOpposesTheDeflectionRate) {
  const PointSpringDamper s = leaf();
  // Sliding at 0.1 m/s (ten slip velocities): the friction is 2 kN tanh(10), the damper 500 N.
  const JointForce t = pointSpringTension(s, 0.35, 0.1);
  EXPECT_NEAR(t.tau, 3e5 * -0.05 + 5e3 * 0.1 + 2e3 * std::tanh(10.0), 1e-9);
  EXPECT_DOUBLE_EQ(t.dq, 3e5);
  const double th = std::tanh(10.0);
  EXPECT_NEAR(t.dqd, 5e3 + 2e3 / 0.01 * (1.0 - th * th), 1e-9);
  // At rest the friction is zero and its slope the full 2e3 / 0.01 = 2e5 N s/m.
  EXPECT_NEAR(pointSpringTension(s, 0.35, 0.0).tau, -1.5e4, 1e-9);  // 0.35 - 0.4 rounds
  EXPECT_DOUBLE_EQ(pointSpringTension(s, 0.35, 0.0).dqd, 5e3 + 2e5);
  // Friction stores no energy.
  EXPECT_NEAR(pointSpringEnergy(s, 0.35), 0.5 * 3e5 * 0.0025, 1e-9);
}

// Loaded and unloaded slowly (|dL/dt| >> slip velocity) the force-deflection curve is a loop:
// the force going down exceeds the force coming up at the same length by 2 F_friction.
TEST(LeafSpring, SlowCycleIsAHysteresisLoopOfTwiceTheFrictionForce) {
  PointSpringDamper s = leaf();
  s.damping = 0.0;
  const double compressing = pointSpringTension(s, 0.38, -0.2).tau, extending = pointSpringTension(s, 0.38, 0.2).tau;
  EXPECT_NEAR(extending - compressing, 2 * 2e3, 2 * 2e3 * (1.0 - std::tanh(20.0)) + 1e-9);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
