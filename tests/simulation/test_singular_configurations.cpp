// A closed loop driven through singular configurations: the run stops with a message that
// names the singularity, or (when told to go on) counts every passage; never a NaN.
#include <gtest/gtest.h>

#include <cmath>

#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {
const std::string kModels = std::string(ARTICULA_TEST_MODELS) + "/";

SimulationOptions options(bool stop) {
  SimulationOptions o;
  o.formulation = "reference";
  o.tEnd = 6.0;
  o.stopAtSingularities = stop;
  return o;
}

void expectFinite(const test_models::Recorder& rec) {
  for (std::size_t k = 0; k < rec.t.size(); ++k)
    ASSERT_TRUE(rec.q[k].allFinite() && rec.v[k].allFinite()) << "sample at t = " << rec.t[k];
}
}  // namespace

TEST(SingularConfigurations, ParallelogramStopsAtItsFirstFlatPosition) {
  const Model model = loadModel(kModels + "parallelogram_four_bar.yaml");
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, options(true), {&rec});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("singular configuration"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("--through-singularities"), std::string::npos) << r.error;
  expectFinite(rec);
  // It stops at the step that crossed the flat position: the crank (from pi/2, turning
  // clockwise) is within one step's travel of angle 0 there.
  ASSERT_FALSE(rec.q.empty());
  EXPECT_LT(std::abs(rec.q.back()[0]), 0.2) << "crank angle at the last sample";
  EXPECT_GT(r.tReached, 0.3);
}

TEST(SingularConfigurations, ThroughSingularitiesCountsEveryPassage) {
  const Model model = loadModel(kModels + "parallelogram_four_bar.yaml");
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, options(false), {&rec});
  ASSERT_TRUE(r.ok) << r.error;
  expectFinite(rec);
  // The crank turns through the flat positions (angles k pi) several times in 6 s: each
  // passage is counted, and the first one is described.
  double turned = 0.0;
  for (std::size_t k = 1; k < rec.q.size(); ++k) turned += std::abs(rec.q[k][0] - rec.q[k - 1][0]);
  EXPECT_GE(r.singularConfigurations, 2);
  EXPECT_LE(r.singularConfigurations, static_cast<long>(turned / 3.14159) + 2);
  EXPECT_NE(r.firstSingularity.find("singular configuration"), std::string::npos);
}

TEST(SingularConfigurations, CrankRockerFourBarHasNone) {
  // models/four_bar.yaml is a Grashof crank-rocker (0.5 + 1.2 < 1.0 + 0.8): no change point.
  const Model model = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/four_bar.yaml");
  SimulationOptions o = options(true);
  o.tEnd = 10.0;
  const SimulationResult r = simulate(model, o, {});
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.singularConfigurations, 0);
}

// The N four-bar mechanism with N even (IFToMM A02 has N = 40): at its flat position N loops lose
// rank at once, so the watched minor behaves like sin^N of the crank angle and keeps its sign; the
// monitor sees the dip of its magnitude instead. With N = 2 the run stops at the first flat
// position, the crank within one step's travel of angle 0 (it starts at pi/2 turning clockwise).
TEST(SingularConfigurations, EvenNFourBarStopsAtItsFirstFlatPosition) {
  for (int fourBars : {2, 3}) {
    test_models::Recorder rec;
    const SimulationResult r = simulate(makeNFourBar(fourBars), options(true), {&rec});
    ASSERT_FALSE(r.ok) << "N = " << fourBars;
    EXPECT_NE(r.error.find("singular configuration"), std::string::npos) << r.error;
    expectFinite(rec);
    ASSERT_FALSE(rec.q.empty());
    const Model model = makeNFourBar(fourBars);
    const int crank = model.joints[*model.findJoint("A0")].iq;
    EXPECT_LT(std::abs(rec.q.back()[crank]), 0.2) << "N = " << fourBars << ": crank angle at the last sample";
    EXPECT_GT(r.tReached, 0.3) << "N = " << fourBars;
  }
}

}  // namespace ARTICULA_TEST_FILE
