// The Hamiltonian adjoint in absolute coordinates (seed 002 section 4.2, eq. (4.10)-(4.16),
// appendix B), problem key `formulation: absolute`: its gradients against whole-run differences of
// the same formulation and against the joint-coordinate adjoint, on the five-bar design (a closed
// loop with redundant rows, design parameters in the forces), a spatial tree of 8 bodies, the
// spatial pendulum on a Hooke joint (optimised to its equilibrium) and the chapter 6 cart + 4-link
// pendulum (a control force on a prismatic joint, joint dampers).
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "tree_problem.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

const char* kFiveBar = ARTICULA_SOURCE_DIR "/problems/five_bar_design.yaml";

TEST(AbsoluteAdjoint, FiveBarDesignAgreesWithTheJointSpaceAdjointAndDifferences) {
  ProblemFile f = loadProblem(kFiveBar);
  f.problem.tf = 1.0;  // the thesis's 5 s gives the same agreement; 1 s keeps the test short
  OptimalControlProblem joint = f.problem, absolute = f.problem;
  absolute.formulation = "absolute";
  TrajectoryGradient ta(absolute), tj(joint);
  EXPECT_EQ(ta.stats().localDerivatives, "reverse mode, absolute-coordinate Hamiltonian adjoint (seed 002 section 4.2)");
  const Eigen::VectorXd b = f.problem.initialParameters();
  Eigen::VectorXd ga, gj, gf;
  const double Ja = ta.gradient(b, ga, GradientMethod::Adjoint);
  const double Jj = tj.gradient(b, gj, GradientMethod::Adjoint);
  ta.gradient(b, gf, GradientMethod::FiniteDifference);
  // The same motion in two sets of coordinates, each integrated by rk4 at 5 ms: the runs differ by
  // their truncation errors, 1.6e-9 relative in J and 2.2e-9 in the gradient (6.8e-9 over the
  // thesis's 5 s, where the gradient is [-4.2288109, 3.2116040] in both); 1e-7 asked.
  EXPECT_NEAR(Ja, Jj, 1e-7 * Jj);
  EXPECT_LT((ga - gj).norm(), 1e-7 * gj.norm()) << ga.transpose() << "\n" << gj.transpose();
  // The adjoint is the exact gradient of the discrete run; whole-run central differences carry
  // their own truncation: 4e-10 relative measured, 1e-8 asked.
  EXPECT_LT((ga - gf).norm(), 1e-8 * gf.norm()) << ga.transpose() << "\n" << gf.transpose();
}

// With rk45 the continuous adjoint integrates the adjoint equations of the same right-hand side
// backward over the interpolated forward run (the thesis's eq. (4.14), in the variables adjoint to
// [q; p*]; the p* part is the thesis's -xi).
TEST(AbsoluteAdjoint, ContinuousAdjointAgreesWithDifferences) {
  ProblemFile f = loadProblem(kFiveBar);
  f.problem.tf = 1.0;
  f.problem.formulation = "absolute";
  f.problem.integrator = "rk45";
  f.problem.rtol = 1e-10;
  f.problem.atol = 1e-12;
  TrajectoryGradient tg(f.problem);
  const Eigen::VectorXd b = f.problem.initialParameters();
  Eigen::VectorXd ga, gf;
  tg.gradient(b, ga, GradientMethod::Adjoint);
  tg.gradient(b, gf, GradientMethod::FiniteDifference);
  // Both carry the tolerances' error (1e-10 relative per step): 1.3e-9 relative measured.
  EXPECT_LT((ga - gf).norm(), 1e-7 * gf.norm()) << ga.transpose() << "\n" << gf.transpose();
}

TEST(AbsoluteAdjoint, CartPendulumAgreesWithTheArticulatedBodyAdjointAndDifferences) {
  std::vector<double> knots;
  for (int k = 0; k <= 10; ++k) knots.push_back(0.1 * k);
  OptimalControlProblem p = cartPendulumProblem(4, ControlBasis(ControlBasis::Kind::CubicSpline, knots), 0.0, 1.0, 0.005);
  OptimalControlProblem absolute = p;
  p.formulation = "aba";
  absolute.formulation = "absolute";
  TrajectoryGradient ta(absolute), tj(p);
  Eigen::VectorXd b(11);
  b << 0.5, -1.0, 2.0, 0.3, -0.7, 1.1, 0.0, -2.0, 0.8, 0.4, -0.2;
  Eigen::VectorXd ga, gj, gf;
  const double Ja = ta.gradient(b, ga, GradientMethod::Adjoint);
  const double Jj = tj.gradient(b, gj, GradientMethod::Adjoint);
  ta.gradient(b, gf, GradientMethod::FiniteDifference);
  // The two formulations' rk4 runs at 5 ms differ by 7e-9 in J and 1.7e-7 in the gradient (the
  // swinging four-link pendulum magnifies truncation differences); whole-run differences are off
  // by 1.5e-7 here, as they are by 2.2e-7 for the joint-space adjoints of this model
  // (test_hadca.cpp). The 1e-6.
  EXPECT_NEAR(Ja, Jj, 1e-7 * Jj);
  EXPECT_LT((ga - gj).norm(), 1e-6 * gj.norm()) << ga.transpose() << "\n" << gj.transpose();
  EXPECT_LT((ga - gf).norm(), 1e-6 * gf.norm()) << ga.transpose() << "\n" << gf.transpose();
}

