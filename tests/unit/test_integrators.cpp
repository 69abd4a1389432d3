// Explicit integrators (euler, heun, rk4, rk45) on ODEs with exact solutions: convergence orders,
// tolerance and cost of the adaptive method, dense output, landing on tEnd, afterStep handling,
// evaluation counts, and the factory's error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <string>

#include "articula/core/error.hpp"
#include "articula/integrate/integrator.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// x' = -lambda x (one component per rate); exact x_i(t) = exp(-lambda_i t) for x_i(0) = 1.
struct Decay final : OdeSystem {
  Eigen::Vector2d lambda{1.0, 3.0};
  int size() const override { return 2; }
  void derivative(double, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
    xdot = -lambda.cwiseProduct(x);
  }
  Eigen::VectorXd x0() const { return Eigen::Vector2d(1.0, 1.0); }
  Eigen::VectorXd exact(double t) const { return (-lambda * t).array().exp().matrix(); }
};

// x'' = -w^2 x as (position, velocity); exact x = cos(w t), v = -w sin(w t).
struct Oscillator final : OdeSystem {
  double w = 2.0;
  int size() const override { return 2; }
  void derivative(double, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
    xdot[0] = x[1];
    xdot[1] = -w * w * x[0];
  }
  Eigen::VectorXd x0() const { return Eigen::Vector2d(1.0, 0.0); }
  Eigen::VectorXd exact(double t) const { return Eigen::Vector2d(std::cos(w * t), -w * std::sin(w * t)); }
  double energy(const Eigen::VectorXd& x) const { return 0.5 * x[1] * x[1] + 0.5 * w * w * x[0] * x[0]; }
  double period() const { return 2.0 * std::numbers::pi / w; }
};

IntegratorOptions withDt(double dt) {
  IntegratorOptions o;
  o.dt = dt;
  return o;
}

IntegratorOptions tight() {  // rk45 with an automatic first step and rtol = atol = 1e-10
  IntegratorOptions o;
  o.dt = 0.0;
  o.rtol = o.atol = 1e-10;
  return o;
}

template <class System>
std::unique_ptr<Integrator> run(const std::string& method, const IntegratorOptions& o, System& sys, double tEnd) {
  auto integ = makeIntegrator(method, o);
  integ->initialize(sys, 0.0, sys.x0());
  while (integ->time() < tEnd) integ->step(tEnd);
  return integ;
}

template <class System>
double finalError(const std::string& method, double dt, double tEnd) {
  System sys;
  auto integ = run(method, withDt(dt), sys, tEnd);
  return (integ->state() - sys.exact(tEnd)).norm();
}

// Measured order p from halving the step: the global error e(h) = C h^p (1 + O(h)), so
// e(h) / e(h/2) = 2^p and p = log2 of the ratio.
template <class System>
double measuredOrder(const std::string& method, double dt, double tEnd) {
  return std::log2(finalError<System>(method, dt, tEnd) / finalError<System>(method, dt / 2, tEnd));
}

std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace

// Euler: ratio 2 (p = 1). The O(h) correction to the ratio is ~ lambda h / 2 or w h / 2, i.e.
// 1.5e-3 at h = 1e-3 for the fastest rate (measured: p = 1.0003 and 1.0010): tolerance 0.01.
TEST(IntegratorTest, EulerConvergesWithOrderOne) {
  EXPECT_NEAR(measuredOrder<Decay>("euler", 1e-3, 1.0), 1.0, 0.01);
  EXPECT_NEAR(measuredOrder<Oscillator>("euler", 1e-3, 1.0), 1.0, 0.01);
}

// Heun: ratio 4 (p = 2); the errors at h = 1e-2 (~1e-5) are far above round-off.
TEST(IntegratorTest, HeunConvergesWithOrderTwo) {
  EXPECT_NEAR(measuredOrder<Decay>("heun", 1e-2, 1.0), 2.0, 0.05);
  EXPECT_NEAR(measuredOrder<Oscillator>("heun", 1e-2, 1.0), 2.0, 0.05);
}

// RK4: ratio 16 (p = 4). At h = 1e-2 the correction is ~ w h = 2e-2 relative (measured:
// p = 4.006 decay, 3.991 oscillator), and the errors (3e-11, 3e-9) are still far above
// round-off (~1e-14 after 200 steps): tolerance 0.05.
TEST(IntegratorTest, Rk4ConvergesWithOrderFour) {
  EXPECT_NEAR(measuredOrder<Decay>("rk4", 1e-2, 1.0), 4.0, 0.05);
  EXPECT_NEAR(measuredOrder<Oscillator>("rk4", 1e-2, 1.0), 4.0, 0.05);
}

