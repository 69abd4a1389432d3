// Tyres on roads in whole runs: static deflection of a wheel and a quarter car, free rolling with
// and without rolling resistance against the prediction, a driven wheel, a start from rest, a
// ramp and steps lifting the wheel as the profile says, and every formulation agreeing.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>

#include "articula/model/builder.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr double kMass = 20.0, kSpinInertia = 0.6, kRadius = 0.3, kStiffness = 2e5, kGravity = 9.81;
constexpr double kStaticRadius = kRadius - kMass * kGravity / kStiffness;  // loaded radius at rest

// The car tyre (passenger-car coefficients) on the body "wheel".
TyreSpec carTyre(const Vec3& axis, double rollingResistance) {
  TyreSpec t;
  t.name = "tyre";
  t.body = "wheel";
  t.axis = axis;
  t.radius = kRadius;
  t.radialStiffness = kStiffness;
  t.radialDamping = 500.0;
  t.rollingResistance = rollingResistance;
  return t;
}

// A wheel moving in the world x-z plane (planar joint: x, z, rotation about -y) with a car tyre.
// The joint frame is turned so that its x-y plane is the world x-z plane; the wheel's spin axis
// is the body z axis (world -y), so rolling forward at V is a joint rate of -V / rho.
Model wheel(const Road& road, double rollingResistance, double z0, double V0, double omega0, double torque = 0.0) {
  ModelBuilder b;
  b.gravity = Vec3(0, 0, -kGravity);
  b.road = road;
  BodySpec body;
  body.name = "wheel";
  body.mass = kMass;
  body.inertia = Vec3(0.4, 0.4, kSpinInertia).asDiagonal();
  b.addBody(body);
  JointSpec j;
  j.name = "plane";
  j.type = JointType::Planar;
  j.parent = "ground";
  j.child = "wheel";
  j.rotation = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()).toRotationMatrix();
  j.q0 = {0.0, z0, 0.0};
  j.v0 = {V0, 0.0, omega0};
  b.addJoint(j);
  b.addTyre(carTyre(Vec3::UnitZ(), rollingResistance));
  if (torque != 0.0)  // about world +y: drives forward
    b.addBodyLoad({"drive", "wheel", true, true, Vec3::Zero(), Vec3::UnitY(), TimeFunction::constant(torque), {}});
  return b.build();
}

test_models::Recorder run(const Model& m, double tEnd, const std::string& formulation = "aba",
                          const std::string& integrator = "rk45", double dt = 0.0, bool finiteDifference = false) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.integratorOptions.dt = dt;
  o.integratorOptions.rtol = 1e-10;
  o.integratorOptions.atol = 1e-12;
  o.augmentedLagrangian.finiteDifferenceTangent = finiteDifference;
  o.tEnd = tEnd;
  test_models::Recorder rec;
  const SimulationResult r = simulate(m, o, {&rec});
  EXPECT_TRUE(r.ok) << r.error;
  return rec;
}

// The forward speed of the wheel centre in a sample.
double speed(const Eigen::VectorXd& v) { return v[0]; }

}  // namespace

// A wheel standing on flat road settles at the deflection m g / k (tolerance 1e-9 m: the radial
// damping takes the 5 mm drop's bounce down by e^-37 over 3 s).
TEST(TyreSimulation, AStandingWheelSettlesAtTheStaticDeflection) {
  const test_models::Recorder r = run(wheel(Road::flat(0.0), 0.015, kRadius + 0.005, 0.0, 0.0), 3.0);
  EXPECT_NEAR(r.q.back()[1], kStaticRadius, 1e-9);
  EXPECT_NEAR(r.q.back()[0], 0.0, 1e-12);  // no slip force pushes it along
  for (std::size_t k = 0; k < r.t.size(); ++k) ASSERT_TRUE(r.q[k].allFinite() && r.v[k].allFinite());
}

// A start from rest with an explicit fixed-step integrator: the slip is regularised below
// V_low = 1 m/s, so nothing is divided by zero and the wheel stays put.
TEST(TyreSimulation, AnExplicitIntegratorStartsFromRest) {
  const test_models::Recorder r = run(wheel(Road::flat(0.0), 0.015, kStaticRadius, 0.0, 0.0), 1.0, "aba", "rk4", 1e-4);
  for (std::size_t k = 0; k < r.t.size(); ++k) ASSERT_TRUE(r.q[k].allFinite() && r.v[k].allFinite());
  EXPECT_NEAR(r.q.back()[1], kStaticRadius, 1e-9);
  EXPECT_EQ(r.v.back()[0], 0.0);
}

