// The full car (models/car.yaml; docs/vehicles.md "The car"): double wishbones with steering tie
// rods at the front (closed loops), trailing arms at the rear, Magic Formula tyres, coasting at
// 5 m/s over the ramp and stairs of seed 001 section 4. Physics checks of issue 6 item 6 and the
// agreement of the formulations, measured with seed 001's error metric eq. (43).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"
#include "run_options.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

const Model& car() {
  static const Model model = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/car.yaml");
  return model;
}

// World positions of the model's markers at every sample, and the chassis's forward speed.
struct MarkerTrace final : SampleSink {
  std::vector<std::vector<Vec3>> markers;  // [sample][marker]
  std::vector<double> t;
  void write(const Sample& s) override {
    t.push_back(s.t);
    std::vector<Vec3> row;
    for (const Marker& m : car().markers) row.push_back(s.ws.X0[m.body].inverseTransformPoint(m.position));
    markers.push_back(row);
  }
  double z(std::size_t sample, const char* marker) const {
    return markers[sample][*car().findMarker(marker)].z();
  }
};

MarkerTrace run(const SimulationOptions& o, const Model& model = car()) {
  MarkerTrace trace;
  const SimulationResult r = simulate(model, o, {&trace});
  EXPECT_TRUE(r.ok) << o.formulation << " " << o.integrator << ": " << r.error;
  return trace;
}

MarkerTrace run(const std::string& formulation, const std::string& integrator, double dtOrRtol, double tEnd,
                const Model& model = car()) {
  return run(test_models::runOptions(formulation, integrator, dtOrRtol, tEnd), model);
}

double totalMass(const Model& model) {
  double mass = 0.0;
  for (int i = 1; i <= model.bodyCount(); ++i) mass += model.bodies[i].mass;
  return mass;
}

// Seed 001 eq. (43): the vertical coordinates of a chassis point and of the front-left and
// rear-right wheel centres, each history's 2-norm of the difference summed, over 3 (ns + 1).
double seed001Error(const MarkerTrace& a, const MarkerTrace& reference) {
  double sum = 0.0;
  const std::size_t n = std::min(a.t.size(), reference.t.size());
  EXPECT_EQ(a.t.size(), reference.t.size());
  for (const char* marker : {"chassis_front", "wheel_front_left_centre", "wheel_rear_right_centre"}) {
    double squares = 0.0;
    for (std::size_t j = 0; j < n; ++j) squares += std::pow(a.z(j, marker) - reference.z(j, marker), 2);
    sum += std::sqrt(squares);
  }
  return sum / (3.0 * static_cast<double>(n));
}

}  // namespace

TEST(Car, HasTheSeedVehiclesSize) {
  EXPECT_EQ(car().nq, 26);  // seed 001's car: 26 relative coordinates
  EXPECT_EQ(car().constraintCount(), 9);
  EXPECT_EQ(car().nv - car().constraintCount(), 14);  // 6 chassis + 4 suspensions + 4 spins
  EXPECT_EQ(car().tyres.size(), 4u);
}

// Standing still on level road the four tyres carry the whole weight: sum k (R0 - rho_i) = m g,
// with rho_i the loaded radius, the wheel centre's height (level road at z = 0). The initial
// state is this equilibrium to the 10 digits the file gives, so after 2 s nothing has moved
// by more than 1e-6 m and the balance holds to 1e-6 relative (the radial dampers and the slip
// forces vanish at rest).
TEST(Car, StandingCarsTyresCarryItsWeight) {
  Model still = car();
  still.v0.setZero();
  const MarkerTrace trace = run("reference", "rk45", 1e-10, 2.0, still);
  const double mass = totalMass(still);
  const Tyre& tyre = still.tyres[0];  // the four tyres are alike
  double load = 0.0;
  for (const char* wheel : {"wheel_front_left_centre", "wheel_front_right_centre", "wheel_rear_left_centre",
                            "wheel_rear_right_centre"}) {
    load += tyre.radialStiffness * (tyre.radius - trace.z(trace.t.size() - 1, wheel));
    EXPECT_NEAR(trace.z(trace.t.size() - 1, wheel), trace.z(0, wheel), 1e-7) << wheel;
  }
  EXPECT_NEAR(load, mass * 9.81, 1e-6 * mass * 9.81);
}

namespace {
// The seed's reference: the hybrid formulation with the trapezoidal rule at dt = 1e-3 s, 8 s.
const MarkerTrace& seedReference() {
  static const MarkerTrace trace = run("hybrid", "trapezoidal", 1e-3, 8.0);
  return trace;
}
}  // namespace

