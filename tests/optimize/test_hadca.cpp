// The divide-and-conquer adjoint (HADCA, seed 002 section 4.5 and chapter 6): with the dca
// formulation the adjoint's mass solve runs on the assembly tree. Checked as the thesis checks it,
// on the cart + 4-link pendulum of chapter 6: its gradient against the articulated-body adjoint,
// direct differentiation and whole-run differences, and the same numbers on 1 and 2 threads.
#include <gtest/gtest.h>

#include "articula/optimize/trajectory_gradient.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// A force on the cart on 11 spline knots over 1 s at dt = 5 ms.
OptimalControlProblem cartFourLinks(const std::string& formulation, int threads) {
  std::vector<double> knots;
  for (int k = 0; k <= 10; ++k) knots.push_back(0.1 * k);
  OptimalControlProblem p = cartPendulumProblem(4, ControlBasis(ControlBasis::Kind::CubicSpline, knots), 0.0, 1.0, 0.005);
  p.formulation = formulation;
  p.threads = threads;
  return p;
}

Eigen::VectorXd someForces() {
  Eigen::VectorXd b(11);
  b << 0.5, -1.0, 2.0, 0.3, -0.7, 1.1, 0.0, -2.0, 0.8, 0.4, -0.2;
  return b;
}

TEST(Hadca, AgreesWithTheArticulatedBodyAdjointAndTheChecks) {
  TrajectoryGradient hadca(cartFourLinks("dca", 1)), aba(cartFourLinks("aba", 1));
  EXPECT_EQ(hadca.stats().localDerivatives, "reverse mode, divide-and-conquer mass solve (HADCA, 1 thread)");
  EXPECT_EQ(aba.stats().localDerivatives, "reverse mode");
  const Eigen::VectorXd b = someForces();
  Eigen::VectorXd gH, gA, gD, gF;
  hadca.gradient(b, gH, GradientMethod::Adjoint);
  aba.gradient(b, gA, GradientMethod::Adjoint);
  hadca.gradient(b, gD, GradientMethod::DirectDifferentiation);
  hadca.gradient(b, gF, GradientMethod::FiniteDifference);
  // The forward runs differ by the two formulations' round-off (DCA and ABA), which the 200 steps
  // carry to the gradient: 4e-15 measured, 1e-12 asked. Direct differentiation on the same
  // formulation, from reverse-mode rows: 2.8e-14 measured, 1e-12 asked. Whole-run central
  // differences (step 1e-6 max(1, |b|)) on this four-link pendulum are off by 2.2e-7 here and by
  // 2.5e-7 for the articulated-body gradient too (their truncation, not the adjoint's): the
  // issue's 1e-6.
  EXPECT_LT((gH - gA).norm(), 1e-12 * gA.norm()) << gH.transpose() << "\n" << gA.transpose();
  EXPECT_LT((gH - gD).norm(), 1e-12 * gH.norm());
  EXPECT_LT((gH - gF).norm(), 1e-6 * gH.norm());
}

TEST(Hadca, OneAndTwoThreadsGiveTheSameGradient) {
  TrajectoryGradient one(cartFourLinks("dca", 1)), two(cartFourLinks("dca", 2));
  EXPECT_EQ(two.stats().localDerivatives, "reverse mode, divide-and-conquer mass solve (HADCA, 2 threads)");
  const Eigen::VectorXd b = someForces();
  Eigen::VectorXd g1, g2;
  const double J1 = one.gradient(b, g1, GradientMethod::Adjoint);
  const double J2 = two.gradient(b, g2, GradientMethod::Adjoint);
  EXPECT_EQ(J1, J2);
  EXPECT_EQ(g1, g2);
}

// The handle equations keep each body's central inertia from their construction, so a mass cannot
// be a design parameter there: refused with the reason, not differentiated wrongly.
TEST(Hadca, RefusesMassesAsDesignParameters) {
  OptimalControlProblem p = cartFourLinks("dca", 1);
  const int link = *p.model.findBody("link2");
  p.design.push_back({"link2.mass", DesignParameter::Target::BodyMass, link, p.model.bodies[static_cast<std::size_t>(link)].mass, 0.1});
  EXPECT_THROW(TrajectoryGradient{p}, Error);
  p.formulation = "aba";
  EXPECT_NO_THROW(TrajectoryGradient{p});
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