// A quarter car (chassis and wheel on vertical slides, a suspension spring between them) settles
// where the tyre carries both masses and the spring the chassis.
TEST(TyreSimulation, AQuarterCarSettlesWhereTheSpringRatesSay) {
  const double M = 250.0, m = 25.0, ks = 25000.0, rest = -0.4;
  ModelBuilder b;
  b.gravity = Vec3(0, 0, -kGravity);
  b.addBody({"chassis", M, Vec3::Zero(), Mat3(Vec3(40, 60, 80).asDiagonal()), {}, {}});
  b.addBody({"wheel", m, Vec3::Zero(), Mat3(Vec3(0.5, 0.9, 0.5).asDiagonal()), {}, {}});
  JointSpec slide;
  slide.name = "heave";
  slide.type = JointType::Prismatic;
  slide.parent = "ground";
  slide.child = "chassis";
  slide.q0 = {0.7};
  b.addJoint(slide);
  slide.name = "travel";
  slide.parent = "chassis";
  slide.child = "wheel";
  slide.q0 = {-0.41};
  b.addJoint(slide);
  b.addJointSpring({"suspension", "travel", 0, ks, 2000.0, rest, {}});
  b.addTyre(carTyre(Vec3::UnitY(), 0.0));
  const test_models::Recorder r = run(b.build(), 5.0);
  const double travel = rest + M * kGravity / ks;              // the spring carries the chassis
  const double wheelHeight = kRadius - (M + m) * kGravity / kStiffness;  // the tyre carries both
  EXPECT_NEAR(r.q.back()[1], travel, 1e-8);
  EXPECT_NEAR(r.q.back()[0] + r.q.back()[1], wheelHeight, 1e-8);
}

// Rolling freely without rolling resistance, the wheel keeps its speed; with it, the wheel slows
// by a = f_r Fz / (m + I / rho^2) (the resistance moment f_r Fz rho shared between the wheel's
// translation and spin through the rolling condition), here 0.110 m/s^2: agreement within 1 %
// (measured: 0.6 % less loss, the first 13 ms in which the slip that carries Fx builds up).
TEST(TyreSimulation, FreeRollingLosesOnlyTheRollingResistance) {
  const double V0 = 10.0;
  const test_models::Recorder lossless = run(wheel(Road::flat(0.0), 0.0, kStaticRadius, V0, -V0 / kStaticRadius), 2.0);
  EXPECT_NEAR(speed(lossless.v.back()), V0, 1e-6);
  const double fr = 0.015;
  const test_models::Recorder rolling = run(wheel(Road::flat(0.0), fr, kStaticRadius, V0, -V0 / kStaticRadius), 2.0);
  const double a = fr * kMass * kGravity / (kMass + kSpinInertia / (kStaticRadius * kStaticRadius));
  const double loss = V0 - speed(rolling.v.back());
  EXPECT_NEAR(loss, a * 2.0, 0.01 * a * 2.0) << "measured loss " << loss << " m/s, predicted " << a * 2.0;
  // The wheel keeps rolling: its spin follows its speed.
  EXPECT_NEAR(-rolling.v.back()[2] * kStaticRadius, speed(rolling.v.back()), 1e-2);
}

// A driving torque T accelerates the wheel at (T / rho) / (m + I / rho^2) once the slip has
// built up: checked over the second half second, within 1 %.
TEST(TyreSimulation, ADrivenWheelAccelerates) {
  const double T = 20.0, V0 = 5.0;
  const test_models::Recorder r = run(wheel(Road::flat(0.0), 0.0, kStaticRadius, V0, -V0 / kStaticRadius, T), 1.0);
  const double a = (T / kStaticRadius) / (kMass + kSpinInertia / (kStaticRadius * kStaticRadius));
  const std::size_t half = r.t.size() / 2;
  const double measured = (speed(r.v.back()) - speed(r.v[half])) / (r.t.back() - r.t[half]);
  EXPECT_NEAR(measured, a, 0.01 * a) << "measured " << measured << " m/s^2";
}

// Up a ramp: half-way up, the centre sits rho / cos(theta) above the road below it (the loaded
// radius along the normal); after the ramp, rho above the raised road. Tolerance 0.5 mm: the
// bounce excited at the ramp's foot, damped at 12.5 /s.
TEST(TyreSimulation, AWheelRollsUpARampAsTheProfileSays) {
  const Road road = RoadProfileBuilder(-10.0, 0.0).flat(12.0).ramp(2.0, 0.2).flat(30.0).build();
  const double V0 = 3.0;
  const Model m = wheel(road, 0.0, kStaticRadius, V0, -V0 / kStaticRadius);
  const test_models::Recorder r = run(m, 3.0);
  const double theta = std::atan(0.1);
  bool checkedRamp = false;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    const double x = r.q[k][0], z = r.q[k][1];
    if (!checkedRamp && x >= 3.0) {
      const double rho = kRadius - kMass * kGravity * std::cos(theta) / kStiffness;
      EXPECT_NEAR(z, road.height(x, 0.0) + rho / std::cos(theta), 5e-4) << "at x = " << x;
      checkedRamp = true;
    }
  }
  ASSERT_TRUE(checkedRamp);
  EXPECT_GT(r.q.back()[0], 5.0);
  EXPECT_NEAR(r.q.back()[1], 0.2 + kStaticRadius, 5e-4);
}