// The road and the car are symmetric about the x-z plane and so is the motion: the left and right
// wheel centres stay at the same height and the chassis on the centre line (1e-9 m: round-off
// of the two sides' opposite arithmetic).
TEST(Car, SymmetricCarOnASymmetricRoadMovesSymmetrically) {
  const MarkerTrace& trace = seedReference();
  double asymmetry = 0.0, drift = 0.0;
  for (std::size_t j = 0; j < trace.t.size(); ++j) {
    asymmetry = std::max(asymmetry, std::abs(trace.z(j, "wheel_front_left_centre") - trace.z(j, "wheel_front_right_centre")));
    asymmetry = std::max(asymmetry, std::abs(trace.z(j, "wheel_rear_left_centre") - trace.z(j, "wheel_rear_right_centre")));
    drift = std::max(drift, std::abs(trace.markers[j][*car().findMarker("chassis_front")].y()));
  }
  EXPECT_LT(asymmetry, 1e-9);
  EXPECT_LT(drift, 1e-9);
  // It went up the 0.3 m ramp and came down the three steps to the level it started from.
  double highest = 0.0;
  for (std::size_t j = 0; j < trace.t.size(); ++j) highest = std::max(highest, trace.z(j, "chassis_front"));
  EXPECT_GT(highest - trace.z(0, "chassis_front"), 0.28);
  EXPECT_NEAR(trace.z(trace.t.size() - 1, "chassis_front"), trace.z(0, "chassis_front"), 0.01);
}

// Coasting on level road (the first second, before the ramp at x = 8 m) only rolling resistance
// slows the car: each tyre's moment f_r Fz rho about its axle acts at the contact as a force
// f_r Fz, so the car decelerates at f_r g (the slips of the rolling wheels take 1e-4 of it). The
// wheels' rotational inertia adds to the translating mass: a = f_r g m / (m + sum I / rho^2),
// within 1 % of the measured speed loss (0.11365 against 0.11360 m/s^2 measured).
TEST(Car, CoastingOnLevelRoadLosesSpeedToRollingResistance) {
  const MarkerTrace& trace = seedReference();
  // Samples every 0.01 s: from 0.2 s (after the wheels' slip transients) to 1.2 s.
  const auto x = [&](std::size_t j) { return trace.markers[j][*car().findMarker("chassis_front")].x(); };
  const double v1 = (x(21) - x(19)) / 0.02, v2 = (x(121) - x(119)) / 0.02;
  const double mass = totalMass(car());
  const double rho = trace.z(0, "wheel_front_left_centre");
  const double spin = car().bodies[*car().findBody("wheel_front_left")].inertiaCom(1, 1);  // about the axle (y)
  const double predicted = car().tyres[0].rollingResistance * 9.81 * mass / (mass + 4.0 * spin / (rho * rho));
  EXPECT_NEAR((v1 - v2) / 1.0, predicted, 0.01 * predicted);
  std::printf("car coasting: deceleration %.5f m/s^2, rolling resistance predicts %.5f\n", v1 - v2, predicted);
}

// Seed 001 eq. (43) against the seed's reference (hybrid + trapezoidal at 1e-3 s) for the
// formulations that handle the car: the acceptance of the paper is 5e-3; the ODE formulations at
// rk45 1e-8 and the structural integrators at 0.01 s (measured 4e-6; the global formulation with
// its analytic tangent, tyres included) are far inside it.
TEST(Car, FormulationsAgreeWithinTheSeedsErrorMetric) {
  struct Case {
    const char* formulation;
    const char* integrator;
    double step;
  };
  for (const Case& c : {Case{"reference", "rk45", 1e-8}, Case{"semi-recursive", "rk45", 1e-8},
                        Case{"hybrid", "hht", 0.01}, Case{"hybrid", "newmark", 0.01}, Case{"global", "hht", 0.01}}) {
    const double error = seed001Error(run(c.formulation, c.integrator, c.step, 8.0), seedReference());
    EXPECT_LT(error, 5e-3) << c.formulation << " " << c.integrator;
    EXPECT_LT(error, 1e-4) << c.formulation << " " << c.integrator;
    std::printf("car %-15s %-8s %g: seed 001 eq. (43) error %.2e\n", c.formulation, c.integrator, c.step, error);
  }
}

// Large steps (docs/benchmarks.md, "Car: speed"): the hybrid formulation with HHT at 0.08 s, eight
// times the step above, 101 steps where one is halved at the stairs, stays inside the seed's
// acceptance of 5e-3 (measured 1.8e-4); so does the fastest pairing of the benchmark,
// generalized-alpha with rho_inf = 0.2 at 0.2 s and a Newton tolerance of 1e-6 (measured 3.2e-4; a
// step at the stairs is halved).
TEST(Car, HybridWithHhtAtTheLargeStepStaysWithinTheSeedsAcceptance) {
  const double error = seed001Error(run("hybrid", "hht", 0.08, 8.0), seedReference());
  EXPECT_LT(error, 5e-3);
  std::printf("car hybrid hht 0.08: seed 001 eq. (43) error %.2e\n", error);
  SimulationOptions fastest = test_models::runOptions("hybrid", "generalized-alpha", 0.2, 8.0);
  fastest.basicParameter = 0.2;
  fastest.augmentedLagrangian.newtonTolerance = 1e-6;
  const double fastestError = seed001Error(run(fastest), seedReference());
  EXPECT_LT(fastestError, 5e-3);
  std::printf("car hybrid generalized-alpha (rho_inf 0.2) 0.2, Newton 1e-6: seed 001 eq. (43) error %.2e\n",
              fastestError);
}

