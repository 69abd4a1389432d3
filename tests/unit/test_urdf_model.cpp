// URDF import: the mapping of links, joints, limits, dynamics and visuals; the round trip
// URDF -> YAML -> model; and one located error for what cannot be mapped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "articula/dynamics/recursive.hpp"
#include "articula/io/urdf_model.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

const std::string kArm = std::string(ARTICULA_SOURCE_DIR) + "/models/arm6.urdf";

std::string robot(const std::string& body) { return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n"; }

std::string urdfLink(const std::string& name, double mass, const std::string& extra = "") {
  std::ostringstream s;
  s << "<link name=\"" << name << "\">";
  if (mass > 0)
    s << "<inertial><origin xyz=\"0.1 0 0.05\" rpy=\"0.3 -0.2 0.5\"/><mass value=\"" << mass
      << "\"/><inertia ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0.002\" izz=\"0.04\"/></inertial>";
  s << extra << "</link>\n";
  return s.str();
}

std::string urdfJoint(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                  const std::string& extra = "") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent + "\"/><child link=\"" + child +
         "\"/><origin xyz=\"0.2 0.1 -0.3\" rpy=\"0.1 0.2 0.3\"/>" + extra + "</joint>\n";
}

// A robot of the given links and joints, imported.
Model urdfModel(const std::string& body) { return parseUrdf(robot(body), "robot.urdf").build(); }

ModelError urdfError(const std::string& xml) {
  try {
    parseUrdf(xml, "robot.urdf").build();
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << xml;
  return ModelError({}, "", "");
}

Model roundTrip(const Model& m) {
  std::ostringstream yaml;
  writeModelYaml(m, yaml);
  return parseModelYaml(yaml.str(), "converted.yaml").build();
}

// Random q (limits ignored: the dynamics are defined everywhere), v and tau.
struct State {
  Eigen::VectorXd q, v, tau;
};
State randomState(const Model& m, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  State s{m.q0, Eigen::VectorXd(m.nv), Eigen::VectorXd(m.nv)};
  Eigen::VectorXd dq(m.nv);
  for (int i = 0; i < m.nv; ++i) dq[i] = u(gen), s.v[i] = 2.0 * u(gen), s.tau[i] = 5.0 * u(gen);
  integrateConfiguration(m, s.q, dq);
  return s;
}

}  // namespace

TEST(UrdfModel, SampleArmMapsLinksJointsLimitsAndVisuals) {
  const Model m = loadModel(kArm);
  EXPECT_EQ(m.name, "arm6");
  EXPECT_EQ(m.gravity, Vec3(0, 0, -9.81));
  ASSERT_EQ(m.bodyCount(), 6) << "tool0 and gripper are lumped into wrist_3";
  EXPECT_EQ(m.nv, 6);
  EXPECT_EQ(m.jointLimits.size(), 6u);
  EXPECT_EQ(m.jointFrictions.size(), 6u);
  EXPECT_EQ(m.jointSprings.size(), 6u) << "one damper per joint";
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
  // The base is the ground, with its cylinder.
  ASSERT_EQ(m.bodies[0].shapes.size(), 1u);
  EXPECT_EQ(m.bodies[0].shapes[0].kind, Shape::Kind::Cylinder);
  // wrist_3 (0.25 kg) + gripper (0.6 kg), the gripper's mesh found beside the URDF.
  const Body& wrist3 = m.bodies[*m.findBody("wrist_3")];
  EXPECT_DOUBLE_EQ(wrist3.mass, 0.85);
  ASSERT_EQ(wrist3.shapes.size(), 2u);
  EXPECT_EQ(wrist3.shapes[1].kind, Shape::Kind::Mesh);
  EXPECT_TRUE(std::filesystem::exists(wrist3.shapes[1].mesh)) << wrist3.shapes[1].mesh;
  EXPECT_TRUE(m.findMarker("tool0").has_value());
  EXPECT_TRUE(m.findMarker("gripper").has_value());
  // Shoulder lift: limits [-1.5, 1.2] as a stop; q0 = 0 lies inside.
  const JointLimit& lift = m.jointLimits[1];
  EXPECT_EQ(m.joints[lift.joint].name, "shoulder_lift");
  EXPECT_DOUBLE_EQ(lift.lower, -1.5);
  EXPECT_DOUBLE_EQ(lift.upper, 1.2);
  EXPECT_EQ(lift.stiffness, kUrdfLimitStiffness);
  EXPECT_EQ(m.bodies[0].shapes[0].color, "#333840") << "material 'dark', rgba 0.2 0.22 0.25";
}

// The acceptance test: URDF -> YAML -> model gives the same mass matrix and ABA.
TEST(UrdfModel, ConvertedYamlGivesTheSameMassMatrixAndAba) {
  const Model a = loadModel(kArm);
  const Model b = roundTrip(a);
  Workspace wa(a), wb(b);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const State s = randomState(a, seed);
    Eigen::MatrixXd Ma(a.nv, a.nv), Mb(b.nv, b.nv);
    massMatrix(a, wa, s.q, Ma);
    massMatrix(b, wb, s.q, Mb);
    EXPECT_LT((Ma - Mb).norm(), 1e-12 * Ma.norm()) << "seed " << seed;
    Eigen::VectorXd qdda(a.nv), qddb(b.nv);
    forwardDynamics(a, wa, s.q, s.v, s.tau, nullptr, qdda);
    forwardDynamics(b, wb, s.q, s.v, s.tau, nullptr, qddb);
    EXPECT_LT((qdda - qddb).norm(), 1e-12 * qdda.norm()) << "seed " << seed;
  }
}