// rtol = atol = 1e-10 over 10 periods: each step's local error is held at the tolerance, and
// the ~1600 steps add up to ~1e-9 (measured 1.6e-9 at the end, energy 3e-9 relative): bounds
// 1e-8 for both. RK4 given four times rk45's step count (2.7 times its evaluations) is still
// less accurate (measured 9e-9): the adaptive fifth-order pair needs far fewer steps.
TEST(IntegratorTest, Rk45MeetsToleranceWithFarFewerStepsThanRk4) {
  Oscillator osc;
  const double tEnd = 10 * osc.period();
  auto integ = makeIntegrator("rk45", tight());
  integ->initialize(osc, 0.0, osc.x0());
  const double e0 = osc.energy(osc.x0());
  double worstEnergy = 0.0;
  while (integ->time() < tEnd) {
    integ->step(tEnd);
    worstEnergy = std::max(worstEnergy, std::abs(osc.energy(integ->state()) - e0) / e0);
  }
  EXPECT_EQ(integ->time(), tEnd);
  const double error = (integ->state() - osc.exact(tEnd)).norm();
  EXPECT_LT(error, 1e-8);
  EXPECT_LT(worstEnergy, 1e-8);

  const long steps = integ->stats().steps;
  const double rk4Error = finalError<Oscillator>("rk4", tEnd / static_cast<double>(4 * steps), tEnd);
  EXPECT_GT(rk4Error, error) << "rk45 took " << steps << " steps";
}

// Dense output at nine interior points of every step over [0, 3], against the exact solution:
// the total error (worst), and how much it exceeds the error at the step's ends (excess: what
// the interpolation itself adds).
//  - rk4, h = 1e-2: the cubic Hermite interpolant errs by at most h^4/384 max|x''''| =
//    1e-8/384 * w^5 = 8.3e-10 (velocity; measured excess 5e-10): bound 1e-9. The total adds
//    rk4's global error, ~5e-9 per unit time (measured 1.5e-8 at t = 3): bound 2e-8.
//  - rk45, rtol = atol = 1e-10: the continuous extension is fourth order, its error of the size
//    of the local error the controller holds to ~1e-10 (measured excess 4e-11): bound 2e-10;
//    total measured 2.6e-10 after 157 steps: bound 1e-9.
TEST(IntegratorTest, DenseOutputMatchesExactSolution) {
  for (const char* method : {"rk4", "rk45"}) {
    Oscillator osc;
    auto integ = makeIntegrator(method, std::string(method) == "rk4" ? withDt(1e-2) : tight());
    integ->initialize(osc, 0.0, osc.x0());
    Eigen::VectorXd x(2);
    double worst = 0.0, worstExcess = 0.0;
    while (integ->time() < 3.0) {
      const double errStart = (integ->state() - osc.exact(integ->time())).norm();
      integ->step(3.0);
      const double errEnd = (integ->state() - osc.exact(integ->time())).norm();
      const double t0 = integ->time() - integ->lastStepSize();
      for (int k = 1; k < 10; ++k) {
        const double t = t0 + 0.1 * k * integ->lastStepSize();
        integ->interpolate(t, x);
        const double e = (x - osc.exact(t)).norm();
        worst = std::max(worst, e);
        worstExcess = std::max(worstExcess, e - std::max(errStart, errEnd));
      }
      integ->interpolate(integ->time(), x);
      EXPECT_EQ(x, integ->state()) << method;  // exact at the step's end
    }
    const bool rk4 = std::string(method) == "rk4";
    EXPECT_LT(worst, rk4 ? 2e-8 : 1e-9) << method;
    EXPECT_LT(worstExcess, rk4 ? 1e-9 : 2e-10) << method;
  }
}

// Euler's dense output is exact at both ends of the step and within its O(h) error between.
TEST(IntegratorTest, EulerDenseOutputIsBoundedByItsStepError) {
  Decay sys;
  auto integ = makeIntegrator("euler", withDt(1e-3));
  integ->initialize(sys, 0.0, sys.x0());
  Eigen::VectorXd x(2);
  integ->interpolate(0.0, x);
  EXPECT_EQ(x, sys.x0());  // before any step: the initial state
  integ->step(1.0);
  integ->interpolate(0.0, x);
  EXPECT_EQ(x, sys.x0());
  integ->interpolate(5e-4, x);
  EXPECT_LT((x - sys.exact(5e-4)).norm(), 1e-5);  // local error ~ lambda^2 h^2 / 2 = 4.5e-6
}

