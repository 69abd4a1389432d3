// Explicit integrators on ODEs with exact solutions.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/core/error.hpp"
#include "articula/integrate/integrator.hpp"

using namespace articula;

namespace {

// x'' = -w^2 x as x = (position, velocity); exact: x = cos(w t), v = -w sin(w t).
struct Oscillator final : OdeSystem {
  double w = 2.0;
  int afterStepCalls = 0;
  bool nudge = false;  // afterStep adds a known offset to test that corrections are honoured
  int size() const override { return 2; }
  void derivative(double, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
    xdot[0] = x[1];
    xdot[1] = -w * w * x[0];
  }
  bool afterStep(double, Eigen::VectorXd& x) override {
    ++afterStepCalls;
    if (!nudge) return false;
    x[0] += 1e-3;
    return true;
  }
  Eigen::Vector2d exact(double t) const { return {std::cos(w * t), -w * std::sin(w * t)}; }
};

double finalError(const std::string& method, double dt, double tEnd) {
  Oscillator osc;
  IntegratorOptions o;
  o.dt = dt;
  auto integ = makeIntegrator(method, o);
  integ->initialize(osc, 0.0, Eigen::Vector2d(1.0, 0.0));
  while (integ->time() < tEnd) integ->step(tEnd);
  return (integ->state() - osc.exact(tEnd)).norm();
}

}  // namespace

// Halving the step divides the global error by 2^p: p = 1 for Euler, 4 for RK4.
// Measured orders land within 0.1 of the theory at these steps (asymptotic regime).
TEST(Integrators, FixedStepOrdersOfConvergence) {
  const double euler = std::log2(finalError("euler", 1e-3, 1.0) / finalError("euler", 5e-4, 1.0));
  const double rk4 = std::log2(finalError("rk4", 1e-2, 1.0) / finalError("rk4", 5e-3, 1.0));
  EXPECT_NEAR(euler, 1.0, 0.1);
  EXPECT_NEAR(rk4, 4.0, 0.1);
}

TEST(Integrators, Rk45MeetsToleranceWithFewSteps) {
  Oscillator osc;
  IntegratorOptions o;
  o.dt = 0.0;
  o.rtol = o.atol = 1e-10;
  auto integ = makeIntegrator("rk45", o);
  const double tEnd = 10 * 2 * std::numbers::pi / osc.w;  // 10 periods
  integ->initialize(osc, 0.0, Eigen::Vector2d(1.0, 0.0));
  double worstEnergy = 0.0;
  while (integ->time() < tEnd) {
    integ->step(tEnd);
    const auto& x = integ->state();
    worstEnergy = std::max(worstEnergy, std::abs(0.5 * x[1] * x[1] + 0.5 * osc.w * osc.w * x[0] * x[0] - 0.5 * osc.w * osc.w));
  }
  EXPECT_EQ(integ->time(), tEnd);  // lands exactly on the end time
  // Local error <= 1e-10 per step over ~a thousand steps: global error ~1e-8 at most.
  EXPECT_LT((integ->state() - osc.exact(tEnd)).norm(), 1e-7);
  EXPECT_LT(worstEnergy / (0.5 * osc.w * osc.w), 1e-8);
  // RK4 needs ~h = 2e-3 (5000 steps over 10 periods) for 1e-7; rk45 far fewer.
  EXPECT_LT(integ->stats().steps, 2000);
  // FSAL: 6 evaluations per accepted or rejected step, plus the initial ones.
  EXPECT_LE(integ->stats().evaluations, 6 * (integ->stats().steps + integ->stats().rejected) + 3);
}