// Down three steps and up one: the disc envelopes each edge (the centre never drops by the full
// step at once) and the wheel ends rho above the last tread, still rolling forward.
TEST(TyreSimulation, AWheelGoesDownStairsAndClimbsAStep) {
  const Road road = RoadProfileBuilder(-10.0, 0.0).flat(11.0).stairs(3, -0.05, 1.0).flat(1.0).step(0.04).flat(30.0).build();
  const double V0 = 3.0;
  const test_models::Recorder r = run(wheel(road, 0.0, kStaticRadius, V0, -V0 / kStaticRadius), 3.0);
  double lowest = 1.0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    ASSERT_TRUE(r.q[k].allFinite());
    if (r.q[k][0] > 4.5) lowest = std::min(lowest, r.q[k][1]);
  }
  ASSERT_GT(r.q.back()[0], 6.0);
  EXPECT_GT(speed(r.v.back()), 1.0);
  EXPECT_NEAR(r.q.back()[1], -0.15 + 0.04 + kStaticRadius, 5e-4);
  EXPECT_GT(lowest, -0.15 + kRadius - 0.02);  // never sinks through the lowest tread
}

// The same run over a bump and a pothole in every formulation that evaluates force elements:
// the ODE formulations step with RK4 at 1e-4 s and agree to 1e-8 m; the index-3 ones (hybrid
// and global, each with either tangent) with the trapezoidal rule at
// 5e-4 s agree with them to 1e-3 m (at 1e-3 s, 1.6e-3 m: the wheel hop at 100 rad/s).
TEST(TyreSimulation, EveryFormulationRollsTheSameWay) {
  const Road road = RoadProfileBuilder(-10.0, 0.0).flat(10.5).bump(0.6, 0.03).flat(0.5).pothole(0.4, 0.02).flat(20.0).build();
  const double V0 = 4.0;
  const Model m = wheel(road, 0.015, kStaticRadius, V0, -V0 / kStaticRadius);
  const test_models::Recorder reference = run(m, 0.8, "aba", "rk4", 1e-4);
  for (const char* f : {"crba", "semi-recursive", "dca", "hdca"}) {
    const test_models::Recorder r = run(m, 0.8, f, "rk4", 1e-4);
    ASSERT_EQ(r.q.size(), reference.q.size()) << f;
    EXPECT_LT((r.q.back() - reference.q.back()).cwiseAbs().maxCoeff(), 1e-8) << f;
  }
  for (const auto& [f, finiteDifference] : {std::pair{"hybrid", false}, std::pair{"hybrid", true}, std::pair{"global", false}, std::pair{"global", true}}) {
    const test_models::Recorder r = run(m, 0.8, f, "trapezoidal", 5e-4, finiteDifference);
    ASSERT_EQ(r.q.size(), reference.q.size()) << f;
    double worst = 0.0;
    for (std::size_t k = 0; k < r.q.size(); ++k) worst = std::max(worst, (r.q[k].head(2) - reference.q[k].head(2)).cwiseAbs().maxCoeff());
    EXPECT_LT(worst, 1e-3) << f << (finiteDifference ? " (finite-difference tangent)" : " (analytic tangent)");
  }
}

// A height map that holds the same surface as a profile (a ramp from x = 2 to 4 m on a 2 m grid,
// level across y) gives the same run: the map's section along the heading is then exact, so the
// two agree to the integration tolerance (1e-8 m).
TEST(TyreSimulation, AHeightMapRollsLikeTheSameProfile) {
  const Road profile = Road::profile({{-10.0, 0.0}, {2.0, 0.0}, {4.0, 0.2}, {40.0, 0.2}});
  std::vector<double> heights;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i <= 25; ++i) heights.push_back(profile.height(-10.0 + 2.0 * i, 0.0));
  const Road map = Road::heightMap(-10.0, -1.0, 2.0, 2.0, 26, 2, heights);
  const double V0 = 3.0;
  const test_models::Recorder a = run(wheel(profile, 0.01, kStaticRadius, V0, -V0 / kStaticRadius), 2.0);
  const test_models::Recorder b = run(wheel(map, 0.01, kStaticRadius, V0, -V0 / kStaticRadius), 2.0);
  ASSERT_EQ(a.q.size(), b.q.size());
  EXPECT_GT(a.q.back()[1], 0.2);  // it went up the ramp
  for (std::size_t k = 0; k < a.q.size(); ++k) EXPECT_LT((a.q[k] - b.q[k]).cwiseAbs().maxCoeff(), 1e-8) << "t = " << a.t[k];
}

}  // namespace ARTICULA_TEST_FILE