TEST(IntegratorTest, LastStepLandsExactlyOnEndTime) {
  for (const std::string method : {"euler", "rk4", "rk45"}) {
    Oscillator osc;
    auto integ = makeIntegrator(method, withDt(0.1));
    integ->initialize(osc, 0.0, osc.x0());
    // 0.37 is not a multiple of dt: the last step is shortened.
    const double t1 = integ->step(0.37);
    EXPECT_EQ(t1, integ->time()) << method;
    if (method != "rk45") {
      EXPECT_EQ(t1, 0.1) << method;
    }
    while (integ->time() < 0.37) integ->step(0.37);
    EXPECT_EQ(integ->time(), 0.37) << method;
    if (method != "rk45") {
      EXPECT_EQ(integ->stats().steps, 4) << method;
      EXPECT_NEAR(integ->lastStepSize(), 0.07, 1e-12) << method;
    }
    // Stepping to intermediate output times lands on each of them.
    for (double tOut : {0.5, 0.75, 1.0}) {
      while (integ->time() < tOut) integ->step(tOut);
      EXPECT_EQ(integ->time(), tOut) << method;
    }
    // An end time already reached is a no-op.
    const long steps = integ->stats().steps;
    EXPECT_EQ(integ->step(0.9), 1.0);
    EXPECT_EQ(integ->stats().steps, steps);
  }
}

// Ten steps of 0.1 accumulate round-off (0.1 * 10 != 1.0 in binary): no sliver of an 11th step.
TEST(IntegratorTest, NoSliverStepFromRoundOff) {
  for (const char* method : {"euler", "rk4"}) {
    Oscillator osc;
    auto integ = run(method, withDt(0.1), osc, 1.0);
    EXPECT_EQ(integ->stats().steps, 10) << method;
    EXPECT_EQ(integ->time(), 1.0) << method;
  }
}

// afterStep sees every accepted step once, including for rk45 after rejected attempts.
TEST(IntegratorTest, AfterStepIsCalledOncePerAcceptedStep) {
  struct Counting final : OdeSystem {
    Oscillator osc;
    long calls = 0;
    double lastT = -1.0;
    int size() const override { return 2; }
    void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override { osc.derivative(t, x, xdot); }
    bool afterStep(double t, Eigen::VectorXd&) override {
      ++calls;
      lastT = t;
      return false;
    }
    Eigen::VectorXd x0() const { return osc.x0(); }
  };
  for (const char* method : {"euler", "rk4", "rk45"}) {
    Counting sys;
    IntegratorOptions o = tight();
    o.dt = 1.0;  // far too large a first step for rk45: forces rejections
    if (std::string(method) != "rk45") o.dt = 1e-2;
    auto integ = run(method, o, sys, 2.0);
    EXPECT_EQ(sys.calls, integ->stats().steps) << method;
    EXPECT_EQ(sys.lastT, 2.0) << method;
    if (std::string(method) == "rk45") {
      EXPECT_GT(integ->stats().rejected, 0);
    }
  }
}

// afterStep doubles the state once, after the first step. The ODE is linear, so the corrected
// trajectory is twice the uncorrected one. With fixed steps that holds to round-off; rk45 must
// also re-evaluate its FSAL stage (a stale one would be wrong by ~h x), and lands within its
// tolerance of 2 exp(-lambda t). The dense output ends on the corrected state.
TEST(IntegratorTest, AfterStepModificationIsHonoured) {
  struct Doubling final : OdeSystem {
    Decay decay;
    bool done = false;
    int size() const override { return 2; }
    void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override { decay.derivative(t, x, xdot); }
    bool afterStep(double, Eigen::VectorXd& x) override {
      if (done) return false;
      done = true;
      x *= 2.0;
      return true;
    }
    Eigen::VectorXd x0() const { return decay.x0(); }
  };
  for (const std::string method : {"euler", "rk4", "rk45"}) {
    Doubling sys;
    const IntegratorOptions o = method == "rk45" ? tight() : withDt(1e-2);
    auto integ = makeIntegrator(method, o);
    integ->initialize(sys, 0.0, sys.x0());
    integ->step(1.0);
    Eigen::VectorXd x(2);
    integ->interpolate(integ->time(), x);
    EXPECT_EQ(x, integ->state()) << method;
    while (integ->time() < 1.0) integ->step(1.0);

    if (method == "rk45") {
      EXPECT_LT((integ->state() - 2.0 * sys.decay.exact(1.0)).norm(), 1e-8);
      // FSAL: 6 per attempted step, 2 at the start (automatic first step), 1 for the correction.
      const IntegratorStats& s = integ->stats();
      EXPECT_EQ(s.evaluations, 2 + 6 * (s.steps + s.rejected) + 1);
    } else {
      Decay plain;
      auto reference = run(method, o, plain, 1.0);
      EXPECT_LT((integ->state() - 2.0 * reference->state()).norm(), 1e-14) << method;
    }
  }
}