// Dense output matches the exact solution inside steps: RK45's continuous extension is
// 4th order (error ~ tolerance), RK4's Hermite interpolant is 3rd order (h^4 ~ 1e-8 at h = 1e-2).
TEST(Integrators, DenseOutputIsAccurate) {
  for (const char* method : {"rk45", "rk4"}) {
    Oscillator osc;
    IntegratorOptions o;
    o.dt = std::string(method) == "rk4" ? 1e-2 : 0.0;
    o.rtol = o.atol = 1e-10;
    auto integ = makeIntegrator(method, o);
    integ->initialize(osc, 0.0, Eigen::Vector2d(1.0, 0.0));
    Eigen::VectorXd x(2);
    double worst = 0.0;
    while (integ->time() < 3.0) {
      const double t0 = integ->time();
      integ->step(3.0);
      for (double s : {0.25, 0.5, 0.75}) {
        const double t = t0 + s * (integ->time() - t0);
        integ->interpolate(t, x);
        worst = std::max(worst, (x - osc.exact(t)).norm());
      }
    }
    EXPECT_LT(worst, std::string(method) == "rk4" ? 1e-6 : 1e-8) << method;
  }
}

TEST(Integrators, AfterStepIsCalledOncePerStepAndHonoured) {
  for (const char* method : {"euler", "rk4", "rk45"}) {
    Oscillator osc;
    osc.nudge = true;
    osc.w = 0.0;  // x' = v = 0: only the nudges move x
    IntegratorOptions o;
    o.dt = 0.1;
    auto integ = makeIntegrator(method, o);
    integ->initialize(osc, 0.0, Eigen::Vector2d(1.0, 0.0));
    while (integ->time() < 1.0) integ->step(1.0);
    EXPECT_EQ(osc.afterStepCalls, integ->stats().steps) << method;
    EXPECT_NEAR(integ->state()[0], 1.0 + 1e-3 * static_cast<double>(integ->stats().steps), 1e-12) << method;
    Eigen::VectorXd x(2);
    integ->interpolate(integ->time(), x);
    EXPECT_NEAR(x[0], integ->state()[0], 1e-12) << method;  // dense output ends on the corrected state
  }
}

TEST(Integrators, Rk4CostsFourEvaluationsPerStep) {
  Oscillator osc;
  IntegratorOptions o;
  o.dt = 0.01;
  auto integ = makeIntegrator("rk4", o);
  integ->initialize(osc, 0.0, Eigen::Vector2d(1.0, 0.0));
  for (int k = 0; k < 10; ++k) integ->step(1.0);
  EXPECT_EQ(integ->stats().evaluations, 1 + 4 * 10);
}

TEST(Integrators, BadNamesAndOptionsAreRejectedWithReasons) {
  IntegratorOptions o;
  try {
    makeIntegrator("rk5", o);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown integrator 'rk5' (valid: euler, rk4, rk45)"), std::string::npos) << e.what();
  }
  o.dt = -1.0;
  EXPECT_THROW(makeIntegrator("rk4", o), Error);
  o.dt = 1e-3;
  o.rtol = 0.0;
  try {
    makeIntegrator("rk45", o);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rtol"), std::string::npos) << e.what();
  }
}

// A derivative that blows up makes rk45 shrink its step until dtMin, then fail with the time.
TEST(Integrators, Rk45ReportsStepSizeCollapse) {
  struct Blowup final : OdeSystem {
    int size() const override { return 1; }
    void derivative(double t, const Eigen::VectorXd&, Eigen::VectorXd& xdot) override {
      xdot[0] = t > 0.5 ? std::numeric_limits<double>::infinity() : 1.0;
    }
  } sys;
  IntegratorOptions o;
  o.dt = 0.01;
  auto integ = makeIntegrator("rk45", o);
  integ->initialize(sys, 0.0, Eigen::VectorXd::Zero(1));
  try {
    while (integ->time() < 1.0) integ->step(1.0);
    FAIL() << "no exception";
  } catch (const SimulationError& e) {
    EXPECT_NEAR(e.time(), 0.5, 1e-6);
    EXPECT_NE(std::string(e.what()).find("dtMin"), std::string::npos) << e.what();
  }
}
