// The adjoint with its local products in reverse mode (dynamics/forward_dynamics_adjoint.hpp)
// against the same adjoint with central-difference local Jacobians, direct differentiation and
// finite differences of whole runs, on a spatial tree of 8 bodies that uses every element the
// reverse mode covers: revolute, prismatic, cylindrical and fixed joints, joint springs, end stops
// and friction, a spring-damper from the ground, a load fixed in a body, a joint control and a
// body-force control (world axes), design parameters of masses and springs, and every cost term.
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "tree_problem.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

using test_problems::term;
using test_problems::treeProblem;

Eigen::VectorXd nonUniform(const OptimalControlProblem& p) {
  Eigen::VectorXd b = p.initialParameters();
  for (int k = 6; k < b.size(); ++k) b[k] += 0.3 * (k - 7);  // the controls, after 6 design parameters
  return b;
}

TEST(ReverseModeGradient, DiscreteAdjointAgreesWithTheOtherMethods) {
  const OptimalControlProblem p = treeProblem(true);
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  EXPECT_EQ(central.stats().localDerivatives, "central differences (asked for)");
  const Eigen::VectorXd b = nonUniform(p);
  Eigen::VectorXd gR, gC, gD, gF;
  const double JR = reverse.gradient(b, gR, GradientMethod::Adjoint);
  const double JC = central.gradient(b, gC, GradientMethod::Adjoint);
  reverse.gradient(b, gD, GradientMethod::DirectDifferentiation);
  reverse.gradient(b, gF, GradientMethod::FiniteDifference);
  EXPECT_EQ(JR, JC);
  // The reverse mode is exact; the central products use local Jacobians by central differences,
  // each entry accurate to about 1e-10 relative: 1.8e-11 measured on the whole gradient, 1e-10
  // asked. Direct differentiation takes its local Jacobian row by row in reverse mode: the same
  // products, 5e-16 measured, 1e-12 asked.
  EXPECT_LT((gR - gC).norm(), 1e-10 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
  EXPECT_LT((gR - gD).norm(), 1e-12 * gR.norm());
  // Differences of whole runs: their truncation and round-off, 1.2e-9 measured: 1e-7.
  EXPECT_LT((gR - gF).norm(), 1e-7 * gR.norm()) << gR.transpose() << "\n" << gF.transpose();
  for (int k = 0; k < gR.size(); ++k) EXPECT_NE(gR[k], 0.0) << k;  // every parameter acts
}

TEST(ReverseModeGradient, ContinuousAdjointAgreesWithCentralDifferenceProducts) {
  OptimalControlProblem p = treeProblem(false);
  // Without the body-velocity and tilt terms (the last two; the discrete test checks them): with
  // them the two backward runs differed by 7.9e-10, their adaptive steps steered by the
  // differences' less accurate products of those terms, which this test is not about.
  p.cost.resize(p.cost.size() - 2);
  p.integrator = "rk45";
  p.rtol = p.atol = 1e-8;
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  const Eigen::VectorXd b = nonUniform(p);
  Eigen::VectorXd gR, gC;
  reverse.gradient(b, gR, GradientMethod::Adjoint);
  central.gradient(b, gC, GradientMethod::Adjoint);
  // Two backward integrations to rtol = atol = 1e-8 over the same forward run, whose right-hand
  // sides differ by the central differences' 1e-10, so that their adaptive steps may differ:
  // 9.2e-11 measured, 1e-9 asked.
  EXPECT_LT((gR - gC).norm(), 1e-9 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
}

// The five-bar design of seed 002 section 5.2 (a closed loop, the reference formulation with
// Baumgarte terms), shortened to 1 s and given a crank torque control and a joint-velocity cost,
// so that the projected weights reach a control as well as the springs' rest lengths.
TEST(ReverseModeGradient, ClosedLoopAdjointAgreesWithTheOtherMethods) {
  OptimalControlProblem p = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_design.yaml").problem;
  p.tf = 1.0;
  ControlInput torque;
  torque.name = "torque";
  torque.joint = 1;
  torque.basis = ControlBasis(ControlBasis::Kind::CubicSpline, {0.0, 0.5, 1.0});
  torque.initial = 0.4;
  p.controls.push_back(torque);
  p.cost.push_back(term(CostTerm::Kind::JointVelocity, 0.2, 0));
  p.cost.push_back(term(CostTerm::Kind::MarkerVelocity, 0.3, 0));
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  Eigen::VectorXd b = p.initialParameters();
  b.tail(3) << 0.4, -0.2, 0.6;  // the torque's spline coefficients
  Eigen::VectorXd gR, gC, gD, gF;
  reverse.gradient(b, gR, GradientMethod::Adjoint);
  central.gradient(b, gC, GradientMethod::Adjoint);
  reverse.gradient(b, gD, GradientMethod::DirectDifferentiation);
  reverse.gradient(b, gF, GradientMethod::FiniteDifference);
  // The reverse mode differentiates the constraint term by central differences (about 1e-10 of
  // its scale), the central products every local product: 5.2e-11 measured, 1e-8 asked. Direct
  // differentiation's Jacobian rows come from the same reverse mode: 8.1e-14 measured, 1e-11
  // asked. Whole-run differences 1.3e-9 measured, 1e-7 asked.
  EXPECT_LT((gR - gC).norm(), 1e-8 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
  EXPECT_LT((gR - gD).norm(), 1e-11 * gR.norm());
  EXPECT_LT((gR - gF).norm(), 1e-7 * gR.norm()) << gR.transpose() << "\n" << gF.transpose();
  for (int k = 0; k < gR.size(); ++k) EXPECT_NE(gR[k], 0.0) << k;
}

TEST(ReverseModeGradient, SaysWhyAProblemFallsBackToDifferences) {
  OptimalControlProblem ball;
  ball.model = test_models::randomTreeOf(3, 0, {JointType::Spherical}).build();
  ball.tf = 0.1;
  ball.dt = 0.01;
  ball.cost.push_back(term(CostTerm::Kind::JointVelocity, 1.0, 0));
  ControlInput torque;
  torque.name = "torque";
  torque.joint = 1;
  torque.basis = ControlBasis(ControlBasis::Kind::PiecewiseConstant, {0.0, 0.1});
  ball.controls.push_back(torque);
  const std::string why = TrajectoryGradient(ball).stats().localDerivatives;
  EXPECT_EQ(why.rfind("central differences (joint 'j0' is spherical", 0), 0u) << why;
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
