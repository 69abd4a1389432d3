// A joint's position in its parent body (a link length) as a design parameter, on seed 002
// chapter 6's cart + 3-link pendulum: a planar chain, so the aba formulation runs its planar
// kernel, which keeps the joints' placements from its construction (the gradient rebuilds it for
// each new value). The adjoint, direct differentiation and whole-run differences must agree, with
// running and terminal marker costs that the moved joints move.
#include <gtest/gtest.h>

#include "articula/optimize/trajectory_gradient.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

OptimalControlProblem linkLengthProblem() {
  std::vector<double> knots;
  for (int k = 0; k <= 5; ++k) knots.push_back(0.1 * k);
  OptimalControlProblem p = cartPendulumProblem(3, ControlBasis(ControlBasis::Kind::CubicSpline, knots), 0.2, 0.5, 0.005);
  // the tip held near a fixed point (an explicit target: an 'initial' one would move with the links)
  p.cost[0].initialTarget = false;
  p.cost[0].target = {TimeFunction::constant(1.2), TimeFunction::constant(1.1), TimeFunction::constant(0.0)};
  CostTerm end = p.cost[0];
  end.terminal = true;
  end.weight = 3.0;
  p.cost.push_back(end);
  for (const char* joint : {"pin2", "pin3"}) {
    const int j = *p.model.findJoint(joint);
    p.design.push_back({std::string(joint) + ".position_x", DesignParameter::Target::JointPosition, j, 1.0, 0.5, 2.0, 0});
  }
  return p;
}

TEST(LinkLength, AdjointDirectAndFiniteDifferencesAgree) {
  const OptimalControlProblem p = linkLengthProblem();
  TrajectoryGradient tg(p);
  Eigen::VectorXd b = p.initialParameters(), gA, gD, gF;
  b[0] = 0.9;
  b[1] = 1.15;
  const double J = tg.gradient(b, gA, GradientMethod::Adjoint);
  tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
  tg.gradient(b, gF, GradientMethod::FiniteDifference);
  // The design slopes come from central differences of the weighted residual and of the cost at
  // each stage (about 1e-10 of their scale), the rest is exact. Adjoint against direct
  // differentiation (the same products): 7.6e-16 measured, 1e-12 asked; against whole-run
  // differences: 2e-9 measured, 1e-7 asked, as in the other tests. Without the rebuild of the
  // planar kernel for new lengths both this test and the next fail.
  EXPECT_LT((gA - gD).norm(), 1e-12 * gA.norm());
  EXPECT_LT((gA - gF).norm(), 1e-7 * gA.norm()) << gA.transpose() << "\n" << gF.transpose();
  EXPECT_NE(gA[0], 0.0);
  EXPECT_NE(gA[1], 0.0);
  EXPECT_GT(J, 0.0);
}

// The same problem built with those link lengths in its model, and no design parameter: the same
// cost, bit for bit (nothing of the first geometry stays behind in the gradient's formulation).
TEST(LinkLength, CostEqualsThatOfAModelBuiltWithTheLengths) {
  OptimalControlProblem p = linkLengthProblem();
  TrajectoryGradient tg(p);
  Eigen::VectorXd b = p.initialParameters();
  b[0] = 0.8;
  b[1] = 1.3;
  tg.cost(p.initialParameters());  // built once with the first lengths
  const double J = tg.cost(b);
  OptimalControlProblem fixed = p;
  for (std::size_t d = 0; d < p.design.size(); ++d) writeParameter(fixed.model, p.design[d], b[static_cast<Eigen::Index>(d)]);
  fixed.design.clear();
  EXPECT_EQ(TrajectoryGradient(fixed).cost(b.tail(b.size() - 2)), J);
}

TEST(LinkLength, RefusedWhereItCannotBeDifferentiated) {
  OptimalControlProblem initial = linkLengthProblem();
  initial.cost[0].initialTarget = true;  // would move with the links
  EXPECT_THROW(TrajectoryGradient{initial}, Error);
  OptimalControlProblem hamiltonian = linkLengthProblem();
  hamiltonian.formulation = "hdca";  // no reverse mode for [q; p]
  EXPECT_THROW(TrajectoryGradient{hamiltonian}, Error);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