// Steering (issue 6 item 1: the rack driven by a prescribed input, here a step steer): the rack
// moves 5 mm to the left between 0.2 s and 0.7 s; the tie rods pull the steering arms, which lie
// behind the axle, so the front wheels turn right. At 5 m/s the lateral acceleration is only
// 0.3 m/s^2 and the tyres' slip angles are tiny, so the car turns at the kinematic yaw rate
// r = V delta / L (L = 2.6 m the wheelbase, delta the mean steer angle of the two knuckles):
// within 1 % at t = 1 s (measured 0.5 %; the 1 % covers the knuckles' camber in the measured angle
// and the unequal left and right steer angles of a linkage without Ackermann geometry).
TEST(Car, StepSteerTurnsAtTheKinematicYawRate) {
  Model steered = car();
  steered.prescribed[0].position = TimeFunction::smoothStep(0.2, 0.0, 0.7, 0.005);
  struct Turn final : SampleSink {
    int chassis = 0, left = 0, right = 0;
    double yawRate = 0.0, speed = 0.0, steer = 0.0;
    void write(const Sample& s) override {
      if (std::abs(s.t - 1.0) > 1e-9) return;
      yawRate = s.v[chassis + 2];  // angular velocity about the chassis's z axis (child coordinates)
      speed = s.v[chassis + 3];
      const auto angle = [&](int iq) { return 2.0 * std::atan2(s.q[iq + 3], s.q[iq]); };
      steer = 0.5 * (angle(left) + angle(right));
    }
  } turn;
  turn.chassis = steered.joints[*steered.findJoint("body")].iv;
  turn.left = steered.joints[*steered.findJoint("lower_ball_left")].iq;
  turn.right = steered.joints[*steered.findJoint("lower_ball_right")].iq;
  SimulationOptions o = test_models::runOptions("reference", "rk45", 1e-8, 1.0);
  const SimulationResult r = simulate(steered, o, {&turn});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LT(turn.steer, -0.02);  // a right turn of about 2 degrees
  const double kinematic = turn.speed * turn.steer / 2.6;
  EXPECT_NEAR(turn.yawRate, kinematic, 0.01 * std::abs(kinematic));
  std::printf("car step steer: steer %.4f rad, yaw rate %.5f rad/s, kinematic %.5f rad/s\n", turn.steer,
              turn.yawRate, kinematic);
}

// A one-cycle slalom of the rack (5 mm at 1 Hz from 0.1 s, the driver input of
// model/time_function.hpp) on the level road before the ramp. A faded sine over whole cycles
// integrates to zero, so at 5 m/s, where the car turns at the kinematic yaw rate V delta / L (the
// step-steer test above: 0.5 %), it must come out of the manoeuvre on its old heading and with no
// yaw rate: 0.4 s after the end, both below 5 % of their peaks during it (the chassis's yaw
// inertia and the tyres' slip put a lag of a few percent of the period on the response).
TEST(Car, SlalomReturnsToTheInitialHeading) {
  Model steered = car();
  steered.prescribed[0].position = TimeFunction::slalom(0.005, 1.0, 0.1, 1);
  struct Yaw final : SampleSink {
    int chassis = 0;
    double t = 0.0, rate = 0.0, heading = 0.0, peakRate = 0.0, peakHeading = 0.0;
    void write(const Sample& s) override {
      const double r = s.v[chassis + 2];  // angular velocity about the chassis's z axis
      if (s.t > 0.0) heading += 0.5 * (rate + r) * (s.t - t);  // trapezoidal rule over the samples
      t = s.t;
      rate = r;
      if (s.t <= 1.1) {
        peakRate = std::max(peakRate, std::abs(r));
        peakHeading = std::max(peakHeading, std::abs(heading));
      }
    }
  } yaw;
  yaw.chassis = steered.joints[*steered.findJoint("body")].iv;
  SimulationOptions o = test_models::runOptions("reference", "rk45", 1e-8, 1.5);
  o.outputInterval = 0.005;
  const SimulationResult r = simulate(steered, o, {&yaw});
  ASSERT_TRUE(r.ok) << r.error;
  // The manoeuvre does turn the car: the step steer's 0.063 rad/s for 5 mm of rack, times the
  // one-cycle window's peak (about 2/3), is 0.04 rad/s.
  EXPECT_GT(yaw.peakRate, 0.03);
  EXPECT_LT(std::abs(yaw.rate), 0.05 * yaw.peakRate);
  EXPECT_LT(std::abs(yaw.heading), 0.05 * yaw.peakHeading);
  std::printf("car slalom: peak yaw rate %.4f rad/s, peak heading %.4f rad; at 1.5 s %.2e rad/s, %.2e rad\n",
              yaw.peakRate, yaw.peakHeading, yaw.rate, yaw.heading);
}

}  // namespace ARTICULA_TEST_FILE
