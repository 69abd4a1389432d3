// Constraints on functionals of the run (problem key `constraints`): G(b) <= upper with G written
// in the cost terms' library and differentiated by its own adjoint. Checked on the cart
// stabilisation with an energy budget (problems/cart_stabilization_budget.yaml) against the
// first-order optimality conditions, and for what lbfgs refuses.
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

const char* kBudget = ARTICULA_SOURCE_DIR "/problems/cart_stabilization_budget.yaml";

TEST(Constraints, EnergyBudgetIsSpentAndTheOptimumIsAKarushKuhnTuckerPoint) {
  const ProblemFile f = loadProblem(kBudget);
  const OptimalControlProblem& p = f.problem;
  ASSERT_EQ(p.constraints.size(), 1u);
  TrajectoryGradient tg(p, f.gradient);
  const OptimizationResult r = optimize(tg, p, p.initialParameters(), f.optimizer);
  ASSERT_TRUE(r.converged) << r.status;
  // Holding the cart still costs about 171 N^2 s, so the budget of 80 is spent: the constraint is
  // active, to slsqp's tolerance (measured 1.7e-12).
  ASSERT_EQ(r.constraintValues.size(), 1);
  EXPECT_NEAR(r.constraintValues[0], 80.0, 1e-6);
  EXPECT_LE(r.constraintViolation, f.optimizer.constraintTolerance);
  // First-order conditions with no bound active: dJ/db + mu dG/db = 0 with mu > 0. The gradients
  // are antiparallel: the part of dJ/db across dG/db is 2.8e-7 of it measured; 1e-5 asked
  // (slsqp's tolerances on J and b bound how close it gets).
  TrajectoryGradient energy(constraintProblem(p, p.constraints[0]), f.gradient);
  Eigen::VectorXd gG;
  energy.gradient(r.parameters, gG, GradientMethod::Adjoint);
  const Eigen::VectorXd n = gG.normalized();
  const double along = r.gradient.dot(n);
  EXPECT_LT(along, 0.0);
  EXPECT_LT((r.gradient - along * n).norm(), 1e-5 * r.gradient.norm());
  const double mu = -along / gG.norm();
  std::cout << "J = " << r.cost << ", G = " << r.constraintValues[0] << ", mu = " << mu << " after "
            << r.history.size() << " evaluations\n";
}

TEST(Constraints, LbfgsRefusesThemAndTheProblemFileChecksThem) {
  const ProblemFile f = loadProblem(kBudget);
  TrajectoryGradient tg(f.problem, f.gradient);
  OptimizerOptions o = f.optimizer;
  o.algorithm = "lbfgs";
  o.maxEvaluations = 2;
  EXPECT_THROW(optimize(tg, f.problem, f.problem.initialParameters(), o), Error);
  OptimalControlProblem empty = f.problem;
  empty.constraints[0].terms.clear();
  EXPECT_THROW(checkProblem(empty), Error);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
