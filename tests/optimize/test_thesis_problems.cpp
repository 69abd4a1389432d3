// The optimal control and design examples of seed 002 sections 5.3 and 5.4 as shipped in
// problems/: their gradients by the three methods, the swing-up of the double pendulum on a cart
// (eq. (5.4)), the stabilisation of the cart checked against the reaction force of a driving
// constraint (eq. (5.5)), and the spatial pendulum's spring design against its static equilibrium
// (eq. (5.2)-(5.3)). The longer runs (the gamma = 1 swing-up warm-started from gamma = 0 and the
// full stabilisation) are in tests/cli/thesis_optimal_control.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"
#include "driving_constraints.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

constexpr double kPi = std::numbers::pi;

ProblemFile load(const char* name) { return loadProblem(std::string(ARTICULA_SOURCE_DIR "/problems/") + name); }

// The problem over [0, tf] with its control on a knot grid of spacing h (the shipped problems use
// tf = 3 s and h = 0.005 s: 601 coefficients, too many for 1202 finite-difference runs in a test).
void shorten(OptimalControlProblem& p, double tf, double h) {
  p.tf = tf;
  const int n = static_cast<int>(std::lround(tf / h));
  std::vector<double> knots;
  for (int k = 0; k <= n; ++k) knots.push_back(k * h);
  for (ControlInput& c : p.controls) c.basis = ControlBasis(c.basis.kind(), knots);
}

// The final state x(tf) = [q; v] of a run at b.
Eigen::VectorXd finalState(TrajectoryGradient& tg, const Eigen::VectorXd& b) {
  Eigen::VectorXd last;
  tg.trajectory(b, [&](double, const Eigen::VectorXd& x, const Eigen::VectorXd&, double) { last = x; });
  return last;
}

// Adjoint and direct differentiation differentiate the same discrete run: they agree to the
// round-off of the local derivatives (1e-10 relative, trajectory_gradient.hpp). Central finite
// differences of whole runs with a 1e-6 step agree to their truncation error, ~1e-10 relative.
void expectGradientsAgree(const OptimalControlProblem& p, const Eigen::VectorXd& b) {
  TrajectoryGradient tg(p);
  Eigen::VectorXd gA, gD, gF;
  const double JA = tg.gradient(b, gA, GradientMethod::Adjoint);
  const double JD = tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
  const double JF = tg.gradient(b, gF, GradientMethod::FiniteDifference);
  EXPECT_EQ(JA, JD);
  EXPECT_EQ(JA, JF);
  EXPECT_GT(gA.norm(), 0.0);
  std::cout << "J " << JA << "  |dJ/db| " << gA.norm() << "  adjoint-direct " << (gA - gD).norm() / gA.norm()
            << "  adjoint-fd " << (gA - gF).norm() / gA.norm() << "\n";
  EXPECT_LT((gA - gD).norm(), 1e-9 * gA.norm());
  EXPECT_LT((gA - gF).norm(), 1e-6 * gA.norm());
}

// A non-zero, non-uniform force on the cart (N) at the knots.
Eigen::VectorXd someForce(const OptimalControlProblem& p) {
  const std::vector<double>& t = p.controls[0].basis.knots();
  Eigen::VectorXd b(static_cast<Eigen::Index>(t.size()));
  for (std::size_t k = 0; k < t.size(); ++k) b[static_cast<Eigen::Index>(k)] = 0.5 + 2.0 * std::sin(3.0 * t[k]);
  return b;
}

TEST(ThesisProblems, CartDoublePendulumGradientsAgreeForTheSwingUpAtRest) {
  // gamma = 1: terminal angles and rates (seed 002 eq. (5.4)), 1 s with knots every 0.05 s
  ProblemFile f = load("cart_double_pendulum_swing_up_rest.yaml");
  shorten(f.problem, 1.0, 0.05);
  ASSERT_EQ(f.problem.parameterCount(), 21);
  expectGradientsAgree(f.problem, someForce(f.problem));
}

TEST(ThesisProblems, CartDoublePendulumGradientsAgreeForTheStabilisation) {
  // running and terminal x^2 (seed 002 eq. (5.5)) from the tilted start of initial_state
  ProblemFile f = load("cart_stabilization.yaml");
  EXPECT_DOUBLE_EQ(f.problem.model.q0[1], kPi / 4);
  shorten(f.problem, 1.0, 0.05);
  expectGradientsAgree(f.problem, someForce(f.problem));
}

