// The cases of a sweep (sweep/cases.hpp, sweep/generators.hpp): columns resolved against the
// model and written into it, grids and Monte Carlo tables.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "articula/io/yaml_model.hpp"
#include "articula/sweep/cases.hpp"
#include "articula/sweep/generators.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
using namespace articula::sweep;

namespace {

Model loadShipped(const std::string& name) { return loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/" + name); }

// The rows of a generated table, each split at commas.
std::vector<std::vector<std::string>> rows(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    out.emplace_back();
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) out.back().push_back(f);
  }
  return out;
}

}  // namespace

TEST(SweepCases, EveryKindOfColumnWritesItsQuantity) {
  const Model five = loadShipped("five_bar.yaml");
  const std::string text =
      "id,mass:bar1,stiffness:spring1,damping:spring2,rest_length:spring1,q0:O1,v0:O1,gravity:x,t_end\n"
      "only, 2.5, 150, 0.25, 2, 0.1, -3, 1.5, 0.75\n";
  const CaseTable table = parseCases(text, "cases.csv", five);
  ASSERT_EQ(table.cases.size(), 1u);
  Model model = five;
  SimulationOptions options;
  applyCase(table, table.cases[0], model, options, five);
  const int bar1 = *five.findBody("bar1"), O1 = *five.findJoint("O1");
  EXPECT_EQ(model.bodies[bar1].mass, 2.5);
  // A mass scales the inertia with it (a density change), the centre of mass stays.
  EXPECT_EQ(model.bodies[bar1].inertiaCom, five.bodies[bar1].inertiaCom * (2.5 / five.bodies[bar1].mass));
  EXPECT_EQ(model.bodies[bar1].com, five.bodies[bar1].com);
  EXPECT_EQ(model.pointSprings[0].stiffness, 150.0);
  EXPECT_EQ(model.pointSprings[0].restLength, 2.0);
  EXPECT_EQ(model.pointSprings[1].damping, 0.25);
  EXPECT_EQ(model.q0[model.joints[O1].iq], 0.1);  // the text's double, not a rounded one
  EXPECT_EQ(model.v0[model.joints[O1].iv], -3.0);
  EXPECT_EQ(model.gravity, Vec3(1.5, five.gravity.y(), five.gravity.z()));
  EXPECT_EQ(options.tEnd, 0.75);
}

TEST(SweepCases, JointSpringsAndRefusedValues) {
  const Model cart = loadShipped("cart_pendulum.yaml");
  const CaseTable table = parseCases("id,stiffness:rail_spring,rest_position:rail_spring\nok,30,-0.5\nbad,-1,0\n", "c.csv", cart);
  Model model = cart;
  SimulationOptions options;
  applyCase(table, table.cases[0], model, options, cart);
  EXPECT_EQ(model.jointSprings[0].stiffness, 30.0);
  EXPECT_EQ(model.jointSprings[0].restPosition, -0.5);
  try {
    applyCase(table, table.cases[1], model, options, cart);
    FAIL() << "a negative stiffness was accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "stiffness:rail_spring: must not be negative, got -1");
  }
  // rest_length is a point spring's; the joint spring is not one.
  EXPECT_THROW(resolveColumn(cart, "rest_length:rail_spring"), Error);
}

TEST(SweepCases, GridIsEveryCombinationLastAxisFastest) {
  const GridAxis a = parseGridAxis("mass:upper=1,2");
  const GridAxis b = parseGridAxis("t_end=0.1:0.3:3");
  ASSERT_EQ(b.values.size(), 3u);
  EXPECT_EQ(b.values.front(), 0.1);
  EXPECT_EQ(b.values.back(), 0.3);  // the end point exactly
  const auto table = rows(fullFactorial({a, b}));
  ASSERT_EQ(table.size(), 7u);
  EXPECT_EQ(table[0], (std::vector<std::string>{"id", "mass:upper", "t_end"}));
  EXPECT_EQ(table[1], (std::vector<std::string>{"g1", "1", "0.1"}));
  EXPECT_EQ(table[3], (std::vector<std::string>{"g3", "1", "0.3"}));
  EXPECT_EQ(table[4], (std::vector<std::string>{"g4", "2", "0.1"}));
  EXPECT_THROW(parseGridAxis("t_end=0.1:0.3:0"), Error);
  EXPECT_THROW(parseGridAxis("t_end=0.1:0.3"), Error);
  EXPECT_THROW(parseGridAxis("=1,2"), Error);
}

TEST(SweepCases, MonteCarloIsReproducibleAndFollowsItsDistributions) {
  const std::vector<Distribution> inputs{parseDistribution("mass:upper=uniform(0.5,2)"),
                                         parseDistribution("q0:shoulder=normal(-1,0.2)")};
  const std::string text = monteCarlo(inputs, 4000, 42);
  EXPECT_EQ(text, monteCarlo(inputs, 4000, 42));
  EXPECT_NE(text, monteCarlo(inputs, 4000, 43));
  const auto table = rows(text);
  ASSERT_EQ(table.size(), 4001u);
  EXPECT_EQ(table[1][0], "mc0001");
  double sum = 0.0, sumSquares = 0.0, lo = 1e9, hi = -1e9;
  for (std::size_t k = 1; k < table.size(); ++k) {
    const double m = std::stod(table[k][1]), q = std::stod(table[k][2]);
    lo = std::min(lo, m);
    hi = std::max(hi, m);
    sum += q;
    sumSquares += q * q;
  }
  EXPECT_GE(lo, 0.5);
  EXPECT_LT(hi, 2.0);
  EXPECT_GT(hi - lo, 1.45);  // spread over the interval
  const double mean = sum / 4000.0, sd = std::sqrt(sumSquares / 4000.0 - mean * mean);
  EXPECT_NEAR(mean, -1.0, 4.0 * 0.2 / std::sqrt(4000.0));  // four standard errors
  EXPECT_NEAR(sd, 0.2, 0.01);
  // The generated text is a cases table of the model, read back to the same numbers.
  const CaseTable parsed = parseCases(text, "cases.csv", loadShipped("double_pendulum.yaml"));
  EXPECT_EQ(formatNumber(parsed.cases[7].values[1]), table[8][2]);
  EXPECT_THROW(parseDistribution("mass:upper=uniform(2,1)"), Error);
  EXPECT_THROW(parseDistribution("mass:upper=normal(0,-1)"), Error);
}

}  // namespace ARTICULA_TEST_FILE
