// Continuation (optimizeByContinuation and a problem file's `continuation` section): each stage is
// the file's problem with other weights, initial state or optimiser settings, solved from the last
// stage's optimum. Checked on trajectory C of seed 002 chapter 7 (beta = gamma = 0, then beta = 1,
// then the voltage penalty), shortened to 0.5 s on a coarse grid.
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

void shorten(OptimalControlProblem& p) {
  p.tf = 0.5;
  std::vector<double> knots;
  for (int k = 0; k <= 10; ++k) knots.push_back(0.05 * k);
  for (ControlInput& c : p.controls) c.basis = ControlBasis(c.basis.kind(), knots);
}

double weightOf(const OptimalControlProblem& p, const std::string& name) {
  for (const CostTerm& c : p.cost)
    if (c.name == name) return c.weight;
  ADD_FAILURE() << "no term " << name;
  return 0.0;
}

TEST(Continuation, StagesChangeTheNamedWeights) {
  const ProblemFile f = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_lissajous_c.yaml");
  ASSERT_EQ(f.continuation.size(), 2u);
  EXPECT_EQ(weightOf(f.continuation[0].problem, "velocity"), 0.0);
  EXPECT_EQ(weightOf(f.continuation[0].problem, "V1_excess"), 0.0);
  EXPECT_EQ(weightOf(f.continuation[1].problem, "velocity"), 0.95);
  EXPECT_EQ(weightOf(f.continuation[1].problem, "V4_excess"), 0.0);
  EXPECT_EQ(weightOf(f.problem, "V4_excess"), 0.1);  // the problem as written is untouched
  EXPECT_EQ(f.continuation[0].options.algorithm, f.optimizer.algorithm);
}

TEST(Continuation, StagesChangeTheInitialStateAndTheOptimiser) {
  const ProblemFile f = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_pendulum_upright_sp4.yaml");
  ASSERT_EQ(f.continuation.size(), 5u);
  const Model& m = f.continuation[0].problem.model;
  const Joint& hooke = m.joints[static_cast<std::size_t>(*m.findJoint("hooke"))];
  EXPECT_EQ(m.q0[hooke.iq + 1], -0.08726646259971647);
  EXPECT_EQ(f.problem.model.q0[hooke.iq + 1], -0.2617993877991494);
  EXPECT_EQ(f.continuation[0].options.algorithm, "slsqp");
  EXPECT_EQ(f.continuation[1].options.algorithm, "lbfgs");
  EXPECT_EQ(f.continuation[0].options.maxEvaluations, 300);
}

// The stages are what one would do by hand: each optimisation warm-started from the last.
TEST(Continuation, EqualsWarmStartedRunsOneAfterTheOther) {
  ProblemFile f = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_lissajous_c.yaml");
  std::vector<ContinuationStage> stages = f.continuation;
  stages.push_back({f.problem, f.optimizer});
  for (ContinuationStage& s : stages) {
    shorten(s.problem);
    s.options.maxEvaluations = 15;
  }
  const Eigen::VectorXd start = stages[0].problem.initialParameters();
  const std::vector<OptimizationResult> results = optimizeByContinuation(stages, start, f.gradient);
  ASSERT_EQ(results.size(), 3u);
  Eigen::VectorXd b = start;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    TrajectoryGradient tg(stages[k].problem, f.gradient);
    const OptimizationResult r = optimize(tg, stages[k].problem, b, stages[k].options);
    EXPECT_EQ(r.cost, results[k].cost) << k;
    EXPECT_EQ(r.parameters, results[k].parameters) << k;
    b = r.parameters;
  }
  // The stages do differ: the first ignores the velocity error that the second minimises.
  EXPECT_NE(results[0].parameters, results[1].parameters);
}

TEST(Continuation, RefusesStagesOfAnotherSize) {
  ProblemFile f = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_lissajous_c.yaml");
  std::vector<ContinuationStage> stages = {f.continuation[0], {f.problem, f.optimizer}};
  shorten(stages[1].problem);  // 11 knots per control instead of 301
  EXPECT_THROW(optimizeByContinuation(stages, stages[0].problem.initialParameters(), f.gradient), Error);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
