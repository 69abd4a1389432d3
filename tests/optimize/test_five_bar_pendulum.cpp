// Seed 002 section 5.5 as shipped. Section 5.5.2 (problems/five_bar_pendulum_damping.yaml): the
// motor voltages that keep the five-bar still under a falling pendulum. The thesis's check of its
// optimum is the reaction of the driving constraints phi1 = phi4 = const (Fig. 5.32); here those
// reactions, as voltages, must nearly zero the cost and its gradient, and the three gradient
// methods must agree on the model with its motors (universal joint, loop, gains). Section 5.5.1,
// subproblem 1 (problems/five_bar_pendulum_upright.yaml): the cost's pendulum terms (tilt from the
// vertical, body velocity) against closed forms, the gradients, and the swing to upright.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "driving_constraints.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

ProblemFile dampingProblem() { return loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_pendulum_damping.yaml"); }
ProblemFile uprightProblem() { return loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_pendulum_upright.yaml"); }

// The problem's controls on knots every h over [0, tf].
void regrid(OptimalControlProblem& p, double tf, double h) {
  p.tf = tf;
  std::vector<double> knots;
  for (int k = 0; k <= static_cast<int>(std::lround(tf / h)); ++k) knots.push_back(h * k);
  for (ControlInput& c : p.controls) c.basis = ControlBasis(c.basis.kind(), knots);
}

TEST(FiveBarPendulum, DrivingConstraintVoltagesNearlyZeroTheCost) {
  const ProblemFile f = dampingProblem();
  const OptimalControlProblem& p = f.problem;
  ASSERT_EQ(p.parameterCount(), 602);  // 2 (tf / dt + 1), as in the thesis
  const Eigen::VectorXd hold = test_problems::drivingConstraintControls(p, {"O1", "O4"});
  TrajectoryGradient tg(p, f.gradient);
  Eigen::VectorXd g0, gh;
  const double J0 = tg.gradient(p.initialParameters(), g0, GradientMethod::Adjoint);
  const double Jh = tg.gradient(hold, gh, GradientMethod::Adjoint);
  std::cout << "V = 0: J " << J0 << " |dJ/db| " << g0.norm() << "; holding voltages (max " << hold.cwiseAbs().maxCoeff()
            << " V): J " << Jh << " |dJ/db| " << gh.norm() << "\n";
  EXPECT_GT(J0, 1e-5);
  EXPECT_LT(Jh, 1e-8 * J0);
  EXPECT_LT(gh.norm(), 1e-3 * g0.norm());
}

TEST(FiveBarPendulum, OptimumOnACoarseGridApproachesTheHoldingVoltages) {
  // Knots every 0.025 s (61 per motor, 122 coefficients) instead of 0.005 s, so that it optimises
  // in a test's time; the optimum is compared with the holding voltages at the knots, which the
  // problem's step of 0.005 s still computes (one in five of its steps).
  ProblemFile f = dampingProblem();
  OptimalControlProblem& p = f.problem;
  const Eigen::VectorXd fine = test_problems::drivingConstraintControls(p, {"O1", "O4"});
  std::vector<double> knots;
  for (int k = 0; k <= 60; ++k) knots.push_back(0.025 * k);
  for (ControlInput& c : p.controls) c.basis = ControlBasis(c.basis.kind(), knots);
  Eigen::VectorXd hold(122);
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k <= 60; ++k) hold[61 * c + k] = fine[301 * c + 5 * k];
  TrajectoryGradient tg(p, f.gradient);
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  std::cout << r.status << " after " << r.history.size() << " evaluations (" << r.history.back().wallSeconds
            << " s): J " << r.history.front().cost << " -> " << r.cost << "; max |V - V_hold| "
            << (r.parameters - hold).cwiseAbs().maxCoeff() << " V of max |V_hold| " << hold.cwiseAbs().maxCoeff() << " V\n";
  // Measured: 392 evaluations, J from 1.9e-5 to 4.5e-18, within 1.1e-5 V of the holding voltages
  // on [0.1, 1.4] s (2.5e-4 V at the ends); 150 evaluations leave it 5 % off.
  EXPECT_LT(r.cost, 1e-8 * r.history.front().cost);
  // Away from the ends (as for the cart, where a voltage barely acts before tf or trades against
  // the next one after 0) the optimum is the holding voltage.
  double inner = 0.0;
  for (int c = 0; c < 2; ++c) inner = std::max(inner, (r.parameters - hold).segment(61 * c + 4, 53).cwiseAbs().maxCoeff());
  std::cout << "max |V - V_hold| on [0.1, 1.4] s: " << inner << " V\n";
  EXPECT_LT(inner, 0.02 * hold.cwiseAbs().maxCoeff());
}

TEST(FiveBarPendulum, GradientMethodsAgree) {
  // 5.5.2 on 0.3 s with knots every 0.05 s, and 5.5.1 on 0.2 s with its terminal terms (tilt and,
  // as in subproblem 4, the body velocity): 10 to 14 coefficients, 2 whole-run differences each.
  ProblemFile damping = dampingProblem(), upright = uprightProblem();
  regrid(damping.problem, 0.3, 0.05);
  regrid(upright.problem, 0.2, 0.05);
  CostTerm velocity;
  velocity.kind = CostTerm::Kind::BodyVelocity;
  velocity.body = *upright.problem.model.findBody("pendulum");
  velocity.terminal = true;
  velocity.weight = 0.025;
  upright.problem.cost.push_back(velocity);
  for (ProblemFile* f : {&damping, &upright}) {
    const OptimalControlProblem& p = f->problem;
    Eigen::VectorXd b = p.initialParameters();
    for (int k = 0; k < b.size(); ++k) b[k] = 0.3 * std::sin(0.7 * k);  // volts
    TrajectoryGradient tg(p, f->gradient);
    Eigen::VectorXd gA, gD, gF;
    tg.gradient(b, gA, GradientMethod::Adjoint);
    tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
    tg.gradient(b, gF, GradientMethod::FiniteDifference);
    std::cout << "AD " << (gA - gD).norm() / gA.norm() << " AF " << (gA - gF).norm() / gA.norm() << "\n";
    // The same discrete run and the same reverse-mode local products (direct differentiation
    // takes its Jacobian row by row from them): 4.1e-13 measured at most, 1e-11 asked.
    EXPECT_LT((gA - gD).norm(), 1e-11 * gA.norm());
    // Whole-run differences: their truncation and round-off, 1.3e-8 measured: 1e-6.
    EXPECT_LT((gA - gF).norm(), 1e-6 * gA.norm());
  }
}

// Over a final time of 1e-7 s the terminal terms are their values at the start, to about 1e-7.
TEST(FiveBarPendulum, PendulumCostTermsMatchClosedForms) {
  ProblemFile f = uprightProblem();
  OptimalControlProblem& p = f.problem;
  regrid(p, 1e-7, 1e-7);
  p.dt = 1e-7;
  const int pendulum = *p.model.findBody("pendulum");
  const Joint& hooke = p.model.joints[static_cast<std::size_t>(*p.model.findJoint("hooke"))];
  CostTerm tilt;
  tilt.kind = CostTerm::Kind::BodyAxisAngle;
  tilt.body = pendulum;
  tilt.terminal = true;
  p.cost = {tilt};
  // alpha5 = [a1, a2]: the axis R_x(a1) R_y(a2) z (the linkage turns about z only), so
  // cos gamma = cos a1 cos a2.
  const double a1 = p.model.q0[hooke.iq], a2 = p.model.q0[hooke.iq + 1];
  const double gamma = std::acos(std::cos(a1) * std::cos(a2));
  EXPECT_NEAR(TrajectoryGradient(p).cost(p.initialParameters()), gamma * gamma, 1e-6 * gamma * gamma);
  // Upright, turning at omega about the first Hooke axis (link2's x, the world's y at the start):
  // |omega|^2 + |omega y x r_c|^2 with r_c = 0.16825 z.
  CostTerm velocity;
  velocity.kind = CostTerm::Kind::BodyVelocity;
  velocity.body = pendulum;
  velocity.terminal = true;
  p.cost = {velocity};
  p.model.q0.segment(hooke.iq, 2).setZero();
  const double omega = 1.7;
  p.model.v0[hooke.iv] = omega;
  const double expected = omega * omega * (1.0 + 0.16825 * 0.16825);
  EXPECT_NEAR(TrajectoryGradient(p).cost(p.initialParameters()), expected, 1e-6 * expected);
}

// Subproblem 1 as shipped: from V = 0 (the pendulum falls) to upright at tf.
TEST(FiveBarPendulum, SwingsThePendulumUpright) {
  const ProblemFile f = uprightProblem();
  const OptimalControlProblem& p = f.problem;
  ASSERT_EQ(p.parameterCount(), 202);  // as in the thesis
  TrajectoryGradient tg(p, f.gradient);
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  Eigen::VectorXd last;
  tg.trajectory(r.parameters, [&](double, const Eigen::VectorXd& x, const Eigen::VectorXd&, double) { last = x; });
  const Joint& hooke = p.model.joints[static_cast<std::size_t>(*p.model.findJoint("hooke"))];
  const double gamma = std::acos(std::cos(last[hooke.iq]) * std::cos(last[hooke.iq + 1]));
  std::cout << r.status << " after " << r.history.size() << " evaluations: J " << r.history.front().cost << " -> "
            << r.cost << ", gamma(tf) " << gamma << " rad\n";
  // Measured: 300 evaluations (the budget), J from 3.2 to 8.3e-5, gamma(tf) = 3.0e-5 rad.
  EXPECT_GT(r.history.front().cost, 1.0);  // uncontrolled, it falls
  EXPECT_LT(r.cost, 1e-3);
  EXPECT_LT(gamma, 1e-3);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
