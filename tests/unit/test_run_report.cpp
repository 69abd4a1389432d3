// summary.json read back (written by the project's own writer), the benchmark figures of a run,
// and the HTML report built from them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "articula/core/error.hpp"
#include "articula/io/run_report.hpp"
#include "articula/io/run_summary.hpp"
#include "articula/io/summary_json.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
namespace fs = std::filesystem;

class RunSummaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("articula-summary-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }
  std::string errorOf(const std::string& path) const {
    try {
      readRunSummary(path);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

SimulationResult sampleResult() {
  SimulationResult r;
  r.formulation = "reference";
  r.integrator = "rk45";
  r.tReached = 2.0;
  r.wallSeconds = 0.5;
  r.outputSeconds = 0.1;
  r.steps = 200;
  r.rejectedSteps = 3;
  r.evaluations = 1400;
  r.samples = 201;
  r.initialEnergy = 10.25;
  r.finalEnergy = 10.2500001;
  r.maxEnergyDrift = 1e-7;
  r.maxRelativeEnergyDrift = 1e-8;
  r.maxPositionError = 9.5e-13;
  r.maxVelocityError = 3.5e-15;
  return r;
}

SimulationOptions sampleOptions() {
  SimulationOptions o;
  o.tEnd = 2.0;
  return o;
}

ResultsTable sampleTable() {
  std::istringstream in(
      "time,crank.q,kinetic_energy,potential_energy,total_energy,constraint_position_error,constraint_velocity_error\n"
      "0,1,0,10,10,0,0\n1,1.5,4,6,10.000001,1e-15,2e-16\n2,2,2,8,9.999999,3e-13,0\n");
  return ResultsTable::parse(in, "out/results.csv");
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(RunSummaryTest, ReadsWhatTheWriterWrites) {
  const Model model = makeNFourBar(1);
  writeSummaryJson(file("summary.json"), model, "models/x.yaml", sampleOptions(), sampleResult());
  const RunSummary s = readRunSummary(file("summary.json"));
  EXPECT_TRUE(s.ok);
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.modelName, model.name);
  EXPECT_EQ(s.modelFile, "models/x.yaml");
  EXPECT_EQ(s.bodies, model.bodyCount());
  EXPECT_EQ(s.constraintEquations, model.constraintCount());
  EXPECT_EQ(s.formulation, "reference");
  EXPECT_EQ(s.integrator, "rk45");
  EXPECT_EQ(s.stabilization, "projection");
  EXPECT_EQ(s.dt, sampleOptions().integratorOptions.dt);
  EXPECT_EQ(s.tEnd, 2.0);
  EXPECT_EQ(s.tReached, 2.0);
  EXPECT_EQ(s.wallSeconds, 0.5);
  EXPECT_EQ(s.outputSeconds, 0.1);
  EXPECT_EQ(s.steps, 200);
  EXPECT_EQ(s.rejectedSteps, 3);
  EXPECT_EQ(s.evaluations, 1400);
  EXPECT_EQ(s.samples, 201);
  EXPECT_FALSE(s.resumedAt);
  EXPECT_TRUE(s.conservative);
  EXPECT_EQ(s.finalEnergy, 10.2500001);
  EXPECT_EQ(s.maxRelativeEnergyDrift, 1e-8);
  EXPECT_EQ(s.maxPositionError, 9.5e-13);
  EXPECT_EQ(s.maxVelocityError, 3.5e-15);
}

TEST_F(RunSummaryTest, ReadsAFailedRunsErrorAndNonFiniteNumbers) {
  SimulationResult r = sampleResult();
  r.ok = false;
  r.error = "at t = 0.5 s (step 12): joint \"crank\" is not finite\n(second line)";
  r.finalEnergy = NAN;  // written as null
  r.resumedAt = 0.25;
  writeSummaryJson(file("summary.json"), makeNFourBar(1), "m.yaml", sampleOptions(), r);
  const RunSummary s = readRunSummary(file("summary.json"));
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.error, r.error);
  EXPECT_TRUE(std::isnan(s.finalEnergy));
  ASSERT_TRUE(s.resumedAt);
  EXPECT_EQ(*s.resumedAt, 0.25);
}

TEST_F(RunSummaryTest, MalformedSummariesNameFileAndProblem) {
  EXPECT_EQ(errorOf(file("missing.json")), "cannot open '" + file("missing.json") + "'");
  const std::string syntax = errorOf(write("a.json", "{\n  \"status\": \"ok\",\n  \"steps\": [1, 2\n}\n"));
  EXPECT_EQ(syntax.rfind(file("a.json") + ":", 0), 0u) << syntax;
  EXPECT_NE(syntax.find("not valid JSON"), std::string::npos) << syntax;
  EXPECT_EQ(errorOf(write("b.json", "[1, 2]\n")), file("b.json") + ": not a JSON object (is it a summary.json of articula simulate?)");
  EXPECT_EQ(errorOf(write("c.json", "{\"status\": \"ok\"}\n")),
            file("c.json") + ": no member 'model.name' (is it a summary.json of articula simulate?)");
  // A real summary with one member of the wrong type.
  writeSummaryJson(file("d.json"), makeNFourBar(1), "m.yaml", sampleOptions(), sampleResult());
  std::ifstream in(file("d.json"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("\"steps\": 200"), 12, "\"steps\": \"many\"");
  EXPECT_EQ(errorOf(write("d.json", text)), file("d.json") + ": member 'steps' is not a number");
}

TEST(RunBenchmark, FiguresOfTheRun) {
  RunSummary s;
  s.tStart = 0.0;
  s.tReached = 2.0;
  s.wallSeconds = 0.5;
  s.outputSeconds = 0.1;
  s.steps = 200;
  s.evaluations = 1400;
  const RunBenchmark b = benchmarkOf(s);
  EXPECT_DOUBLE_EQ(b.simulatedSeconds, 2.0);
  EXPECT_DOUBLE_EQ(b.integrationSeconds, 0.4);
  EXPECT_DOUBLE_EQ(b.secondsPerStep, 0.0025);
  EXPECT_DOUBLE_EQ(b.stepsPerSecond, 500.0);
  EXPECT_DOUBLE_EQ(b.evaluationsPerStep, 7.0);
  EXPECT_DOUBLE_EQ(b.realTimeFactor, 5.0);
  s.steps = 0;
  EXPECT_TRUE(std::isnan(benchmarkOf(s).evaluationsPerStep));
  EXPECT_TRUE(std::isnan(benchmarkOf(s).secondsPerStep));
}

TEST_F(RunSummaryTest, ReportOfASuccessfulRun) {
  writeSummaryJson(file("summary.json"), makeNFourBar(1), "models/x.yaml", sampleOptions(), sampleResult());
  const std::string html = runReportHtml(readRunSummary(file("summary.json")), sampleTable());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_TRUE(html.ends_with("</body>\n</html>\n"));
  EXPECT_EQ(count(html, "The run finished: 2 s simulated with reference + rk45."), 1);
  EXPECT_EQ(count(html, "<svg"), 3);  // energy, relative energy drift, constraint errors
  EXPECT_EQ(count(html, ">Relative energy drift (E(t) - E(0)) / |E(0)|</text>"), 1);
  EXPECT_EQ(count(html, ">constraint_velocity_error</text>"), 1);
  EXPECT_EQ(count(html, "<tr><th>real-time factor</th><td>5 (simulated time / integration time"), 1);
  EXPECT_EQ(count(html, "<tr><th>evaluations per step</th><td>7</td></tr>"), 1);
  EXPECT_EQ(count(html, "<tr><th>steps per second</th><td>500 (of integration time)</td></tr>"), 1);
  EXPECT_EQ(count(html, "<tr><th>integration time</th><td>400 ms"), 1);
  EXPECT_EQ(count(html, "<tr><th>time per step</th><td>2.5 ms</td></tr>"), 1);
  EXPECT_EQ(count(html, "<tr><th>steps</th><td>200 accepted, 3 rejected</td></tr>"), 1);
  EXPECT_EQ(count(html, "<script"), 0);
  EXPECT_EQ(count(html, "src="), 0);
  EXPECT_EQ(count(html, "href"), 0);
}

TEST_F(RunSummaryTest, ReportOfAFailedRunShowsTheError) {
  SimulationResult r = sampleResult();
  r.ok = false;
  r.error = "at t = 0.5 s (step 12): <joint> is not finite";
  r.tReached = 0.5;
  writeSummaryJson(file("summary.json"), makeNFourBar(1), "m.yaml", sampleOptions(), r);
  const std::string html = runReportHtml(readRunSummary(file("summary.json")), sampleTable());
  EXPECT_EQ(count(html, "role=\"alert\">The run failed: at t = 0.5 s (step 12): &lt;joint&gt; is not finite. Results up to t = 0.5 s."), 1);
  EXPECT_EQ(count(html, "The run finished"), 0);
}

TEST_F(RunSummaryTest, ReportLeavesOutWhatTheRunHasNot) {
  // An open chain: no constraint equations, so no constraint plot.
  writeSummaryJson(file("summary.json"), makeChain(2, false), "chain.yaml", sampleOptions(), sampleResult());
  const RunSummary s = readRunSummary(file("summary.json"));
  const std::string html = runReportHtml(s, sampleTable());
  EXPECT_EQ(count(html, "<svg"), 2);
  EXPECT_EQ(count(html, "The model has no constraint equations."), 1);
  // Results without energy columns: notes instead of plots.
  std::istringstream in("time,crank.q\n0,1\n");
  const std::string bare = runReportHtml(s, ResultsTable::parse(in, "r.csv"));
  EXPECT_EQ(count(bare, "<svg"), 0);
  EXPECT_EQ(count(bare, "results.csv has no energy columns."), 1);
}

}  // namespace ARTICULA_TEST_FILE
