// The continuous sensitivity methods (rk45; optimize/continuous_gradient.cpp): the adjoint ODE
// integrated backward over the interpolated forward run, and the forward sensitivity equations,
// against central finite differences and against the discrete methods of the same problem. Unlike
// the discrete ones they agree only to the integrators' tolerance, so the tests use a tight one.
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// The five-bar design on a 2 s horizon with the Hamiltonian formulation (state [q; p]).
OptimalControlProblem hamiltonianFiveBar(double tolerance) {
  OptimalControlProblem p = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_design_hamiltonian.yaml").problem;
  p.tf = 2.0;
  p.rtol = p.atol = tolerance;
  return p;
}

TEST(ContinuousGradient, HamiltonianAdjointDirectAndFiniteDifferencesAgree) {
  const OptimalControlProblem p = hamiltonianFiveBar(1e-10);
  TrajectoryGradient tg(p);
  const Eigen::VectorXd b = p.initialParameters();
  Eigen::VectorXd gA, gD, gF;
  tg.gradient(b, gA, GradientMethod::Adjoint);
  tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
  tg.gradient(b, gF, GradientMethod::FiniteDifference);
  // Each method integrates its own equations to rtol = atol = 1e-10 over 2 s; 1e-6 leaves a
  // margin of 100 over the 1e-8 observed.
  EXPECT_LT((gA - gF).norm(), 1e-6 * gF.norm()) << gA.transpose() << " / " << gF.transpose();
  EXPECT_LT((gD - gF).norm(), 1e-6 * gF.norm()) << gD.transpose() << " / " << gF.transpose();
}

TEST(ContinuousGradient, AgreesWithTheDiscreteAdjointOfAnotherFormulation) {
  // Same problem, two discretisations and two state spaces: rk45 on [q; p] (hdca) against the
  // discrete adjoint of rk4 at 1 ms on [q; v] (reference). Both approximate the exact gradient,
  // rk4 to O(h^4) ~ 1e-9 here.
  const OptimalControlProblem continuous = hamiltonianFiveBar(1e-10);
  OptimalControlProblem discrete = continuous;
  discrete.formulation = "reference";
  discrete.integrator = "rk4";
  discrete.dt = 1e-3;
  Eigen::VectorXd gC, gD;
  TrajectoryGradient(continuous).gradient(continuous.initialParameters(), gC, GradientMethod::Adjoint);
  TrajectoryGradient(discrete).gradient(discrete.initialParameters(), gD, GradientMethod::Adjoint);
  EXPECT_LT((gC - gD).norm(), 1e-6 * gD.norm()) << gC.transpose() << " / " << gD.transpose();
}

TEST(ContinuousGradient, CheckpointedAdjointMatchesTheFullyStoredOne) {
  const OptimalControlProblem p = hamiltonianFiveBar(1e-9);
  GradientOptions every;
  every.checkpointInterval = 1;
  TrajectoryGradient full(p, every), checkpointed(p);
  Eigen::VectorXd g1, g2;
  full.gradient(p.initialParameters(), g1, GradientMethod::Adjoint);
  checkpointed.gradient(p.initialParameters(), g2, GradientMethod::Adjoint);
  const long steps = checkpointed.stats().steps;
  EXPECT_EQ(full.stats().storedStates, steps + 2);  // a record per step, and the 2-point segment
  EXPECT_LT(checkpointed.stats().storedStates, 4 * std::sqrt(static_cast<double>(steps)) + 3);
  // The forward states replayed from the records are bit-for-bit those of the first run; the
  // backward integrator's steps end at different interval boundaries, so the two adjoints differ
  // by the integrator's tolerance only.
  EXPECT_LT((g1 - g2).norm(), 1e-7 * g1.norm()) << g1.transpose() << " / " << g2.transpose();
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