// Evaluation counts: euler 1 and rk4 4 per step (the end derivative is the next first stage);
// rk45 6 per attempted step (FSAL), plus f(t0) and, with dt = 0, the starting-step probe.
TEST(IntegratorTest, StatsCountEvaluations) {
  Oscillator osc;
  auto euler = run("euler", withDt(0.01), osc, 1.0);
  EXPECT_EQ(euler->stats().evaluations, 1 + euler->stats().steps);
  auto rk4 = run("rk4", withDt(0.01), osc, 1.0);
  EXPECT_EQ(rk4->stats().steps, 100);
  EXPECT_EQ(rk4->stats().evaluations, 1 + 4 * 100);
  EXPECT_EQ(rk4->stats().rejected, 0);

  auto automatic = run("rk45", tight(), osc, 3.0);
  const IntegratorStats& a = automatic->stats();
  EXPECT_EQ(a.rejected, 0);
  EXPECT_EQ(a.evaluations, 2 + 6 * a.steps);

  IntegratorOptions big = tight();
  big.dt = 1.0;  // rejected at first
  auto given = run("rk45", big, osc, 3.0);
  const IntegratorStats& g = given->stats();
  EXPECT_GT(g.rejected, 0);
  EXPECT_EQ(g.evaluations, 1 + 6 * (g.steps + g.rejected));
}

TEST(IntegratorTest, Rk45RespectsDtMax) {
  Oscillator osc;
  IntegratorOptions o;
  o.dt = 0.0;
  o.rtol = o.atol = 1e-6;  // loose: would take steps far above 0.01 unbounded
  o.dtMax = 0.01;
  auto integ = makeIntegrator("rk45", o);
  integ->initialize(osc, 0.0, osc.x0());
  while (integ->time() < 1.0) {
    integ->step(1.0);
    EXPECT_LE(integ->lastStepSize(), 0.01 * (1 + 1e-12));
  }
  EXPECT_GE(integ->stats().steps, 100);
}

// A first step so large that the stages leave the region where f is defined (NaN there): the
// non-finite error estimate rejects the step and shrinks it, and the run then succeeds.
TEST(IntegratorTest, Rk45RecoversFromNonFiniteTrialStep) {
  struct Guarded final : OdeSystem {
    Oscillator osc;
    int size() const override { return 2; }
    void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
      osc.derivative(t, x, xdot);
      if (x.cwiseAbs().maxCoeff() > 10.0) xdot.setConstant(std::numeric_limits<double>::quiet_NaN());
    }
    Eigen::VectorXd x0() const { return osc.x0(); }
  } sys;
  IntegratorOptions o = tight();
  o.dt = 100.0;
  auto integ = run("rk45", o, sys, 2.0);
  EXPECT_GT(integ->stats().rejected, 0);
  EXPECT_LT((integ->state() - sys.osc.exact(2.0)).norm(), 1e-8);
}

// A derivative that becomes infinite at t = 0.5: rk45 shrinks its step until dtMin, then
// fails with the time it reached and a message that names dtMin.
TEST(IntegratorTest, Rk45ReportsStepSizeCollapse) {
  struct Blowup final : OdeSystem {
    int size() const override { return 1; }
    void derivative(double t, const Eigen::VectorXd&, Eigen::VectorXd& xdot) override {
      xdot[0] = t > 0.5 ? std::numeric_limits<double>::infinity() : 1.0;
    }
  } sys;
  auto integ = makeIntegrator("rk45", withDt(0.01));
  integ->initialize(sys, 0.0, Eigen::VectorXd::Zero(1));
  try {
    while (integ->time() < 1.0) integ->step(1.0);
    FAIL() << "no exception";
  } catch (const SimulationError& e) {
    EXPECT_NEAR(e.time(), 0.5, 1e-9);
    EXPECT_EQ(e.step(), integ->stats().steps + 1);
    const std::string what = e.what();
    EXPECT_NE(what.find("step size fell below dtMin = 1e-12"), std::string::npos) << what;
    EXPECT_NE(what.find("not finite"), std::string::npos) << what;
  }
}