// A fixed joint lumps its child into the parent body: one body whose mass, centre of mass and
// central inertia are the parallel-axis sum of the two inertials, written out here.
TEST(UrdfModel, FixedJointsLumpInertiaIntoTheParent) {
  const Model lumped = urdfModel(urdfLink("base", 0) + urdfLink("arm", 2.0) + urdfLink("tip", 0.5) +
                                 urdfJoint("hinge", "continuous", "base", "arm", "<axis xyz=\"0 1 0\"/>") +
                                 urdfJoint("weld", "fixed", "arm", "tip"));
  ASSERT_EQ(lumped.bodyCount(), 1);
  const Body& b = lumped.bodies[1];
  EXPECT_DOUBLE_EQ(b.mass, 2.5);
  const Mat3 R1 = rpyRotation(Vec3(0.3, -0.2, 0.5));
  const Mat3 Rw = rpyRotation(Vec3(0.1, 0.2, 0.3));
  const Vec3 c1(0.1, 0, 0.05), c2 = Rw * c1 + Vec3(0.2, 0.1, -0.3);
  Mat3 Ic;
  Ic << 0.02, 0.001, 0, 0.001, 0.03, 0.002, 0, 0.002, 0.04;
  const Vec3 com = (2.0 * c1 + 0.5 * c2) / 2.5;
  EXPECT_LT((b.com - com).norm(), 1e-14);
  auto shift = [](double m, const Vec3& d) { return m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()); };
  const Mat3 I = R1 * Ic * R1.transpose() + shift(2.0, c1 - com) + (Rw * R1) * Ic * (Rw * R1).transpose() + shift(0.5, c2 - com);
  EXPECT_LT((b.inertiaCom - I).norm(), 1e-14);
  EXPECT_TRUE(lumped.findMarker("tip").has_value());
}

// Planar and floating joints: the converted model agrees, and the planar joint moves in the
// plane normal to the URDF axis.
TEST(UrdfModel, PlanarAndFloatingJoints) {
  const Model m = urdfModel(urdfLink("world", 0) + urdfLink("puck", 1.0) + urdfLink("drone", 2.0) +
                            urdfJoint("slide", "planar", "world", "puck", "<axis xyz=\"1 0 0\"/>") +
                            urdfJoint("fly", "floating", "world", "drone"));
  ASSERT_EQ(m.bodyCount(), 2);
  const int puck = *m.findBody("puck");
  const Joint& slide = m.joints[puck];
  EXPECT_EQ(slide.type, JointType::Planar);
  EXPECT_EQ(m.joints[*m.findBody("drone")].type, JointType::Free);
  // The planar joint's in-plane translations are normal to the URDF axis, in the parent frame.
  Workspace ws(m);
  Eigen::VectorXd q = m.q0;
  q[slide.iq] = 0.3;
  q[slide.iq + 1] = -0.2;
  updatePositions(m, ws, q);
  const Vec3 moved = pointPosition(ws, puck, Vec3::Zero());
  updatePositions(m, ws, m.q0);
  const Vec3 axisWorld = rpyRotation(Vec3(0.1, 0.2, 0.3)) * Vec3::UnitX();
  EXPECT_NEAR((moved - pointPosition(ws, puck, Vec3::Zero())).dot(axisWorld), 0.0, 1e-14);
  EXPECT_NEAR((moved - pointPosition(ws, puck, Vec3::Zero())).norm(), std::hypot(0.3, 0.2), 1e-14);
  const Model b = roundTrip(m);
  Workspace wa(m), wb(b);
  const State s = randomState(m, 3);
  Eigen::MatrixXd Ma(m.nv, m.nv), Mb(b.nv, b.nv);
  massMatrix(m, wa, s.q, Ma);
  massMatrix(b, wb, s.q, Mb);
  EXPECT_LT((Ma - Mb).norm(), 1e-12 * Ma.norm());
}

TEST(UrdfModel, LimitsDampingAndFrictionBecomeForceElements) {
  const Model m = urdfModel(urdfLink("base", 0) + urdfLink("a", 1.0) +
                            urdfJoint("j", "prismatic", "base", "a",
                            "<axis xyz=\"0 0 1\"/><limit lower=\"0.1\" upper=\"0.4\" effort=\"1\" velocity=\"1\"/>"
                            "<dynamics damping=\"0.7\" friction=\"0.2\"/>"));
  EXPECT_EQ(m.joints[1].type, JointType::Prismatic);
  EXPECT_DOUBLE_EQ(m.q0[0], 0.1) << "0 clamped into the limits";
  ASSERT_EQ(m.jointLimits.size(), 1u);
  ASSERT_EQ(m.jointSprings.size(), 1u);
  EXPECT_EQ(m.jointSprings[0].stiffness, 0.0);
  EXPECT_EQ(m.jointSprings[0].damping, 0.7);
  ASSERT_EQ(m.jointFrictions.size(), 1u);
  EXPECT_EQ(m.jointFrictions[0].force, 0.2);
  EXPECT_EQ(m.jointFrictions[0].slipVelocity, kUrdfFrictionSlipVelocity);
}

