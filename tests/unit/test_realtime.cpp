// Real-time mode's parts: the sample writer (queue + thread) and the step pacer.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "articula/model/generators.hpp"
#include "articula/simulate/realtime.hpp"
#include "articula/simulate/simulation.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// Every sample arrives, in order and intact, even through a queue far smaller than the run:
// the stepping side then waits (stalls) instead of overwriting a slot the writer has not read.
TEST(SampleWriter, DeliversEverySampleInOrderThroughASmallQueue) {
  std::vector<double> times, firsts;
  std::vector<bool> flags;
  SampleWriter writer(3, 4, [&](double t, const Eigen::VectorXd& x, bool interpolated) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // slower than the producer
    times.push_back(t);
    firsts.push_back(x[0]);
    flags.push_back(interpolated);
  });
  Eigen::VectorXd x(3);
  for (int k = 0; k < 50; ++k) {
    x << k, 2 * k, 3 * k;
    ASSERT_TRUE(writer.push(0.1 * k, x, k % 2 == 1));
  }
  writer.finish();
  ASSERT_EQ(times.size(), 50u);
  for (int k = 0; k < 50; ++k) {
    EXPECT_EQ(times[k], 0.1 * k);
    EXPECT_EQ(firsts[k], k);
    EXPECT_EQ(flags[k], k % 2 == 1);
  }
  EXPECT_GT(writer.stalls(), 0);
}

// A sink that throws stops the writer: push() then says so, and finish() rethrows its error.
TEST(SampleWriter, ASinkErrorReachesTheSteppingThread) {
  SampleWriter writer(1, 2, [](double t, const Eigen::VectorXd&, bool) {
    if (t >= 3.0) throw std::runtime_error("disk full");
  });
  const Eigen::VectorXd x = Eigen::VectorXd::Zero(1);
  bool refused = false;
  for (int k = 0; k < 100 && !refused; ++k) refused = !writer.push(k, x, false);
  EXPECT_TRUE(refused);
  EXPECT_THROW(
      {
        try {
          writer.finish();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "disk full");
          throw;
        }
      },
      std::runtime_error);
}

TEST(SampleWriter, QueueHoldsTheWholeRunWhenItFits) {
  EXPECT_EQ(sampleQueueCapacity(1001, 10), 1001);
  EXPECT_EQ(sampleQueueCapacity(5, 10), 64);  // never fewer than 64 slots
  // 1e6 samples of 1000 values do not fit in 64 MiB: as many slots as fit.
  EXPECT_EQ(sampleQueueCapacity(1000000, 1000), static_cast<long>(64.0 * 1024 * 1024 / (1002 * sizeof(double))));
}

// Steps paced at speed 10: 20 steps of 5 ms simulated end no earlier than 10 ms of wall time; a
// step that computes for longer than its share of the clock is a deadline miss.
TEST(StepPacer, WaitsForTheWallClockAndCountsMisses) {
  using Clock = std::chrono::steady_clock;
  StepPacer pacer(10.0);
  const auto begin = Clock::now();
  pacer.start(0.0);
  for (int k = 1; k <= 20; ++k) pacer.stepDone(0.005 * k);
  EXPECT_GE(std::chrono::duration<double>(Clock::now() - begin).count(), 0.010);
  EXPECT_EQ(pacer.stats().steps, 20);
  EXPECT_GE(pacer.stats().worstStep, pacer.stats().meanStep);
  // The next step (due 0.5 ms after the last) computes for 20 ms: a miss, late by about 19.5 ms.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pacer.stepDone(0.105);
  EXPECT_GE(pacer.stats().deadlineMisses, 1);
  EXPECT_GE(pacer.stats().worstLateness, 0.019);
  EXPECT_GE(pacer.stats().worstStep, 0.020);
}

// A paced run gives the same samples as an unpaced one, takes at least the simulated time divided
// by the speed, and reports its step timing; a paced run with restart files is refused.
TEST(RealtimeRun, SameResultsAsAnUnpacedRunAtTheWallClocksPace) {
  struct Times final : SampleSink {
    std::vector<double> values;
    void write(const Sample& s) override {
      values.push_back(s.t);
      for (int k = 0; k < s.q.size(); ++k) values.push_back(s.q[k]);
      values.push_back(s.kineticEnergy);
    }
  };
  const Model chain = makeChain(4, true);
  SimulationOptions o;
  o.formulation = "aba";
  o.integrator = "rk4";
  o.integratorOptions.dt = 1e-3;
  o.tEnd = 0.2;
  Times unpaced, paced;
  ASSERT_TRUE(simulate(chain, o, {&unpaced}).ok);
  o.realtimeSpeed = 4.0;
  const auto begin = std::chrono::steady_clock::now();
  const SimulationResult r = simulate(chain, o, {&paced});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(paced.values, unpaced.values);
  EXPECT_GE(wall, 0.2 / 4.0);
  EXPECT_EQ(r.realtime.speed, 4.0);
  EXPECT_EQ(r.realtime.steps, 200);
  EXPECT_GT(r.realtime.meanStep, 0.0);
  EXPECT_EQ(r.realtime.outputStalls, 0);  // the queue holds all 21 samples
  o.checkpointPath = "never-written.bin";
  const SimulationResult refused = simulate(chain, o, {});
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("restart files"), std::string::npos) << refused.error;
}

}  // namespace ARTICULA_TEST_FILE