TEST(ThesisProblems, SwingUpBringsBothLinksUpright) {
  const ProblemFile f = load("cart_double_pendulum_swing_up.yaml");
  const OptimalControlProblem& p = f.problem;
  ASSERT_EQ(p.parameterCount(), 601);
  TrajectoryGradient tg(p, f.gradient);
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  std::cout << r.status << " after " << r.history.size() << " evaluations (" << r.history.back().wallSeconds
            << " s): J " << r.history.front().cost << " -> " << r.cost << "\n";
  EXPECT_TRUE(r.converged) << r.status;
  EXPECT_NEAR(r.history.front().cost, 0.5 * kPi * kPi, 1e-12);  // hanging, u = 0: 1/2 (pi)^2
  // J < 1e-10 bounds each terminal angle's error by sqrt(2e-10) ~ 1.4e-5 rad.
  EXPECT_LT(r.cost, 1e-10);
  const Eigen::VectorXd x = finalState(tg, r.parameters);
  EXPECT_NEAR(x[1], kPi / 2, 1.5e-5);  // alpha2: the first link upright ...
  EXPECT_NEAR(x[2], 0.0, 1.5e-5);      // alpha3: ... and the second in line with it
  // Not an artefact of the step: the same force run with a quarter of the step ends within 1e-4
  // rad of upright too (J < 5e-9), rk4's error at dt = 0.005 s being well below the targets.
  OptimalControlProblem fine = p;
  fine.dt = p.dt / 4;
  TrajectoryGradient tgFine(fine);
  EXPECT_LT(tgFine.cost(r.parameters), 5e-9);
}

// The rail force that holds the cart at x = 0 while the links fall from (0, pi/4, 0): the reaction
// of the driving constraint x = 0 (the rail's friction does not act: the cart stays at rest). The
// thesis checks its optimum against this multiplier (seed 002 section 5.4.2).
Eigen::VectorXd drivingConstraintForce(const OptimalControlProblem& p) {
  return test_problems::drivingConstraintControls(p, {"rail"});
}

TEST(ThesisProblems, DrivingConstraintForceNearlyZeroesTheStabilisationCost) {
  const ProblemFile f = load("cart_stabilization.yaml");
  const OptimalControlProblem& p = f.problem;
  const Eigen::VectorXd reaction = drivingConstraintForce(p);
  TrajectoryGradient tg(p, f.gradient);
  Eigen::VectorXd g0, gr;
  const double J0 = tg.gradient(p.initialParameters(), g0, GradientMethod::Adjoint);
  const double Jr = tg.gradient(reaction, gr, GradientMethod::Adjoint);
  double xmax = 0.0;
  tg.trajectory(reaction, [&](double, const Eigen::VectorXd& x, const Eigen::VectorXd&, double) {
    xmax = std::max(xmax, std::abs(x[0]));
  });
  std::cout << "u = 0: J " << J0 << " |dJ/db| " << g0.norm() << "; reaction force (max " << reaction.cwiseAbs().maxCoeff()
            << " N): J " << Jr << " |dJ/db| " << gr.norm() << " max |x| " << xmax << " m\n";
  // Without a force the falling links push the cart about: J(0) is of order 0.1 m^2 s.
  EXPECT_GT(J0, 0.1);
  // The reaction force sampled at the knots and interpolated by the spline holds the cart to
  // within a micrometre (the rest is the spline's interpolation error and the step's), ...
  EXPECT_LT(xmax, 1e-6);
  EXPECT_LT(Jr, 1e-12 * J0);
  // ... and it is nearly stationary: the gradient falls by more than the four orders of magnitude
  // the thesis reports between its initial guess and this solution.
  EXPECT_LT(gr.norm(), 1e-4 * g0.norm());
}

TEST(ThesisProblems, StabilisationOnACoarseGridApproachesTheDrivingConstraintForce) {
  // 1 s with knots every 0.01 s (101 coefficients) so that it optimises in a test's time; the
  // optimum is then compared with the reaction force of x = 0 at the knots.
  ProblemFile f = load("cart_stabilization.yaml");
  OptimalControlProblem& p = f.problem;
  shorten(p, 1.0, 0.01);
  p.dt = 0.01;
  const Eigen::VectorXd reaction = drivingConstraintForce(p);
  TrajectoryGradient tg(p, f.gradient);
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  std::cout << r.status << " after " << r.history.size() << " evaluations (" << r.history.back().wallSeconds
            << " s): J " << r.history.front().cost << " -> " << r.cost << "; max |u - reaction| "
            << (r.parameters - reaction).cwiseAbs().maxCoeff() << " N of max |reaction| "
            << reaction.cwiseAbs().maxCoeff() << " N\n";
  EXPECT_TRUE(r.converged) << r.status;
  EXPECT_LT(r.cost, 1e-8 * r.history.front().cost);
  // Away from the ends the optimum is the reaction force. Near them it need not be: x responds
  // to the force through two integrations, so a force change in the last instants before tf has
  // no time to move the cart (the cost barely sees it), and one in the first instants can be
  // traded against the force just after; there the spline's end conditions decide.
  const Eigen::VectorXd d = (r.parameters - reaction).segment(10, p.parameterCount() - 20);
  std::cout << "max |u - reaction| on [0.1, 0.9] s: " << d.cwiseAbs().maxCoeff() << " N\n";
  EXPECT_LT(d.cwiseAbs().maxCoeff(), 0.01 * reaction.cwiseAbs().maxCoeff());
}