TEST(UrdfModel, MissingMeshBecomesAPlaceholderBoxAndAWarning) {
  const Model m = urdfModel(urdfLink("base", 0) +
                            urdfLink("a", 1.0, "<visual><geometry><mesh filename=\"package://nowhere/a.stl\"/></geometry></visual>") +
                            urdfJoint("j", "continuous", "base", "a"));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("link 'a': mesh 'package://nowhere/a.stl' was not found"), std::string::npos) << m.warnings[0];
  ASSERT_EQ(m.bodies[1].shapes.size(), 1u);
  EXPECT_EQ(m.bodies[1].shapes[0].kind, Shape::Kind::Box);
  EXPECT_GT(m.bodies[1].shapes[0].size.minCoeff(), 0.0);
}

TEST(UrdfModel, WhatCannotBeMappedIsOneLocatedError) {
  struct Case {
    std::string xml, expected;
    int line;  ///< > 0: that line; -1: some line (where the XML parser stopped); 0: the file as a whole
  };
  const std::string base = urdfLink("base", 0) + urdfLink("a", 1.0);
  const std::vector<Case> cases = {
      {robot(base + urdfJoint("j", "revolute", "base", "a",
                          "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/><mimic joint=\"k\"/>")),
       "joint 'j': mimic joints cannot be mapped", 5},
      {robot(urdfLink("base", 0) + urdfLink("a", 0) + urdfJoint("j", "revolute", "base", "a",
                                                    "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>")),
       "link 'a': has no mass, but joint 'j' moves it", 4},
      {robot(base + urdfJoint("j", "continuous", "base", "a", "<axis xyz=\"0 0 0\"/>")), "joint 'j': axis has zero length", 5},
      {robot(base + "<joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"a\"\n</robot>"), "malformed XML", -1},
      {"<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/></robot>", "not a valid URDF robot", 0},
      {"<model/>", "not a URDF file: no <robot> element", 0},
      {robot(base + urdfJoint("j", "continuous", "a", "a")), "joint 'j': its parent and child are the same link 'a'", 5},
      {robot(base + urdfJoint("j", "continuous", "base", "a") + urdfJoint("k", "continuous", "base", "a")),
       "joint 'k': link 'a' is already the child of joint 'j' (line 5)", 6},
      {robot(base + urdfLink("b", 1.0) + urdfJoint("j", "continuous", "a", "b") + urdfJoint("k", "continuous", "b", "a")),
       "the joints form a cycle through link", -1},
      {robot(urdfLink("base", 0) + urdfLink("a", 1.0, "<visual><geometry><box size=\"1 0 1\"/></geometry></visual>") +
             urdfJoint("j", "continuous", "base", "a")),
       "link 'a': a <visual> geometry has a size", 4},
      // Text that is not UTF-8, at the offending byte (TinyXML itself would read past the end of
      // a character cut short there).
      {robot(base + "<link name=\"b\xE6\xE6"), "byte 0xE6 is not part of a UTF-8 character", 5},
      {robot("<!-- caf\xE9 -->\n" + base), "byte 0xE9 is not part of a UTF-8 character", 3},
      {robot(base) + std::string(1, '\0'), "a NUL byte", 6},
  };
  for (const Case& c : cases) {
    const ModelError e = urdfError(c.xml);
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    EXPECT_EQ(e.where().file, "robot.urdf") << e.what();
    if (c.line >= 0) {
      EXPECT_EQ(e.where().line, c.line) << e.what();
    } else {
      EXPECT_GT(e.where().line, 0) << e.what();
    }
  }
}

TEST(UrdfModel, Utf8NamesAndCommentsAreRead) {
  const std::string xml = robot("<!-- Gelenkarm, \xC3\xA9paule \xE2\x86\x92 coude \xF0\x9F\xA6\xBE -->\n" + urdfLink("base", 0) +
                                urdfLink("\xC3\xA9paule", 1.0) + urdfJoint("j", "continuous", "base", "\xC3\xA9paule"));
  const Model m = parseUrdf(xml, "robot.urdf").build();
  ASSERT_EQ(m.bodies.size(), 2u);
  EXPECT_EQ(m.bodies[1].name, "\xC3\xA9paule");
}

TEST(UrdfModel, FilesAreRecognisedByTheirExtension) {
  EXPECT_TRUE(isUrdfPath("robots/arm.urdf"));
  EXPECT_TRUE(isUrdfPath("ARM.URDF"));
  EXPECT_FALSE(isUrdfPath("arm.urdf.yaml"));
  EXPECT_FALSE(isUrdfPath("urdf"));
}

}  // namespace ARTICULA_TEST_FILE