TEST(IntegratorTest, NamesAndFactory) {
  const std::vector<std::string_view> expected{"euler", "heun", "rk4", "rk45"};
  EXPECT_EQ(integratorNames(), expected);
  for (std::string_view name : integratorNames()) {
    auto integ = makeIntegrator(name, IntegratorOptions());
    EXPECT_EQ(integ->name(), name);
    EXPECT_EQ(integ->adaptive(), name == "rk45");
  }
}

TEST(IntegratorTest, UnknownNameListsValidOnes) {
  const std::string msg = messageOf([] { makeIntegrator("rk5", IntegratorOptions()); });
  EXPECT_NE(msg.find("unknown integrator 'rk5' (valid: euler, heun, rk4, rk45, trapezoidal, newmark, hht, generalized-alpha)"),
            std::string::npos)
      << msg;
  // The name is checked before the options, whose message would be misleading here.
  const std::string withBadDt = messageOf([] { makeIntegrator("RK4", withDt(-1.0)); });
  EXPECT_NE(withBadDt.find("unknown integrator 'RK4'"), std::string::npos) << withBadDt;
}

TEST(IntegratorTest, BadOptionsAreRejectedNamingTheOption) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* method;
    void (*set)(IntegratorOptions&, double);
    double value;
    const char* option;
  };
  const auto dt = [](IntegratorOptions& o, double v) { o.dt = v; };
  const auto rtol = [](IntegratorOptions& o, double v) { o.rtol = v; };
  const auto atol = [](IntegratorOptions& o, double v) { o.atol = v; };
  const auto dtMin = [](IntegratorOptions& o, double v) { o.dtMin = v; };
  const auto dtMax = [](IntegratorOptions& o, double v) { o.dtMax = v; };
  const Case cases[] = {
      {"euler", dt, 0.0, "'dt'"},   {"rk4", dt, -1e-3, "'dt'"},   {"rk4", dt, nan, "'dt'"},
      {"rk4", dt, inf, "'dt'"},     {"rk45", dt, -1.0, "'dt'"},   {"rk45", dt, inf, "'dt'"},
      {"rk45", rtol, 0.0, "'rtol'"}, {"rk45", rtol, nan, "'rtol'"}, {"rk45", atol, -1e-9, "'atol'"},
      {"rk4", atol, 0.0, "'atol'"},  {"rk45", dtMin, 0.0, "'dtMin'"}, {"rk45", dtMax, nan, "'dtMax'"},
      {"rk45", dtMax, 1e-13, "'dtMax'"},
  };
  for (const Case& c : cases) {
    IntegratorOptions o;
    c.set(o, c.value);
    const std::string msg = messageOf([&] { makeIntegrator(c.method, o); });
    EXPECT_NE(msg.find(std::string("integrator option ") + c.option), std::string::npos)
        << c.method << " " << c.option << "=" << c.value << ": " << msg;
  }
  EXPECT_NO_THROW(makeIntegrator("rk45", withDt(0.0)));  // 0 = automatic first step
}

TEST(IntegratorTest, InitializeRejectsWrongStateSize) {
  Oscillator osc;
  auto integ = makeIntegrator("rk4", IntegratorOptions());
  const std::string msg = messageOf([&] { integ->initialize(osc, 0.0, Eigen::VectorXd::Zero(3)); });
  EXPECT_NE(msg.find("3 entries"), std::string::npos) << msg;
}

