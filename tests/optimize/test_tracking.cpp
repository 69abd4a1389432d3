// Feed-forward plus feedback (seed 002 chapter 7; optimize/tracking.hpp) on the five-bar with DC
// motors, shortened to 1 s on a coarse control grid so that it runs in a fraction of a second:
// the loops and the plant of problems/five_bar_lissajous_a.yaml, voltages from a short L-BFGS run.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/optimizer.hpp"
#include "articula/optimize/tracking.hpp"
#include "articula/optimize/trajectory_gradient.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

struct ShortProblem {
  ProblemFile file;
  Eigen::VectorXd b;  // the voltages after a few L-BFGS iterations
};

const ShortProblem& shortProblem() {
  static const ShortProblem s = [] {
    ShortProblem r{loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_lissajous_a.yaml"), {}};
    OptimalControlProblem& p = r.file.problem;
    p.tf = 1.0;
    std::vector<double> knots;
    for (int k = 0; k <= 20; ++k) knots.push_back(0.05 * k);
    for (ControlInput& c : p.controls) c.basis = ControlBasis(c.basis.kind(), knots);
    TrajectoryGradient tg(p);
    OptimizerOptions o = r.file.optimizer;
    o.maxEvaluations = 40;
    r.b = optimize(tg, p, p.initialParameters(), o).parameters;
    return r;
  }();
  return s;
}

// Without gains and on the exact plant the feed-forward run is the reference run: the same model,
// inputs and integrator (the servos add forces of exactly zero), so the paths agree bit for bit.
TEST(Tracking, FeedForwardAloneOnTheExactPlantIsTheReference) {
  const ShortProblem& s = shortProblem();
  TrackingStudy study = *s.file.tracking;
  for (FeedbackLoop& loop : study.loops) loop.kp = loop.kd = 0.0;
  const TrackingResult r = runTrackingStudy(s.file.problem, study, s.b);
  ASSERT_EQ(r.runs.size(), 3u);
  const TrackingRun& exact = r.runs[2];
  ASSERT_TRUE(exact.ok) << exact.error;
  ASSERT_EQ(exact.marker.size(), r.reference.size());
  EXPECT_EQ(exact.ise, 0.0);
  EXPECT_EQ(exact.maxDeviation, 0.0);
  // The reference moves (the check is not vacuous): P travels centimetres in 1 s.
  EXPECT_GT((r.reference.back() - r.reference.front()).norm(), 0.01);
}

// Section 7.5's comparison: on the perturbed plant the feed-forward removes most of the error the
// loops alone leave. The loops alone must produce the whole voltage from the error, the loops with
// the feed-forward only the plant's few-percent difference from the model: about the square of
// 1/20 in the ISE. Measured: ISE 9.8e-6 alone, 1.3e-7 with the feed-forward (75x), 4.6e-11 on the
// exact plant, where only the piecewise-linear joint reference between samples is left to correct.
TEST(Tracking, FeedForwardCutsTheErrorOfThePerturbedPlant) {
  const ShortProblem& s = shortProblem();
  const TrackingResult r = runTrackingStudy(s.file.problem, *s.file.tracking, s.b);
  ASSERT_EQ(r.runs.size(), 3u);
  for (const TrackingRun& run : r.runs) ASSERT_TRUE(run.ok) << run.name << ": " << run.error;
  const TrackingRun &alone = r.runs[0], &both = r.runs[1], &exact = r.runs[2];
  EXPECT_GT(alone.ise, 10.0 * both.ise);
  EXPECT_GT(both.ise, 100.0 * exact.ise);
  for (std::size_t l = 0; l < alone.feedbackRms.size(); ++l) EXPECT_GT(alone.feedbackRms[l], 3.0 * both.feedbackRms[l]) << l;
  std::cout << "ISE: feedback " << alone.ise << ", feed-forward + feedback " << both.ise << ", exact plant " << exact.ise << "\n";
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
