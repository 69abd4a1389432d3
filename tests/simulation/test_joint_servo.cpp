// A joint_spring_damper with a `reference` is a PD servo on a set-point trajectory:
// tau = -k (q - q_r(t)) - c (qdot - q_r'(t)). On a rotor of inertia I about a fixed axis this is
// the linear system I q'' + c q' + k q = k q_r + c q_r', whose steady-state response to
// q_r = A sin(w t) is known in closed form; the tree (rk45) and the global formulation
// (trapezoidal) must both reproduce it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>

#include "articula/dynamics/force_elements.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"
#include "run_options.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// I = 1.5 kg m^2 about z, k = 150 N m/rad, c = 30 N m s/rad: damping ratio 1, every transient
// decays like t e^{-10 t}, below 1e-15 of the amplitude by t = 4 s.
const char* kServoRotor = R"(
gravity: [0, -9.81, 0]
bodies:
  - {name: rotor, mass: 2, inertia: [0.8, 0.8, 1.5]}
joints:
  - {name: hub, type: revolute, parent: ground, child: rotor, axis: [0, 0, 1]}
forces:
  - {name: servo, type: joint_spring_damper, joint: hub, stiffness: 150, damping: 30,
     reference: {type: sine, amplitude: 0.4, frequency: 0.5, offset: 0}}
)";
constexpr double kI = 1.5, kK = 150.0, kC = 30.0, kA = 0.4, kW = 2.0 * 3.14159265358979323846 * 0.5;

// The steady state q(t) = Re[G A e^{i w t}] with G = (k + i c w) / (k - I w^2 + i c w), written
// for the sine: A |G| sin(w t + arg G).
double steadyState(double t) {
  const std::complex<double> G = std::complex<double>(kK, kC * kW) / std::complex<double>(kK - kI * kW * kW, kC * kW);
  return kA * std::abs(G) * std::sin(kW * t + std::arg(G));
}

struct Trace final : SampleSink {
  std::vector<double> t, q;
  void write(const Sample& s) override {
    t.push_back(s.t);
    q.push_back(s.q[0]);
  }
};

double worstSteadyStateError(const std::string& formulation, const std::string& integrator, double toleranceOrStep) {
  const Model model = parseModelYaml(kServoRotor, "servo_rotor").build();
  Trace trace;
  SimulationOptions o = test_models::runOptions(formulation, integrator, toleranceOrStep, 6.0);
  o.outputInterval = 0.05;
  const SimulationResult r = simulate(model, o, {&trace});
  EXPECT_TRUE(r.ok) << formulation << ": " << r.error;
  EXPECT_FALSE(r.conservative);  // the servo does work on the rotor
  double worst = 0.0;
  for (std::size_t k = 0; k < trace.t.size(); ++k)
    if (trace.t[k] >= 4.0) worst = std::max(worst, std::abs(trace.q[k] - steadyState(trace.t[k])));
  return worst;
}

}  // namespace

TEST(JointServo, LoadIsThePdLawOnTheReference) {
  const Model model = parseModelYaml(kServoRotor, "servo_rotor").build();
  Workspace ws(model);
  Eigen::VectorXd q(1), v(1);
  q << 0.1;
  v << -0.3;
  const double t = 0.3;
  evaluateForceElements(model, ws, t, q, v);
  const double r = kA * std::sin(kW * t), rdot = kA * kW * std::cos(kW * t);
  EXPECT_NEAR(ws.tau[0], -kK * (q[0] - r) - kC * (v[0] - rdot), 1e-12);
}

// rk45 at rtol 1e-10 holds the state to about 1e-10 relative, 4e-11 rad on this amplitude (2.2e-12
// measured); 1e-10 rad.
TEST(JointServo, TreeFollowsTheClosedFormSteadyState) {
  EXPECT_LT(worstSteadyStateError("aba", "rk45", 1e-10), 1e-10);
}

// The trapezoidal rule's steady-state response to a forcing of frequency w is off by about
// (w h)^2 / 12 = 8e-7 relative at w h = 3.1e-3, 3.3e-7 rad on this amplitude (2.5e-7 measured); 1e-6.
TEST(JointServo, GlobalFormulationFollowsTheClosedFormSteadyState) {
  EXPECT_LT(worstSteadyStateError("global", "trapezoidal", 1e-3), 1e-6);
}

}  // namespace ARTICULA_TEST_FILE