// An integrator restored from a restart archive takes exactly the steps the saved one
// would have: same times, same states to the bit, same statistics.
TEST(IntegratorTest, RestoredIntegratorContinuesBitForBit) {
  for (const char* method : {"euler", "rk4", "rk45"}) {
    Oscillator sys;
    const IntegratorOptions o = std::string(method) == "rk45" ? tight() : withDt(1e-3);
    auto whole = makeIntegrator(method, o);
    whole->initialize(sys, 0.0, sys.x0());
    for (int k = 0; k < 37; ++k) whole->step(5.0);
    ArchiveWriter saved;
    whole->save(saved);
    ArchiveReader reader(saved.bytes(), "test");
    auto resumed = makeIntegrator(method, o);
    resumed->restore(sys, reader);
    EXPECT_TRUE(reader.atEnd()) << method;
    while (whole->time() < 5.0) {
      whole->step(5.0);
      resumed->step(5.0);
      ASSERT_EQ(whole->time(), resumed->time()) << method;
      ASSERT_EQ(whole->state(), resumed->state()) << method << " at t = " << whole->time();
    }
    EXPECT_EQ(resumed->time(), 5.0);
    EXPECT_EQ(whole->stats().steps, resumed->stats().steps) << method;
    EXPECT_EQ(whole->stats().rejected, resumed->stats().rejected) << method;
    EXPECT_EQ(whole->stats().evaluations, resumed->stats().evaluations) << method;
  }
}

TEST(IntegratorTest, RestoreRefusesAnotherMethodOrSize) {
  Oscillator sys;
  auto rk4 = makeIntegrator("rk4", withDt(1e-3));
  rk4->initialize(sys, 0.0, sys.x0());
  ArchiveWriter saved;
  rk4->save(saved);
  ArchiveReader asRk45(saved.bytes(), "restart.bin");
  EXPECT_THROW(makeIntegrator("rk45", tight())->restore(sys, asRk45), Error);
  struct Three final : OdeSystem {
    int size() const override { return 3; }
    void derivative(double, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override { xdot = -x; }
  } three;
  ArchiveReader wrongSize(saved.bytes(), "restart.bin");
  EXPECT_THROW(makeIntegrator("rk4", withDt(1e-3))->restore(three, wrongSize), Error);
  ArchiveReader truncated(saved.bytes().substr(0, saved.bytes().size() / 2), "restart.bin");
  EXPECT_THROW(makeIntegrator("rk4", withDt(1e-3))->restore(sys, truncated), Error);
}

// A system whose afterStep refuses any step that moves the state by more than `limit`
// (standing in for a projection that cannot converge from too far away).
namespace {
struct Fussy final : OdeSystem {
  double limit = 0.05;
  Eigen::VectorXd last = Eigen::Vector2d(1.0, 0.0);
  int size() const override { return 2; }
  void derivative(double, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
    xdot[0] = x[1];
    xdot[1] = -4.0 * x[0];
  }
  bool afterStep(double, Eigen::VectorXd& x) override {
    if ((x - last).norm() > limit) throw StepRejected("moved too far");
    last = x;
    return false;
  }
};
}  // namespace

TEST(IntegratorTest, AdaptiveMethodRetriesAStepTheSystemRejects) {
  Fussy sys;
  IntegratorOptions o;
  o.dt = 1.0;  // a first step far too long for the system
  o.rtol = o.atol = 1e-3;
  auto integ = makeIntegrator("rk45", o);
  integ->initialize(sys, 0.0, sys.last);
  while (integ->time() < 2.0) integ->step(2.0);
  EXPECT_GT(integ->stats().rejected, 0);
  EXPECT_EQ(integ->time(), 2.0);
  EXPECT_NEAR(integ->state()[0], std::cos(4.0), 1e-2);  // x = cos(2 t) still followed
}

TEST(IntegratorTest, FixedStepMethodStopsWhenTheSystemRejectsAStep) {
  Fussy sys;
  auto integ = makeIntegrator("rk4", withDt(0.1));
  integ->initialize(sys, 0.0, sys.last);
  try {
    integ->step(1.0);
    FAIL() << "no error";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("moved too far"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reduce it"), std::string::npos) << e.what();
  }
  EXPECT_EQ(integ->time(), 0.0);  // the rejected step left the state alone
}

TEST(IntegratorTest, AdaptiveMethodGivesUpBelowDtMin) {
  Fussy sys;
  sys.limit = 0.0;  // nothing is ever accepted
  IntegratorOptions o;
  o.dt = 1e-3;
  o.dtMin = 1e-9;
  auto integ = makeIntegrator("rk45", o);
  integ->initialize(sys, 0.0, sys.last);
  EXPECT_THROW(integ->step(1.0), SimulationError);
}

}  // namespace ARTICULA_TEST_FILE