TEST(ThesisProblems, InitialStateInAProblemFileOverridesTheModel) {
  const std::string model = "model: " ARTICULA_SOURCE_DIR "/models/cart_double_pendulum.yaml\n"
                            "step: 0.01\nfinal_time: 1\n"
                            "controls: [{name: u, joint: rail, knots: [0, 1]}]\n"
                            "cost: [{type: joint_position, joint: rail, target: 0}]\n";
  const ProblemFile f = parseProblemYaml(
      model + "initial_state: [{joint: shoulder, q: 0.5, v: -1}, {joint: rail, v: 2}]\n", "inline.yaml");
  EXPECT_EQ(f.problem.model.q0[0], 0.0);
  EXPECT_EQ(f.problem.model.q0[1], 0.5);
  EXPECT_EQ(f.problem.model.v0[0], 2.0);
  EXPECT_EQ(f.problem.model.v0[1], -1.0);
  EXPECT_THROW(parseProblemYaml(model + "initial_state: [{joint: hip, q: 0.5}]\n", "inline.yaml"), ModelError);
  EXPECT_THROW(parseProblemYaml(model + "initial_state: [{joint: shoulder, q: [0.5, 1]}]\n", "inline.yaml"), ModelError);
  EXPECT_THROW(parseProblemYaml(model + "initial_state: [{joint: shoulder}]\n", "inline.yaml"), ModelError);
}

TEST(ThesisProblems, SpatialPendulumGradientsAgree) {
  // design parameters (the springs' free angles on both axes of the universal joint) at b0
  const ProblemFile f = load("spatial_pendulum_design.yaml");
  expectGradientsAgree(f.problem, f.problem.initialParameters());
}

// Seed 002 section 5.3: the optimal free angles make the released pose a static equilibrium,
// -k (alpha0 - b) + Q_gravity(alpha0) = 0. For the rod of models/spatial_pendulum_hooke.yaml
// (m l_c = 0.75 kg m hanging along -y, R = Rx(a1) Rz(a2)) the potential is
// V = -m g l_c cos a1 cos a2, so b = alpha0 + (m g l_c / k) [sin a1 cos a2, cos a1 sin a2].
TEST(ThesisProblems, SpatialPendulumSpringsOptimumIsTheStaticEquilibrium) {
  const ProblemFile f = load("spatial_pendulum_design.yaml");
  const OptimalControlProblem& p = f.problem;
  ASSERT_EQ(p.parameterCount(), 2);
  EXPECT_NEAR(p.initialParameters()[0], kPi / 5, 1e-15);
  EXPECT_NEAR(p.initialParameters()[1], kPi / 7, 1e-15);
  const double a1 = p.model.q0[0], a2 = p.model.q0[1], mgl = 1.5 * 0.5 * 9.80665, k = 20.0;
  const Eigen::Vector2d equilibrium(a1 + mgl / k * std::sin(a1) * std::cos(a2), a2 + mgl / k * std::cos(a1) * std::sin(a2));
  TrajectoryGradient tg(p, f.gradient);
  EXPECT_LT(tg.cost(equilibrium), 1e-24);  // at rest: J vanishes up to round-off
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  std::cout << r.status << " after " << r.history.size() << " evaluations: b = " << r.parameters.transpose()
            << ", equilibrium " << equilibrium.transpose() << "\n";
  EXPECT_TRUE(r.converged) << r.status;
  EXPECT_LT(r.history.size(), 30u);
  // J is quadratic in b - b_eq near the optimum, so J ~ 1e-30 fixes b to ~1e-13: 1e-9 leaves room.
  EXPECT_NEAR(r.parameters[0], equilibrium[0], 1e-9);
  EXPECT_NEAR(r.parameters[1], equilibrium[1], 1e-9);
  // The thesis's printed optimum, to its printed digits (the geometry was chosen to match it).
  EXPECT_NEAR(r.parameters[0], 1.0106, 5e-5);
  EXPECT_NEAR(r.parameters[1], 0.65362, 5e-6);

  // Every optimiser back end reaches the same equilibrium from b0 within its budget. L-BFGS stops
  // earliest (J ~ 1e-17, b within 6e-9): 2e-8 bounds them all.
  for (const std::string& algorithm : optimizerAlgorithms()) {
    OptimizerOptions o = f.optimizer;
    o.algorithm = algorithm;
    const OptimizationResult other = optimize(tg, p, p.initialParameters(), o);
    EXPECT_TRUE(other.converged) << algorithm << ": " << other.status;
    EXPECT_LT((other.parameters - equilibrium).norm(), 2e-8) << algorithm << ": " << other.parameters.transpose();
  }
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
