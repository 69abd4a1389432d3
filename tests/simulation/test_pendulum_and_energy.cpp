// Whole runs: the pendulum period against the exact solution and energy
// conservation of conservative open chains.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <string>

#include "articula/model/generators.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// Complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean.
double ellipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 40 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return std::numbers::pi / (2.0 * a);
}

// Times at which x(t) crosses zero upwards, by linear interpolation between samples.
std::vector<double> upwardCrossings(const std::vector<double>& t, const std::vector<double>& x) {
  std::vector<double> c;
  for (std::size_t i = 1; i < t.size(); ++i)
    if (x[i - 1] < 0.0 && x[i] >= 0.0) c.push_back(t[i - 1] + (t[i] - t[i - 1]) * (-x[i - 1]) / (x[i] - x[i - 1]));
  return c;
}

SimulationOptions tightRk45(double tEnd, double outputInterval) {
  SimulationOptions o;
  o.integrator = "rk45";
  o.integratorOptions.rtol = 1e-12;
  o.integratorOptions.atol = 1e-12;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  o.outputInterval = outputInterval;
  return o;
}

}  // namespace

// A single uniform rod (the chain's link: 0.5 m, 1 kg) released at 0.1 rad from the
// vertical: the period is 4 K(sin(theta0/2)) / w0 with w0^2 = m g d / I_O, exact for any
// amplitude. Required agreement 1e-6 relative; with rk45 at 1e-12 and crossing times
// interpolated over 1e-4 s samples (error ~ h^2 w^2 ~ 1e-7 s on a 1.16 s period) the
// achievable error is ~1e-7.
TEST(Pendulum, PeriodMatchesExactSolution) {
  // Hanging straight down is q = -pi/2 for a link along x with gravity -y.
  const double theta0 = 0.1;
  Model pendulum = makeChain(1, false);
  pendulum.q0[0] = -std::numbers::pi / 2 + theta0;
  const double m = 1.0, g = 9.81, d = 0.25;
  const double IO = pendulum.bodies[1].inertiaCom(2, 2) + m * d * d;
  const double w0 = std::sqrt(m * g * d / IO);
  const double exact = 4.0 * ellipticK(std::sin(theta0 / 2)) / w0;

  test_models::Recorder rec;
  const SimulationResult r = simulate(pendulum, tightRk45(6.0, 1e-4), {&rec});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> angle;
  for (const auto& q : rec.q) angle.push_back(q[0] + std::numbers::pi / 2);
  const auto c = upwardCrossings(rec.t, angle);
  ASSERT_GE(c.size(), 4u);
  const double period = (c.back() - c.front()) / static_cast<double>(c.size() - 1);
  EXPECT_NEAR(period / exact - 1.0, 0.0, 1e-6) << "period " << period << " exact " << exact;
}

// Two uniform 1 m, 1 kg rods hanging from the origin, released at 0.5 rad (models/double_pendulum.yaml).
Model doublePendulum() {
  ModelBuilder b;
  for (int i = 1; i <= 2; ++i) {
    BodySpec rod;
    rod.name = "rod" + std::to_string(i);
    rod.mass = 1.0;
    rod.com = Vec3(0.5, 0, 0);
    rod.inertia = boxInertia(1.0, Vec3(1.0, 0.02, 0.02));
    b.addBody(rod);
    JointSpec j;
    j.name = "j" + std::to_string(i);
    j.parent = i == 1 ? "ground" : "rod1";
    j.child = rod.name;
    j.position = i == 1 ? Vec3::Zero() : Vec3(1, 0, 0);
    j.q0 = {i == 1 ? -std::numbers::pi / 2 + 0.5 : 0.0};
    b.addJoint(j);
  }
  return b.build();
}

// Conservative systems with rk45 at tolerance 1e-10 (rtol = atol) keep the total energy
// to 1e-8 relative over 10 s (the acceptance bound). The drift is integration
// error: it falls tenfold when the tolerance does.
TEST(EnergyConservation, DoublePendulumAndChain8) {
  for (const Model& model : {doublePendulum(), makeChain(8, false), makeChain(8, true)}) {
    SimulationOptions o;
    o.integratorOptions.rtol = 1e-10;
    o.integratorOptions.atol = 1e-10;
    o.integratorOptions.dt = 0.0;
    o.tEnd = 10.0;
    o.outputInterval = 0.01;
    test_models::Recorder rec;
    const SimulationResult r = simulate(model, o, {&rec});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(rec.t.back(), 10.0);
    EXPECT_LT(r.maxRelativeEnergyDrift, 1e-8) << model.name;
    EXPECT_GT(r.steps, 100);
  }
}

// The three tree formulations give the same trajectory on an open chain.
TEST(Formulations, AgreeOnOpenChain) {
  const Model model = makeChain(5, true);
  std::vector<Eigen::VectorXd> finals;
  for (const char* f : {"aba", "crba", "reference"}) {
    SimulationOptions o;
    o.formulation = f;
    o.integrator = "rk4";
    o.integratorOptions.dt = 1e-3;
    o.tEnd = 1.0;
    o.outputInterval = 0.1;
    test_models::Recorder rec;
    const SimulationResult r = simulate(model, o, {&rec});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.formulation, f);
    finals.push_back(rec.q.back());
  }
  // Same integrator and step: only rounding differs between formulations.
  EXPECT_LT((finals[0] - finals[1]).norm(), 1e-10);
  EXPECT_LT((finals[0] - finals[2]).norm(), 1e-10);
}

}  // namespace ARTICULA_TEST_FILE