// The spatial tree of 8 bodies (tree_problem.hpp): revolute, prismatic, cylindrical and
// fixed joints, joint springs and friction, a spring from the ground, a body-fixed torque, a joint
// control and a body-force control, spring parameters as the design, and every cost term that has
// a meaning in absolute coordinates (the joint terms and the mass are left out).
TEST(AbsoluteAdjoint, SpatialTreeAgreesWithTheJointSpaceAdjointAndDifferences) {
  OptimalControlProblem joint = test_problems::treeProblem(false);
  joint.design.erase(joint.design.begin());  // the mass
  std::erase_if(joint.cost, [](const CostTerm& c) {
    return c.kind == CostTerm::Kind::JointPosition || c.kind == CostTerm::Kind::JointVelocity;
  });
  joint.formulation = "aba";
  OptimalControlProblem absolute = joint;
  absolute.formulation = "absolute";
  TrajectoryGradient ta(absolute), tj(joint);
  Eigen::VectorXd b = joint.initialParameters();
  for (int k = 5; k < b.size(); ++k) b[k] += 0.3 * (k - 6);  // the controls, after 5 design parameters
  Eigen::VectorXd ga, gj, gf;
  const double Ja = ta.gradient(b, ga, GradientMethod::Adjoint);
  const double Jj = tj.gradient(b, gj, GradientMethod::Adjoint);
  ta.gradient(b, gf, GradientMethod::FiniteDifference);
  // 0.3 s of rk4 at 5 ms in two sets of coordinates: 2.0e-8 apart in J and 1.2e-8 in the
  // gradient; whole-run differences of the absolute runs 3.8e-8. The 1e-6.
  EXPECT_NEAR(Ja, Jj, 1e-6 * Jj);
  EXPECT_LT((ga - gj).norm(), 1e-6 * gj.norm()) << ga.transpose() << "\n" << gj.transpose();
  EXPECT_LT((ga - gf).norm(), 1e-6 * gf.norm()) << ga.transpose() << "\n" << gf.transpose();
}

// Seed 002 section 5.3 in the thesis's own coordinates: the pendulum on a Hooke (universal) joint
// with torsional springs on its two angles; the optimum is the static equilibrium, in closed form.
TEST(AbsoluteAdjoint, SpatialPendulumDesignReachesTheEquilibrium) {
  ProblemFile f = loadProblem(ARTICULA_SOURCE_DIR "/problems/spatial_pendulum_design.yaml");
  OptimalControlProblem joint = f.problem, absolute = f.problem;
  absolute.formulation = "absolute";
  TrajectoryGradient ta(absolute, f.gradient), tj(joint, f.gradient);
  const Eigen::VectorXd b0 = f.problem.initialParameters();
  Eigen::VectorXd ga, gj;
  ta.gradient(b0, ga, GradientMethod::Adjoint);
  tj.gradient(b0, gj, GradientMethod::Adjoint);
  // Two rk4 runs at 5 ms of one motion in two sets of coordinates: 1.3e-8 apart measured.
  EXPECT_LT((ga - gj).norm(), 1e-7 * gj.norm()) << ga.transpose() << "\n" << gj.transpose();
  const Model& m = f.problem.model;
  const double a1 = m.q0[0], a2 = m.q0[1], mgl = 1.5 * 0.5 * 9.80665, k = 20.0;
  const Eigen::Vector2d equilibrium(a1 + mgl / k * std::sin(a1) * std::cos(a2), a2 + mgl / k * std::cos(a1) * std::sin(a2));
  const OptimizationResult r = optimize(ta, absolute, b0, f.optimizer);
  EXPECT_TRUE(r.converged) << r.status;
  // As in joint coordinates (test_thesis_problems.cpp): J is quadratic in b - b_eq, and the
  // optimiser's 1e-12 on b and J ~ 1e-30 fix b far below 1e-9.
  EXPECT_LT((r.parameters - equilibrium).cwiseAbs().maxCoeff(), 1e-9) << r.parameters.transpose();
}

TEST(AbsoluteAdjoint, RefusesJointTermsMassesAndUncoveredModels) {
  std::vector<double> knots = {0.0, 0.5, 1.0};
  OptimalControlProblem p = cartPendulumProblem(2, ControlBasis(ControlBasis::Kind::PiecewiseLinear, knots), 0.0, 1.0, 0.01);
  p.formulation = "absolute";
  EXPECT_NO_THROW(TrajectoryGradient{p});
  OptimalControlProblem joints = p;
  CostTerm angle;
  angle.kind = CostTerm::Kind::JointPosition;
  angle.coordinate = 1;
  joints.cost.push_back(angle);
  EXPECT_THROW(TrajectoryGradient{joints}, Error);
  OptimalControlProblem mass = p;
  const int link = *mass.model.findBody("link2");
  mass.design.push_back({"link2.mass", DesignParameter::Target::BodyMass, link, 0.5, 0.1});
  EXPECT_THROW(TrajectoryGradient{mass}, Error);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
