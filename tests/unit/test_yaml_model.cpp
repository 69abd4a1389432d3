// The YAML model format: every shipped example loads, models round-trip through the
// writer, and every malformed file gets one error naming file, line, element and reason.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <sstream>

#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace {
const std::string kBad = std::string(ARTICULA_TEST_MODELS) + "/bad/";

std::string errorOf(const std::string& file) {
  try {
    loadModel(kBad + file);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(YamlModel, ShippedExamplesLoad) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_NO_THROW(loadModel(entry.path().string())) << entry.path();
    ++count;
  }
  EXPECT_GE(count, 5);
}

TEST(YamlModel, FourBarMatchesItsSpecification) {
  const Model m = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/four_bar.yaml");
  EXPECT_EQ(m.bodyCount(), 3);
  EXPECT_EQ(m.loops.size(), 1u);
  EXPECT_DOUBLE_EQ(m.bodies[*m.findBody("coupler")].mass, 1.2);
  EXPECT_DOUBLE_EQ(m.joints[*m.findJoint("D")].placement.r.x(), 1.0);
  EXPECT_TRUE(m.lockedInAssembly[static_cast<std::size_t>(m.joints[*m.findJoint("A")].iv)]);
}

TEST(YamlModel, WriterRoundTrips) {
  ModelBuilder b = chainBuilder(4, true);
  b.addJointSpring({"s", "joint2", 0, 3.0, 0.5, 0.1, {}});
  b.addJointLoad({"drive", "joint1", 0, TimeFunction::sine(2.0, 0.5, 0.3, 0.1), {}});
  b.addBodyLoad({"push", "link3", false, true, Vec3(0.1, 0, 0), Vec3(0, 0, 1), TimeFunction::table({0, 1, 2}, {0, 5, 0}), {}});
  b.addPointSpring({"p", "ground", "link4", Vec3(1, 1, 0), Vec3(0.5, 0, 0), 10.0, 0.2, 0.3, {}});
  b.addMarker({"tip", "link4", Vec3(0.5, 0, 0), {}});
  LoopSpec l;
  l.name = "tie";
  l.type = LoopConstraint::Type::Distance;
  l.bodyA = "link1";
  l.bodyB = "link4";
  l.distance = 1.0;
  b.addLoop(l);
  const Model m = b.build();
  std::ostringstream out;
  writeModelYaml(m, out);
  const Model back = parseModelYaml(out.str(), "roundtrip.yaml").build();
  ASSERT_EQ(back.bodyCount(), m.bodyCount());
  EXPECT_LT((back.q0 - m.q0).norm(), 1e-15);
  for (int i = 1; i <= m.bodyCount(); ++i) {
    EXPECT_LT((back.bodies[i].inertia.matrix() - m.bodies[i].inertia.matrix()).norm(), 1e-15);
    EXPECT_LT((back.joints[i].placement.motionMatrix() - m.joints[i].placement.motionMatrix()).norm(), 1e-15);
    EXPECT_LT((back.joints[i].axis - m.joints[i].axis).norm(), 1e-15);
  }
  ASSERT_EQ(back.loops.size(), 1u);
  EXPECT_EQ(back.loops[0].type, LoopConstraint::Type::Distance);
  ASSERT_EQ(back.jointLoads.size(), 1u);
  ASSERT_EQ(back.bodyLoads.size(), 1u);
  for (double t : {0.0, 0.3, 1.5, 3.0}) {
    EXPECT_NEAR(back.jointLoads[0].magnitude.value(t), m.jointLoads[0].magnitude.value(t), 1e-14);
    EXPECT_NEAR(back.bodyLoads[0].magnitude.value(t), m.bodyLoads[0].magnitude.value(t), 1e-14);
  }
  EXPECT_EQ(back.pointSprings.size(), 1u);
  EXPECT_EQ(back.markers.size(), 1u);
}

struct BadFile {
  const char* file;
  std::vector<std::string> expected;  // substrings of the message
};

class YamlModelErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(YamlModelErrors, NameFileLineElementAndReason) {
  const BadFile& c = GetParam();
  const std::string msg = errorOf(c.file);
  EXPECT_NE(msg.find(kBad + c.file), std::string::npos) << msg;
  for (const auto& s : c.expected) EXPECT_NE(msg.find(s), std::string::npos) << "expected '" << s << "' in: " << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, YamlModelErrors,
    ::testing::Values(
        BadFile{"unknown_joint_type.yaml", {":7:", "joint 'j1'", "unknown joint type 'revolut'", "revolute, prismatic"}},
        BadFile{"missing_name.yaml", {":2:", "bodies[0]", "missing required key 'name'"}},
        BadFile{"duplicate_body.yaml", {":3:", "body 'rod'", "duplicate name (first defined at line 2)"}},
        BadFile{"duplicate_joint.yaml", {":6:", "joint 'j1'", "duplicate name"}},
        BadFile{"two_parents.yaml", {":7:", "joint 'j3'", "body 'b' has two parents"}},
        BadFile{"cycle.yaml", {"joint '", "cycle"}},
        BadFile{"unattached_body.yaml", {":3:", "body 'floating'", "not attached"}},
        BadFile{"nonpositive_mass.yaml", {":2:", "body 'rod'", "mass must be positive"}},
        BadFile{"inertia_not_pd.yaml", {":2:", "body 'rod'", "not positive definite"}},
        BadFile{"inertia_triangle.yaml", {":2:", "body 'rod'", "triangle inequality"}},
        BadFile{"zero_axis.yaml", {":4:", "joint 'j1'", "axis has zero length"}},
        BadFile{"loop_unknown_body.yaml", {":6:", "loop 'closure'", "body_b 'rockr' is not defined"}},
        BadFile{"unknown_parent.yaml", {":4:", "joint 'j1'", "parent body 'grund' is not defined"}},
        BadFile{"wrong_length.yaml", {":4:", "body 'rod'", "com: expected 3 numbers, got 2"}},
        BadFile{"not_a_number.yaml", {":3:", "body 'rod'", "mass: 'heavy' is not a number"}},
        BadFile{"unknown_key.yaml", {":8:", "joint 'j1'", "unknown key 'axs'"}},
        BadFile{"syntax_error.yaml", {":3:", "YAML syntax error"}},
        BadFile{"table_decreasing.yaml", {":9:", "force 'push' magnitude", "strictly increasing"}},
        BadFile{"wrong_q_length.yaml", {":4:", "joint 'ball'", "needs 4 values for a spherical joint, got 3"}},
        BadFile{"nan_value.yaml", {":3:", "body 'rod'", "not a finite number"}},
        BadFile{"empty.yaml", {"must be a YAML map"}}),
    [](const ::testing::TestParamInfo<BadFile>& info) {
      std::string name = info.param.file;
      name = name.substr(0, name.find('.'));
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(YamlModel, MissingFileIsNamed) {
  try {
    loadModel("/nonexistent/model.yaml");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.yaml: cannot open the model file"), std::string::npos) << e.what();
  }
}
