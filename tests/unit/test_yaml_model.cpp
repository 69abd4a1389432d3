// The YAML model format: the shipped examples load and match their descriptions,
// models round-trip through the writer, the accepted spellings read as documented,
// every malformed file gets one error naming file, line, element and reason, and
// mutated files never make the loader crash or produce non-finite models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/kinematics/workspace.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

const std::string kExamples = std::string(ARTICULA_SOURCE_DIR) + "/models/";
const std::string kBad = std::string(ARTICULA_TEST_MODELS) + "/bad/";
constexpr double kPi = std::numbers::pi;

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> exampleFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kExamples))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Model parse(const std::string& text) { return parseModelYaml(text, "test.yaml").build(); }

std::string written(const Model& m) {
  std::ostringstream out;
  writeModelYaml(m, out);
  return out.str();
}

// The ModelError that `f` throws (none: fails the test).
template <class F>
ModelError errorFrom(F&& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "no ModelError thrown";
  return ModelError({}, "", "none");
}

ModelError parseError(const std::string& text) { return errorFrom([&] { parse(text); }); }

// |a - b| small relative to the magnitudes involved.
bool near(double a, double b, double tol) { return std::abs(a - b) <= tol * std::max({1.0, std::abs(a), std::abs(b)}); }
template <class A, class B>
bool near(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b, double tol) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!near(a.derived().reshaped()(i), b.derived().reshaped()(i), tol)) return false;
  return true;
}

void expectSameFunction(const TimeFunction& a, const TimeFunction& b, const std::string& what) {
  EXPECT_EQ(a.kind(), b.kind()) << what;
  for (double t : {-1.0, 0.0, 0.25, 0.7, 1.3, 2.0, 5.0}) {
    EXPECT_TRUE(near(a.value(t), b.value(t), 1e-13)) << what << " at t = " << t;
    EXPECT_TRUE(near(a.derivative(t), b.derivative(t), 1e-12)) << what << " at t = " << t;
    EXPECT_TRUE(near(a.secondDerivative(t), b.secondDerivative(t), 1e-11)) << what << " at t = " << t;
  }
}

// Every field of two models, numbers within `tol` (relative to their size).
void expectSameModel(const Model& a, const Model& b, double tol = 1e-14) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_TRUE(near(a.gravity, b.gravity, tol));
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const Body &x = a.bodies[i], &y = b.bodies[i];
    SCOPED_TRACE("body " + x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_TRUE(near(x.mass, y.mass, tol));
    EXPECT_TRUE(near(x.com, y.com, tol));
    EXPECT_TRUE(near(x.inertiaCom, y.inertiaCom, tol));
    EXPECT_TRUE(near(x.inertia.matrix(), y.inertia.matrix(), tol));
    ASSERT_EQ(x.shapes.size(), y.shapes.size());
    for (std::size_t k = 0; k < x.shapes.size(); ++k) {
      const Shape &s = x.shapes[k], &t = y.shapes[k];
      EXPECT_EQ(s.kind, t.kind);
      EXPECT_TRUE(near(s.size, t.size, tol));
      EXPECT_TRUE(near(s.radius, t.radius, tol));
      EXPECT_TRUE(near(s.length, t.length, tol));
      EXPECT_TRUE(near(s.position, t.position, tol));
      EXPECT_TRUE(near(s.rotation, t.rotation, tol));
      EXPECT_EQ(s.color, t.color);
      EXPECT_EQ(s.mesh, t.mesh);
      EXPECT_TRUE(near(s.scale, t.scale, tol));
    }
  }
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t i = 1; i < a.joints.size(); ++i) {
    const Joint &x = a.joints[i], &y = b.joints[i];
    SCOPED_TRACE("joint " + x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.child, y.child);
    EXPECT_TRUE(near(x.placement.E, y.placement.E, tol));
    EXPECT_TRUE(near(x.placement.r, y.placement.r, tol));
    EXPECT_TRUE(near(x.axis, y.axis, tol));
    EXPECT_TRUE(near(x.axis2, y.axis2, tol));
    EXPECT_EQ(x.iq, y.iq);
    EXPECT_EQ(x.iv, y.iv);
  }
  ASSERT_EQ(a.nq, b.nq);
  ASSERT_EQ(a.nv, b.nv);
  EXPECT_TRUE(near(a.q0, b.q0, tol));
  EXPECT_TRUE(near(a.v0, b.v0, tol));
  EXPECT_EQ(a.lockedInAssembly, b.lockedInAssembly);
  ASSERT_EQ(a.loops.size(), b.loops.size());
  for (std::size_t i = 0; i < a.loops.size(); ++i) {
    const LoopConstraint &x = a.loops[i], &y = b.loops[i];
    SCOPED_TRACE("loop " + x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.bodyA, y.bodyA);
    EXPECT_EQ(x.bodyB, y.bodyB);
    EXPECT_TRUE(near(x.pointA, y.pointA, tol));
    EXPECT_TRUE(near(x.pointB, y.pointB, tol));
    EXPECT_TRUE(near(x.rotationA, y.rotationA, tol));
    EXPECT_TRUE(near(x.rotationB, y.rotationB, tol));
    EXPECT_TRUE(near(x.distance, y.distance, tol));
  }
  ASSERT_EQ(a.jointSprings.size(), b.jointSprings.size());
  for (std::size_t i = 0; i < a.jointSprings.size(); ++i) {
    const auto &x = a.jointSprings[i], &y = b.jointSprings[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.joint, y.joint);
    EXPECT_EQ(x.dof, y.dof);
    EXPECT_TRUE(near(x.stiffness, y.stiffness, tol) && near(x.damping, y.damping, tol) && near(x.restPosition, y.restPosition, tol));
    ASSERT_EQ(x.reference.has_value(), y.reference.has_value());
    if (x.reference) EXPECT_EQ(x.reference->yaml(), y.reference->yaml());
  }
  ASSERT_EQ(a.jointLimits.size(), b.jointLimits.size());
  for (std::size_t i = 0; i < a.jointLimits.size(); ++i) {
    const auto &x = a.jointLimits[i], &y = b.jointLimits[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.joint, y.joint);
    EXPECT_EQ(x.dof, y.dof);
    EXPECT_TRUE(near(x.lower, y.lower, tol) && near(x.upper, y.upper, tol));
    EXPECT_TRUE(near(x.stiffness, y.stiffness, tol) && near(x.damping, y.damping, tol));
  }
  ASSERT_EQ(a.jointFrictions.size(), b.jointFrictions.size());
  for (std::size_t i = 0; i < a.jointFrictions.size(); ++i) {
    const auto &x = a.jointFrictions[i], &y = b.jointFrictions[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.joint, y.joint);
    EXPECT_EQ(x.dof, y.dof);
    EXPECT_TRUE(near(x.force, y.force, tol) && near(x.slipVelocity, y.slipVelocity, tol));
  }
  ASSERT_EQ(a.pointSprings.size(), b.pointSprings.size());
  for (std::size_t i = 0; i < a.pointSprings.size(); ++i) {
    const auto &x = a.pointSprings[i], &y = b.pointSprings[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.bodyA, y.bodyA);
    EXPECT_EQ(x.bodyB, y.bodyB);
    EXPECT_TRUE(near(x.pointA, y.pointA, tol) && near(x.pointB, y.pointB, tol));
    EXPECT_TRUE(near(x.stiffness, y.stiffness, tol) && near(x.damping, y.damping, tol) && near(x.restLength, y.restLength, tol));
    ASSERT_EQ(x.curveVelocity.size(), y.curveVelocity.size());
    ASSERT_EQ(x.curveForce.size(), y.curveForce.size());
    for (std::size_t k = 0; k < x.curveVelocity.size(); ++k)
      EXPECT_TRUE(near(x.curveVelocity[k], y.curveVelocity[k], tol) && near(x.curveForce[k], y.curveForce[k], tol));
    EXPECT_TRUE(near(x.bumpStopLength, y.bumpStopLength, tol) && near(x.bumpStopStiffness, y.bumpStopStiffness, tol));
    EXPECT_TRUE(near(x.air.area, y.air.area, tol) && near(x.air.volume, y.air.volume, tol) &&
                near(x.air.pressure, y.air.pressure, tol) && near(x.air.length, y.air.length, tol) &&
                near(x.air.exponent, y.air.exponent, tol) && near(x.air.ambient, y.air.ambient, tol));
    EXPECT_TRUE(near(x.frictionForce, y.frictionForce, tol) && near(x.frictionSlipVelocity, y.frictionSlipVelocity, tol));
  }
  ASSERT_EQ(a.bodyLoads.size(), b.bodyLoads.size());
  for (std::size_t i = 0; i < a.bodyLoads.size(); ++i) {
    const auto &x = a.bodyLoads[i], &y = b.bodyLoads[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.body, y.body);
    EXPECT_EQ(x.torque, y.torque);
    EXPECT_EQ(x.worldFrame, y.worldFrame);
    EXPECT_TRUE(near(x.point, y.point, tol) && near(x.direction, y.direction, tol));
    expectSameFunction(x.magnitude, y.magnitude, x.name);
  }
  ASSERT_EQ(a.jointLoads.size(), b.jointLoads.size());
  for (std::size_t i = 0; i < a.jointLoads.size(); ++i) {
    EXPECT_EQ(a.jointLoads[i].name, b.jointLoads[i].name);
    EXPECT_EQ(a.jointLoads[i].joint, b.jointLoads[i].joint);
    EXPECT_EQ(a.jointLoads[i].dof, b.jointLoads[i].dof);
    expectSameFunction(a.jointLoads[i].magnitude, b.jointLoads[i].magnitude, a.jointLoads[i].name);
  }
  ASSERT_EQ(a.prescribed.size(), b.prescribed.size());
  for (std::size_t i = 0; i < a.prescribed.size(); ++i) {
    EXPECT_EQ(a.prescribed[i].name, b.prescribed[i].name);
    EXPECT_EQ(a.prescribed[i].joint, b.prescribed[i].joint);
    EXPECT_EQ(a.prescribed[i].dof, b.prescribed[i].dof);
    expectSameFunction(a.prescribed[i].position, b.prescribed[i].position, a.prescribed[i].name);
  }
  ASSERT_EQ(a.tyres.size(), b.tyres.size());
  for (std::size_t i = 0; i < a.tyres.size(); ++i) {
    const Tyre &x = a.tyres[i], &y = b.tyres[i];
    SCOPED_TRACE("tyre " + x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.body, y.body);
    EXPECT_TRUE(near(x.centre, y.centre, tol) && near(x.axis, y.axis, tol));
    EXPECT_TRUE(near(x.radius, y.radius, tol) && near(x.radialStiffness, y.radialStiffness, tol) &&
                near(x.radialDamping, y.radialDamping, tol) && near(x.rollingResistance, y.rollingResistance, tol) &&
                near(x.lowSpeed, y.lowSpeed, tol));
    for (const auto& c : magicFormulaCoefficients()) EXPECT_TRUE(near(x.mf.*c.member, y.mf.*c.member, tol)) << c.name;
  }
  ASSERT_EQ(a.road.kind(), b.road.kind());
  EXPECT_TRUE(near(a.road.flatHeight(), b.road.flatHeight(), tol));
  ASSERT_EQ(a.road.points().size(), b.road.points().size());
  for (std::size_t i = 0; i < a.road.points().size(); ++i)
    EXPECT_TRUE(near(a.road.points()[i].x, b.road.points()[i].x, tol) && near(a.road.points()[i].z, b.road.points()[i].z, tol));
  ASSERT_EQ(a.road.heights().size(), b.road.heights().size());
  for (std::size_t i = 0; i < a.road.heights().size(); ++i) EXPECT_TRUE(near(a.road.heights()[i], b.road.heights()[i], tol));
  EXPECT_TRUE(a.road.nx() == b.road.nx() && a.road.ny() == b.road.ny() && near(a.road.x0(), b.road.x0(), tol) &&
              near(a.road.y0(), b.road.y0(), tol) && near(a.road.dx(), b.road.dx(), tol) && near(a.road.dy(), b.road.dy(), tol));
  ASSERT_EQ(a.markers.size(), b.markers.size());
  for (std::size_t i = 0; i < a.markers.size(); ++i) {
    EXPECT_EQ(a.markers[i].name, b.markers[i].name);
    EXPECT_EQ(a.markers[i].body, b.markers[i].body);
    EXPECT_TRUE(near(a.markers[i].position, b.markers[i].position, tol));
  }
  EXPECT_EQ(a.subsystems, b.subsystems);
}

Shape shape(Shape::Kind kind, const Vec3& rpy, const std::string& color) {
  Shape s;
  s.kind = kind;
  s.size = Vec3(0.3, 0.2, 0.1);
  s.radius = kind == Shape::Kind::Box ? 0.0 : 0.05;
  s.length = kind == Shape::Kind::Cylinder || kind == Shape::Kind::Capsule ? 0.4 : 0.0;
  if (kind != Shape::Kind::Box) s.size.setZero();
  s.position = Vec3(0.1, -0.2, 0.3);
  s.rotation = rpyRotation(rpy);
  s.color = color;
  return s;
}

JointSpec joint(const std::string& name, JointType type, const std::string& parent, const std::string& child,
                const Vec3& xyz, const Vec3& rpy, std::vector<double> q, std::vector<double> v) {
  JointSpec j;
  j.name = name;
  j.type = type;
  j.parent = parent;
  j.child = child;
  j.position = xyz;
  j.rotation = rpyRotation(rpy);
  j.q0 = std::move(q);
  j.v0 = std::move(v);
  return j;
}

LoopSpec loop(const std::string& name, LoopConstraint::Type type, const std::string& a, const Vec3& pa, const std::string& b,
              const Vec3& pb) {
  LoopSpec l;
  l.name = name;
  l.type = type;
  l.bodyA = a;
  l.pointA = pa;
  l.bodyB = b;
  l.pointB = pb;
  return l;
}

// Every joint, loop, force, shape and function type; names that YAML would misread
// unquoted; orientations at and near the roll-pitch-yaw singularity.
Model richModel() {
  ModelBuilder b;
  b.name = "rich: \"every\" element # all";
  b.gravity = Vec3(0.1, -9.8, 0.2);
  b.groundShapes = {shape(Shape::Kind::Box, Vec3(0, 0, 0.5), "#808080"), shape(Shape::Kind::Sphere, Vec3::Zero(), "")};
  Mat3 full;
  full << 1.0, 0.1, -0.05, 0.1, 1.2, 0.02, -0.05, 0.02, 0.9;
  const Mat3 diag = Vec3(0.02, 0.03, 0.04).asDiagonal();
  b.addBody({"base", 3.0, Vec3(0.1, 0.2, 0.3), full, {shape(Shape::Kind::Box, Vec3(0.1, 0.2, 0.3), "#a1b2c3")}, {}});
  b.addBody({"arm 1", 1.0, Vec3(0.25, 0, 0), diag, {shape(Shape::Kind::Cylinder, Vec3(0, kPi / 2, 0), "#fff")}, {}});
  b.addBody({"null", 0.5, Vec3::Zero(), diag, {shape(Shape::Kind::Sphere, Vec3::Zero(), "")}, {}});
  b.addBody({"link#3", 0.7, Vec3(0, 0, 0.1), diag, {shape(Shape::Kind::Capsule, Vec3(0.3, -kPi / 2, -0.4), "#123456")}, {}});
  b.addBody({"q\"uote\\", 0.2, Vec3::Zero(), diag, {}, {}});
  b.addBody({"slider", 0.4, Vec3::Zero(), diag, {}, {}});
  Shape part;
  part.kind = Shape::Kind::Mesh;
  part.mesh = "/models/meshes/plate part.stl";
  part.scale = Vec3(0.001, 0.001, 0.002);
  b.addBody({"plate", 0.6, Vec3::Zero(), diag, {shape(Shape::Kind::Box, Vec3::Zero(), ""), part}, {}});
  b.addBody({"- tip", 0.1, Vec3::Zero(), diag, {}, {}});

  b.addJoint(joint("float", JointType::Free, "ground", "base", Vec3(1, 2, 3), Vec3(0.5, -0.2, 1.0),
                   {0.1, 0.2, 0.3, 0.9, 0.1, 0.2, 0.3}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}));
  JointSpec hinge = joint("hinge: 1", JointType::Revolute, "base", "arm 1", Vec3(0.1, 0, 0), Vec3(0.2, kPi / 2 - 1e-9, 0.7), {0.3}, {-0.2});
  hinge.axis = Vec3(1, 1, 0);
  hinge.lockedInAssembly = true;
  b.addJoint(hinge);
  JointSpec cardan = joint("cardan", JointType::Universal, "arm 1", "null", Vec3(0.5, 0, 0), Vec3(0, kPi / 2, 0), {0.2, -0.3}, {0.1, 0.2});
  cardan.axis2 = Vec3(1, 0, 0);
  b.addJoint(cardan);
  b.addJoint(joint("ball", JointType::Spherical, "null", "link#3", Vec3::Zero(), Vec3(kPi, 0, 0), {1, 0.1, 0, 0}, {0.1, 0, 0.3}));
  JointSpec barrel = joint("barrel", JointType::Cylindrical, "link#3", "q\"uote\\", Vec3(0, 0, 0.2), Vec3(-3, 1, 2), {0.4, 0.05}, {});
  barrel.axis = Vec3(0, 1, 0);
  b.addJoint(barrel);
  JointSpec rail = joint("rail", JointType::Prismatic, "base", "slider", Vec3(0, 0.1, 0), Vec3::Zero(), {0.2}, {-0.1});
  rail.axis = Vec3(0, 0, -1);
  rail.lockedInAssembly = true;
  b.addJoint(rail);
  b.addJoint(joint("table", JointType::Planar, "world", "plate", Vec3::Zero(), Vec3(kPi / 2, 0, 0), {0.1, 0.2, 0.3}, {0, 0, 1}));
  b.addJoint(joint("weld", JointType::Fixed, "plate", "- tip", Vec3(0, 0, 1), Vec3(0, 0, 3), {}, {}));

  b.addLoop(loop("b1", LoopConstraint::Type::Ball, "slider", Vec3(0.1, 0, 0), "plate", Vec3(0, 0.1, 0)));
  LoopSpec pin = loop("pin", LoopConstraint::Type::Revolute, "q\"uote\\", Vec3(0, 0, 0.1), "- tip", Vec3::Zero());
  pin.axisA = Vec3(1, 2, 3);
  pin.axisB = Vec3(0, 1, 0);
  b.addLoop(pin);
  LoopSpec glue = loop("glue", LoopConstraint::Type::Weld, "arm 1", Vec3(0.5, 0, 0), "ground", Vec3(1, 1, 1));
  glue.rotationA = rpyRotation(Vec3(0.1, 0.2, 0.3));
  glue.rotationB = rpyRotation(Vec3(-1, 0.5, 2));
  b.addLoop(glue);
  LoopSpec rope = loop("rope", LoopConstraint::Type::Distance, "link#3", Vec3(0, 0, 0.3), "ground", Vec3(0, 3, 0));
  rope.distance = 1.5;
  b.addLoop(rope);

  b.addJointSpring({"spring", "hinge: 1", 0, 3.0, 0.5, 0.1, {}});
  b.addJointSpring({"barrel spring", "barrel", 1, 30.0, 0.0, -0.02, {}});
  b.addJointSpring({"servo", "hinge: 1", 0, 4.0, 0.2, 0.0, {}, TimeFunction::table({0, 0.5, 1}, {0, 0.3, -0.1})});
  b.addJointLimit({"stop", "hinge: 1", 0, -0.5, 1.25, 1e4, 20.0, {}});
  b.addJointFriction({"bearing", "barrel", 0, 0.3, 0.01, {}});
  b.addPointSpring({"bungee", "ground", "base", Vec3(1, 1, 0), Vec3(0.5, 0, 0), 10.0, 0.2, 0.3, {}});
  PointSpringSpec strut;  // a suspension strut: damping curve and bump stop
  strut.name = "strut", strut.bodyA = "ground", strut.bodyB = "base";
  strut.pointA = Vec3(0, 1, 0), strut.pointB = Vec3(0.2, 0, 0);
  strut.stiffness = 500.0, strut.restLength = 0.9;
  strut.curveVelocity = {-1.0, 0.0, 0.5, 2.0}, strut.curveForce = {-3000.0, 0.0, 400.0, 900.0};
  strut.bumpStopLength = 0.6, strut.bumpStopStiffness = 2e4;
  b.addPointSpring(strut);
  b.addBodyLoad({"push", "base", false, true, Vec3(0.1, 0, 0), Vec3(0, 0, 2), TimeFunction::sine(2.0, 0.5, 0.3, 0.1), {}});
  b.addBodyLoad({"twist", "arm 1", true, false, Vec3::Zero(), Vec3(1, 0, 0), TimeFunction::smoothStep(0.2, 0, 1.2, 3), {}});
  b.addJointLoad({"motor", "barrel", 1, TimeFunction::polynomial({1.0, -0.5, 0.25}), {}});
  b.addJointLoad({"hold", "cardan", 1, TimeFunction::constant(-0.7), {}});
  b.addJointLoad({"weave", "barrel", 0, TimeFunction::slalom(0.3, 0.7, 0.1, 2.5), {}});
  b.addJointLoad({"dwell", "cardan", 0, TimeFunction::sineWithDwell(-0.2, 0.7, 0.25, 0.5), {}});
  b.addPrescribedMotion({"stroke", "rail", 0, TimeFunction::table({0, 1, 2}, {0, 0.5, 0.1}), {}});
  b.addPrescribedMotion({"turn", "table", 2, TimeFunction::sine(0.1, 2.0), {}});
  b.addMarker({"m1", "- tip", Vec3(0, 0, 0.5), {}});
  b.addMarker({"weird: marker", "base", Vec3(0.1, 0.2, 0.3), {}});
  return b.build();
}

}  // namespace

// ---------------------------------------------------------------------------------
// The shipped examples

TEST(YamlModelExamples, EveryExampleLoadsAndBuilds) {
  const auto files = exampleFiles();
  EXPECT_GE(files.size(), 5u);
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const Model m = loadModel(file);
    EXPECT_GT(m.bodyCount(), 0);
    EXPECT_TRUE(m.q0.allFinite() && m.v0.allFinite());
    EXPECT_FALSE(m.markers.empty());
    EXPECT_EQ(readText(file).rfind("# ", 0), 0u) << "starts with a comment header";
  }
}

namespace {
// A uniform bar with a 0.02 m x 0.02 m section and its frame at one end, x along it.
void expectRod(const Body& b, double length, double mass) {
  EXPECT_DOUBLE_EQ(b.mass, mass) << b.name;
  EXPECT_TRUE(near(b.com, Vec3(length / 2, 0, 0), 1e-15)) << b.name;
  EXPECT_TRUE(near(b.inertiaCom, boxInertia(mass, Vec3(length, 0.02, 0.02)), 1e-15)) << b.name << "\n" << b.inertiaCom;
  ASSERT_EQ(b.shapes.size(), 1u) << b.name;
  EXPECT_EQ(b.shapes[0].kind, Shape::Kind::Box) << b.name;
  EXPECT_TRUE(near(b.shapes[0].size, Vec3(length, 0.02, 0.02), 1e-15)) << b.name;
  EXPECT_TRUE(near(b.shapes[0].position, b.com, 1e-15)) << b.name;
  EXPECT_FALSE(b.shapes[0].color.empty()) << b.name;
}
}  // namespace

TEST(YamlModelExamples, PendulumsMatchTheirDescriptions) {
  const Model single = loadModel(kExamples + "pendulum.yaml");
  ASSERT_EQ(single.bodyCount(), 1);
  expectRod(single.bodies[1], 1.0, 1.0);
  EXPECT_EQ(single.joints[1].type, JointType::Revolute);
  EXPECT_EQ(single.joints[1].axis, Vec3::UnitZ());
  EXPECT_NEAR(single.q0[0], -kPi / 2 + 0.5, 1e-15);  // 0.5 rad from hanging straight down
  EXPECT_EQ(single.v0.norm(), 0.0);

  const Model twin = loadModel(kExamples + "double_pendulum.yaml");
  ASSERT_EQ(twin.bodyCount(), 2);
  for (int i = 1; i <= 2; ++i) expectRod(twin.bodies[i], 1.0, 1.0);
  EXPECT_EQ(twin.joints[2].placement.r, Vec3(1, 0, 0));

  const Model spatial = loadModel(kExamples + "spatial_double_pendulum.yaml");
  ASSERT_EQ(spatial.bodyCount(), 2);
  for (int i = 1; i <= 2; ++i) expectRod(spatial.bodies[i], 1.0, 1.0);
  EXPECT_EQ(spatial.joints[1].axis, Vec3::UnitZ());
  EXPECT_EQ(spatial.joints[2].axis, Vec3::UnitY());
  EXPECT_NE(spatial.q0[1], 0.0) << "the initial state leaves the plane";

  const Model cart = loadModel(kExamples + "cart_pendulum.yaml");
  ASSERT_EQ(cart.bodyCount(), 2);
  EXPECT_EQ(cart.joints[1].type, JointType::Prismatic);
  EXPECT_EQ(cart.joints[1].axis, Vec3::UnitX());
  expectRod(cart.bodies[2], 1.0, 1.0);
  ASSERT_EQ(cart.jointSprings.size(), 1u);
  EXPECT_EQ(cart.jointSprings[0].joint, 1);
  EXPECT_GT(cart.jointSprings[0].stiffness, 0.0);
}

TEST(YamlModelExamples, FourBarMatchesItsSpecification) {
  const Model m = loadModel(kExamples + "four_bar.yaml");
  ASSERT_EQ(m.bodyCount(), 3);
  const int crank = *m.findBody("crank"), coupler = *m.findBody("coupler"), rocker = *m.findBody("rocker");
  expectRod(m.bodies[crank], 0.5, 0.5);
  expectRod(m.bodies[coupler], 1.2, 1.2);
  expectRod(m.bodies[rocker], 0.8, 0.8);
  EXPECT_EQ(m.gravity, Vec3(0, -9.81, 0));

  const Joint &A = m.joints[*m.findJoint("A")], &B = m.joints[*m.findJoint("B")], &D = m.joints[*m.findJoint("D")];
  EXPECT_EQ(A.parent, 0);
  EXPECT_EQ(B.parent, crank);
  EXPECT_EQ(D.parent, 0);
  EXPECT_EQ(A.placement.r, Vec3(0, 0, 0));
  EXPECT_EQ(B.placement.r, Vec3(0.5, 0, 0));
  EXPECT_EQ(D.placement.r, Vec3(1, 0, 0));
  for (const Joint* j : {&A, &B, &D}) {
    EXPECT_EQ(j->type, JointType::Revolute);
    EXPECT_EQ(j->axis, Vec3::UnitZ());
  }
  EXPECT_EQ(m.q0[A.iq], kPi / 3);  // exactly
  EXPECT_TRUE(m.lockedInAssembly[static_cast<std::size_t>(A.iv)]);
  EXPECT_FALSE(m.lockedInAssembly[static_cast<std::size_t>(B.iv)]);
  EXPECT_EQ(m.v0.norm(), 0.0);

  ASSERT_EQ(m.loops.size(), 1u);
  const LoopConstraint& C = m.loops[0];
  EXPECT_EQ(C.name, "C");
  EXPECT_EQ(C.type, LoopConstraint::Type::Revolute);
  EXPECT_EQ(C.bodyA, coupler);
  EXPECT_EQ(C.bodyB, rocker);
  EXPECT_EQ(C.pointA, Vec3(1.2, 0, 0));
  EXPECT_EQ(C.pointB, Vec3(0.8, 0, 0));
  EXPECT_TRUE(near(Vec3(C.rotationA.col(2)), Vec3(Vec3::UnitZ()), 1e-15));
  EXPECT_TRUE(near(Vec3(C.rotationB.col(2)), Vec3(Vec3::UnitZ()), 1e-15));

  // The rough initial angles put both tips near C = (1.4247, 0.6779), above the x axis.
  Workspace ws(m);
  updatePositions(m, ws, m.q0);
  const Vec3 c(1.4247, 0.6779, 0);
  EXPECT_LT((pointPosition(ws, coupler, C.pointA) - c).norm(), 0.01);
  EXPECT_LT((pointPosition(ws, rocker, C.pointB) - c).norm(), 0.01);
  const auto markerAt = [&](const char* name) {
    const Marker& mk = m.markers[static_cast<std::size_t>(*m.findMarker(name))];
    return pointPosition(ws, mk.body, mk.position);
  };
  EXPECT_TRUE(near(markerAt("B"), Vec3(0.25, std::sqrt(3.0) / 4, 0), 1e-15));
  EXPECT_LT((markerAt("C") - c).norm(), 0.01);
}

// ---------------------------------------------------------------------------------
// Round trips through the writer

TEST(YamlModelRoundTrip, EveryElementTypeSurvives) {
  const Model m = richModel();
  const std::string text = written(m);
  SCOPED_TRACE(text);
  const Model back = parse(text);
  expectSameModel(m, back);
  // Writing the reloaded model reproduces the file up to the last digit of the angles.
  const Model again = parse(written(back));
  expectSameModel(m, again);
}

TEST(YamlModelRoundTrip, ExamplesSurvive) {
  for (const auto& file : exampleFiles()) {
    SCOPED_TRACE(file);
    const Model m = loadModel(file);
    expectSameModel(m, parse(written(m)), 0.0);  // no rotations to convert: bit for bit
  }
}

TEST(YamlModelRoundTrip, WriterUsesTheDocumentedSpellings) {
  const std::string text = written(loadModel(kExamples + "four_bar.yaml"));
  for (const char* expected : {"name: four_bar\n", "gravity: [0, -9.8100000000000005, 0]\n", "q: 1.0471975511965976\n",
                               "lock_in_assembly: true\n", "axis_a: [0, 0, 1]\n", "xyz: [0.5, 0, 0]\n",
                               "shape: {type: box, size: [0.5, 0.02, 0.02], xyz: [0.25, 0, 0], color: \"#"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing '" << expected << "' in:\n" << text;
}

// ---------------------------------------------------------------------------------
// Accepted spellings

constexpr const char* kOneRod = R"(
bodies:
  - {name: rod, mass: 2, inertia: [0.1, 0.2, 0.25]}
)";

TEST(YamlModelSyntax, DefaultsApply) {
  const Model m = parse(std::string(kOneRod) + "joints:\n  - {name: j, type: revolute, parent: world, child: rod}\n");
  EXPECT_EQ(m.name, "model");
  EXPECT_EQ(m.gravity, Vec3(0, -9.81, 0));
  EXPECT_EQ(m.bodies[1].com, Vec3::Zero());
  EXPECT_TRUE(m.bodies[1].shapes.empty());
  EXPECT_EQ(m.joints[1].parent, 0);
  EXPECT_EQ(m.joints[1].placement.r, Vec3::Zero());
  EXPECT_EQ(m.joints[1].placement.E, Mat3::Identity());
  EXPECT_EQ(m.joints[1].axis, Vec3::UnitZ());
  EXPECT_EQ(m.q0[0], 0.0);
  EXPECT_EQ(m.v0[0], 0.0);
  EXPECT_FALSE(m.lockedInAssembly[0]);
}

TEST(YamlModelSyntax, InertiaFormsAgree) {
  const auto inertia = [](const std::string& spelling) {
    return parse("bodies:\n  - {name: b, mass: 1, inertia: " + spelling + "}\njoints: [{name: j, type: spherical, parent: ground, child: b}]")
        .bodies[1]
        .inertiaCom;
  };
  Mat3 expected;
  expected << 0.3, 0.01, -0.02, 0.01, 0.4, 0.03, -0.02, 0.03, 0.5;
  EXPECT_EQ(inertia("{ixx: 0.3, iyy: 0.4, izz: 0.5, ixy: 0.01, ixz: -0.02, iyz: 0.03}"), expected);
  EXPECT_EQ(inertia("[[0.3, 0.01, -0.02], [0.01, 0.4, 0.03], [-0.02, 0.03, 0.5]]"), expected);
  EXPECT_EQ(inertia("[0.3, 0.4, 0.5]"), Mat3(Vec3(0.3, 0.4, 0.5).asDiagonal()));
  EXPECT_EQ(inertia("{ixx: 0.3, iyy: 0.4, izz: 0.5}"), Mat3(Vec3(0.3, 0.4, 0.5).asDiagonal()));
}

TEST(YamlModelSyntax, CoordinatesAsNumberOrList) {
  const Model m = parse(R"(
bodies:
  - {name: a, mass: 1, inertia: [1, 1, 1]}
  - {name: b, mass: 1, inertia: [1, 1, 1]}
  - {name: c, mass: 1, inertia: [1, 1, 1]}
joints:
  - {name: hinge, type: revolute, parent: ground, child: a, q: 0.5, v: [-1]}
  - {name: ball, type: spherical, parent: a, child: b, q: [2, 0, 0, 0], v: [1, 2, 3]}
  - {name: plane, type: planar, parent: b, child: c, q: [+1.5, 1e-3, .5], v: [0, -0, 7]}
)");
  EXPECT_EQ(m.q0, (Eigen::VectorXd(8) << 0.5, 1, 0, 0, 0, 1.5, 1e-3, 0.5).finished());  // quaternion normalised
  EXPECT_EQ(m.v0, (Eigen::VectorXd(7) << -1, 1, 2, 3, 0, 0, 7).finished());
}

TEST(YamlModelSyntax, AssemblyLockListAndFlagAgree) {
  const std::string bodies = "bodies:\n  - {name: a, mass: 1, inertia: [1, 1, 1]}\n  - {name: b, mass: 1, inertia: [1, 1, 1]}\n";
  const Model listed = parse(bodies + R"(
joints:
  - {name: j1, type: cylindrical, parent: ground, child: a}
  - {name: j2, type: revolute, parent: a, child: b}
assembly: {lock: [j1]}
)");
  const Model flagged = parse(bodies + R"(
joints:
  - {name: j1, type: cylindrical, parent: ground, child: a, lock_in_assembly: yes}
  - {name: j2, type: revolute, parent: a, child: b, lock_in_assembly: false}
)");
  EXPECT_EQ(listed.lockedInAssembly, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(flagged.lockedInAssembly, listed.lockedInAssembly);
}

TEST(YamlModelSyntax, FunctionsOfTime) {
  const auto magnitude = [](const std::string& spelling) {
    return parse(std::string(kOneRod) + "joints: [{name: j, type: revolute, parent: ground, child: rod}]\n" +
                 "forces: [{name: f, type: joint_force, joint: j, magnitude: " + spelling + "}]\n")
        .jointLoads[0]
        .magnitude;
  };
  EXPECT_EQ(magnitude("2.5").value(3.0), 2.5);
  EXPECT_EQ(magnitude("{type: constant, value: -1}").value(3.0), -1.0);
  EXPECT_NEAR(magnitude("{type: sine, amplitude: 2, frequency: 0.25, phase: 0.5, offset: 1}").value(1.0),
              1.0 + 2.0 * std::sin(2 * kPi * 0.25 + 0.5), 1e-15);
  EXPECT_NEAR(magnitude("{type: sine, amplitude: 2, frequency: 0.25}").value(1.0), 2.0, 1e-15);
  EXPECT_EQ(magnitude("{type: polynomial, coefficients: [1, 2, 3]}").value(2.0), 17.0);
  const TimeFunction step = magnitude("{type: smooth_step, t0: 1, v0: 2, t1: 3, v1: 6}");
  EXPECT_EQ(step.value(0.0), 2.0);
  EXPECT_EQ(step.value(2.0), 4.0);
  EXPECT_EQ(step.value(9.0), 6.0);
  const TimeFunction table = magnitude("{type: table, time: [0, 1, 3], value: [0, 5, 1]}");
  EXPECT_EQ(table.value(0.5), 2.5);
  EXPECT_EQ(table.value(2.0), 3.0);
  EXPECT_EQ(table.value(7.0), 1.0);
  const TimeFunction slalom = magnitude("{type: slalom, amplitude: 2, frequency: 0.5, start: 1, cycles: 3}");
  EXPECT_NEAR(slalom.value(3.5), 2.0, 1e-15);  // a peak between the fades: sin(2 pi 0.5 2.5)
  EXPECT_EQ(slalom.value(7.0), 0.0);
  const TimeFunction dwell = magnitude("{type: sine_with_dwell, amplitude: 2, frequency: 0.5, dwell: 0.5}");
  EXPECT_EQ(dwell.value(1.7), -2.0);  // in the dwell, [1.5, 2] s
  EXPECT_EQ(dwell.value(9.0), 0.0);
}

TEST(YamlModelSyntax, ForceElementsReadAsWritten) {
  const Model m = parse(std::string(kOneRod) + R"(
joints: [{name: j, type: revolute, parent: ground, child: rod}]
forces:
  - {name: s, type: joint_spring_damper, joint: j, dof: 0, stiffness: 10, damping: 0.1, rest: 0.2}
  - {name: p, type: spring_damper, body_a: ground, point_a: [0, 1, 0], body_b: rod, point_b: [1, 0, 0], stiffness: 5, damping: 0.5, rest_length: 0.3}
  - {name: f, type: force, body: rod, point: [1, 0, 0], direction: [0, 2, 0], magnitude: 3}
  - {name: t, type: torque, body: rod, direction: [0, 0, 1], frame: body, magnitude: 4}
)");
  ASSERT_EQ(m.jointSprings.size(), 1u);
  EXPECT_EQ(m.jointSprings[0].restPosition, 0.2);
  ASSERT_EQ(m.pointSprings.size(), 1u);
  EXPECT_EQ(m.pointSprings[0].bodyA, 0);
  EXPECT_EQ(m.pointSprings[0].pointA, Vec3(0, 1, 0));
  EXPECT_EQ(m.pointSprings[0].restLength, 0.3);
  ASSERT_EQ(m.bodyLoads.size(), 2u);
  EXPECT_TRUE(m.bodyLoads[0].worldFrame);  // the default frame
  EXPECT_EQ(m.bodyLoads[0].direction, Vec3::UnitY());
  EXPECT_TRUE(m.bodyLoads[1].torque);
  EXPECT_FALSE(m.bodyLoads[1].worldFrame);
}

// Each element's location is its map: where block-style entries start with their first
// key and flow-style ones with "{"; the builder reports its findings there.
TEST(YamlModelSyntax, ErrorsFromTheBuilderPointAtTheElement) {
  const std::string bodies = "bodies:\n  - {name: a, mass: 1, inertia: [1, 1, 1]}\njoints:\n  - {name: j, type: revolute, parent: ground, child: a}\n";
  const ModelError block = parseError(bodies + "loops:\n  - {name: ok, type: ball, body_a: a, body_b: ground}\n  - name: bad\n    type: ball\n    body_a: a\n    body_b: nowhere\n");
  EXPECT_EQ(block.where().line, 7);
  EXPECT_EQ(block.where().column, 5);
  EXPECT_EQ(block.element(), "loop 'bad'");
  const ModelError flow = parseError(bodies + "markers:\n  - {name: tip, body: b}\n");
  EXPECT_EQ(flow.where().line, 6);
  EXPECT_EQ(flow.where().column, 5);
  EXPECT_EQ(flow.element(), "marker 'tip'");
  EXPECT_EQ(flow.reason(), "body 'b' is not defined");
}

// Wrong node kinds anywhere are ModelErrors, never yaml-cpp exceptions.
TEST(YamlModelSyntax, WrongNodeKindsAreModelErrors) {
  const std::string head = std::string(kOneRod) + "joints: [{name: j, type: revolute, parent: ground, child: rod}]\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"forces: [3]", "forces[0]: expected a map of keys and values, got '3'"},
      {"forces: [[1]]", "forces[0]: expected a map of keys and values, got a list"},
      {"forces: {a: 1}", "forces: expected a list, got a map"},
      {"markers: [{name: [x], body: rod}]", "markers[0]: name: expected a text value, got a list"},
      {"markers: [{name: m, body: {b: 1}}]", "marker 'm': body: expected a text value, got a map"},
      {"markers: [{name: m, body: rod, position: 1}]", "marker 'm': position: expected 3 numbers in a list, got '1'"},
      {"markers: [{name: m, body: rod, position: [1, [2], 3]}]", "marker 'm': position: expected a number, got a list"},
      {"markers: [{name: m, body: rod, position: [1, 2, 1e999]}]", "marker 'm': position: '1e999' is out of the range"},
      {"markers: [{name: m, body: rod, [k]: 1}]", "marker 'm': keys must be plain names, got a list"},
      {"markers: [{name: m, body: }]", "marker 'm': body: missing value"},
      {"forces: [{name: f, type: joint_force, joint: j, magnitude: [1, 2]}]", "force 'f': magnitude: expected a number or a function"},
      {"forces: [{name: f, type: joint_force, joint: j, magnitude: {type: sine, amplitude: 1, frequency: 1e308}}]",
       "force 'f': magnitude: frequency: too large"},
      {"forces: [{name: f, type: joint_force, joint: j, magnitude: {type: polynomial, coefficients: []}}]",
       "force 'f': magnitude: coefficients: expected at least one number"},
      {"forces: [{name: f, type: joint_force, joint: j, magnitude: {type: table, time: [0], value: [0]}}]",
       "force 'f': magnitude: time: a table needs at least 2 points, got 1"},
      {"forces: [{name: f, type: joint_force, joint: j, magnitude: {type: smooth_step, t0: 1, v0: 0, t1: 1, v1: 1}}]",
       "force 'f': magnitude: t1: must be later than t0"},
      {"forces: [{name: f, type: force, body: rod, direction: [1, 0, 0], frame: local, magnitude: 1}]",
       "force 'f': frame: expected 'world' or 'body', got 'local'"},
      {"forces: [{name: f, type: torque, body: rod, point: [1, 0, 0], direction: [1, 0, 0], magnitude: 1}]",
       "force 'f': unknown key 'point' for type 'torque'"},
      {"forces: [{name: f, type: joint_limit, joint: j, lower: 1, upper: 0, stiffness: 1e4}]", "joint limit 'f': lower must not exceed upper"},
      {"forces: [{name: f, type: joint_limit, joint: j, lower: 0, upper: 1, stiffness: 0}]", "joint limit 'f': stiffness must be positive"},
      {"forces: [{name: f, type: joint_limit, joint: j, lower: 0, upper: 1}]", "force 'f': missing required key 'stiffness'"},
      {"forces: [{name: f, type: joint_friction, joint: j, force: 1, slip_velocity: 0}]", "joint friction 'f': slip velocity must be positive"},
      {"forces: [{name: f, type: joint_friction, joint: j, force: -1, slip_velocity: 0.1}]", "joint friction 'f': friction force must not be negative"},
      {"loops: [{name: l, type: ball, body_a: rod, body_b: ground, distance: 1}]", "loop 'l': unknown key 'distance' for type 'ball'"},
      {"loops: [{name: l, type: distance, body_a: rod, body_b: ground}]", "loop 'l': missing required key 'distance'"},
      {"assembly: [j]", "assembly: expected a map of keys and values, got a list"},
      {"assembly: {lock: j}", "assembly: lock: expected a list of joint names, got 'j'"},
      {"name: [a]", "name: expected a text value, got a list"},
      {"gravity: [0, -9.81]", "gravity: expected 3 numbers, got 2"},
      {"ground: {shape: {type: cube}}", "ground: shape: unknown shape type 'cube'"},
      {"ground: {mass: 1}", "ground: unknown key 'mass'"},
  };
  for (const auto& [tail, expected] : cases) {
    const ModelError e = parseError(head + tail + "\n");
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "for '" << tail << "':\n" << e.what();
    EXPECT_EQ(e.where().file, "test.yaml");
    EXPECT_GT(e.where().line, 0) << e.what();
  }
  const std::vector<std::pair<std::string, std::string>> bodyCases = {
      {"inertia: 5", "body 'b': inertia: expected 3 principal moments"},
      {"inertia: [[1, 0, 0], [0, 1, 0]]", "body 'b': inertia: expected 3 rows of 3 numbers, got 2 rows"},
      {"inertia: [[1, 0, 0], [0, 1], [0, 0, 1]]", "body 'b': inertia row 2: expected 3 numbers, got 2"},
      {"inertia: {ixx: 1, iyy: 1}", "body 'b': inertia: missing required key 'izz'"},
      {"inertia: {ixx: 1, iyy: 1, izz: 1, iyx: 0}", "body 'b': inertia: unknown key 'iyx'"},
      {"inertia: [1, 1, 1], shape: box", "body 'b': shape: expected a map of keys and values, got 'box'"},
      {"inertia: [1, 1, 1], shape: {type: box, size: [1, 0, 1]}", "body 'b': shape: size: every edge must be positive"},
      {"inertia: [1, 1, 1], shape: {type: sphere, radius: 0}", "body 'b': shape: radius: must be positive, got '0'"},
      {"inertia: [1, 1, 1], shape: {type: sphere, radius: 1, length: 2}", "body 'b': shape: unknown key 'length' for type 'sphere'"},
      {"inertia: [1, 1, 1], mass: 2", "body 'b': key 'mass' is given twice"},
      {"inertia: [1, 1, 1], shapes: {type: box, size: [1, 1, 1]}", "body 'b': shapes: expected a list of shapes"},
      {"inertia: [1, 1, 1], shapes: [{type: sphere, radius: -1}]", "body 'b': shapes[0]: radius: must be positive"},
      {"inertia: [1, 1, 1], shape: {type: sphere, radius: 1}, shapes: []", "body 'b': shapes: give either one `shape`"},
      {"inertia: [1, 1, 1], shape: {type: mesh}", "body 'b': shape: missing required key 'file'"},
      {"inertia: [1, 1, 1], shape: {type: mesh, file: a.stl, scale: [1, 0, 1]}", "body 'b': shape: scale: every factor must be positive"},
  };
  for (const auto& [fields, expected] : bodyCases) {
    const ModelError e = parseError("bodies:\n  - {name: b, mass: 1, " + fields + "}\n");
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "for '" << fields << "':\n" << e.what();
    EXPECT_EQ(e.where().line, 2) << e.what();
  }
}

// ---------------------------------------------------------------------------------
// Malformed files: one error each, with file, line, element and reason

struct BadFile {
  const char* file;
  int line;             // 0: the error concerns the file as a whole
  const char* element;  // "" for file-level problems
  const char* reason;   // a substring of the reason
};

class YamlModelBadFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(YamlModelBadFile, OneLocatedError) {
  const BadFile& c = GetParam();
  const std::string path = kBad + c.file;
  const ModelError e = errorFrom([&] { loadModel(path); });
  const std::string msg = e.what();
  EXPECT_EQ(e.where().file, path);
  EXPECT_EQ(e.where().line, c.line) << msg;
  EXPECT_EQ(e.element(), c.element) << msg;
  EXPECT_NE(e.reason().find(c.reason), std::string::npos) << msg;
  // The one-line message carries them all: "file:line:column: element: reason".
  const std::string prefix = c.line > 0 ? path + ":" + std::to_string(c.line) + ":" : path + ": ";
  EXPECT_EQ(msg.rfind(prefix, 0), 0u) << msg;
  EXPECT_NE(msg.find(std::string(c.element) + (c.element[0] ? ": " : "") + e.reason()), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

const BadFile kBadFiles[] = {
    // Syntax and structure
    {"syntax_error.yaml", 3, "", "YAML syntax error: illegal map value"},
    {"empty.yaml", 0, "", "the file is empty"},
    {"not_a_map.yaml", 2, "", "the top level must be a map"},
    {"two_documents.yaml", 5, "", "a second YAML document"},
    {"no_bodies.yaml", 1, "", "the model has no bodies"},
    {"empty_bodies.yaml", 2, "", "bodies: the list is empty"},
    {"wrong_type.yaml", 4, "", "joints: expected a list, got a map"},
    {"element_not_map.yaml", 3, "bodies[1]", "expected a map of keys and values, got 'rod2'"},
    {"unknown_key.yaml", 8, "joint 'j1'", "unknown key 'axs' for type 'revolute' (expected one of: name, type, parent"},
    {"key_for_other_type.yaml", 8, "joint 'ball'", "unknown key 'axis' for type 'spherical'"},
    {"duplicate_key.yaml", 9, "joint 'j1'", "key 'q' is given twice"},
    {"missing_name.yaml", 2, "bodies[0]", "missing required key 'name'"},
    {"missing_mass.yaml", 2, "body 'rod'", "missing required key 'mass'"},
    {"missing_parent.yaml", 4, "joint 'j1'", "missing required key 'parent'"},
    // Values
    {"wrong_length.yaml", 4, "body 'rod'", "com: expected 3 numbers, got 2"},
    {"inertia_wrong_form.yaml", 4, "body 'rod'", "inertia: expected 3 numbers, got 6"},
    {"not_a_number.yaml", 3, "body 'rod'", "mass: 'heavy' is not a number"},
    {"nan_value.yaml", 3, "body 'rod'", "mass: '.nan' is not a finite number"},
    {"infinite_value.yaml", 2, "", "gravity: '-.inf' is not a finite number"},
    {"bad_flag.yaml", 4, "joint 'j1'", "lock_in_assembly: expected true or false, got 'maybe'"},
    {"not_whole_dof.yaml", 6, "force 's'", "dof: expected a whole number, got '0.5'"},
    {"bad_color.yaml", 5, "body 'rod'", "shape: color: expected \"#rrggbb\""},
    {"unknown_joint_type.yaml", 7, "joint 'j1'", "unknown joint type 'revolut' (valid: fixed, revolute, prismatic"},
    {"unknown_loop_type.yaml", 7, "loop 'closure'", "unknown loop type 'hinge' (valid: ball, revolute, weld, distance)"},
    {"unknown_force_type.yaml", 7, "force 'grip'", "unknown force type 'friction' (valid: joint_spring_damper"},
    {"unknown_shape_type.yaml", 5, "body 'rod'", "shape: unknown shape type 'cube' (valid: box, cylinder, sphere, capsule, mesh)"},
    {"unknown_function_type.yaml", 10, "force 'drive'", "magnitude: unknown function type 'cosine' (valid: constant, sine"},
    {"nonpositive_shape_size.yaml", 8, "body 'rod'", "shape: length: must be positive, got '-1'"},
    {"table_decreasing.yaml", 9, "force 'push'", "magnitude: time: values must be strictly increasing, but '1' follows '2'"},
    {"table_lengths.yaml", 10, "force 'push'", "magnitude: value: expected 3 numbers (one per time), got 2"},
    {"slalom_too_few_cycles.yaml", 9, "force 'steer'", "magnitude: cycles: at least one cycle"},
    {"sine_with_dwell_negative_dwell.yaml", 9, "force 'steer'", "magnitude: dwell: must be zero or positive (seconds)"},
    {"driver_input_zero_frequency.yaml", 9, "force 'steer'", "magnitude: frequency: must be positive and finite (Hz)"},
    {"spring_rest_and_reference.yaml", 6, "force 'servo'", "give either 'rest' or 'reference' (a moving rest position), not both"},
    {"lock_unknown_joint.yaml", 6, "assembly", "lock: joint 'j2' is not defined"},
    // Semantics, found by ModelBuilder::build() at the locations the reader recorded
    {"duplicate_body.yaml", 3, "body 'rod'", "duplicate name (first defined at line 2)"},
    {"duplicate_joint.yaml", 6, "joint 'j1'", "duplicate name (first defined at line 5)"},
    {"two_parents.yaml", 7, "joint 'j3'", "body 'b' has two parents"},
    {"cycle.yaml", 7, "joint 'j2'", "closes a cycle in the tree"},
    {"unattached_body.yaml", 3, "body 'floating'", "is not attached to anything"},
    {"nonpositive_mass.yaml", 2, "body 'rod'", "mass must be positive"},
    {"inertia_not_pd.yaml", 2, "body 'rod'", "inertia tensor is not positive definite"},
    {"inertia_triangle.yaml", 2, "body 'rod'", "violate the triangle inequality"},
    {"zero_axis.yaml", 4, "joint 'j1'", "axis has zero length"},
    {"far_centre_of_mass.yaml", 2, "body 'rod'", "inertia about the origin overflows"},
    {"loop_unknown_body.yaml", 6, "loop 'closure'", "body_b 'rockr' is not defined"},
    {"subsystem_overlap.yaml", 9, "subsystem 2", "body 'b' is in subsystems 1 and 2"},
    {"subsystem_not_connected.yaml", 10, "subsystem 1", "bodies 'a' and 'c' both have their parent outside it"},
    {"unknown_parent.yaml", 4, "joint 'j1'", "parent body 'grund' is not defined"},
    {"wrong_q_length.yaml", 4, "joint 'ball'", "initial position needs 4 values for a spherical joint, got 3"},
    // Tyres and roads
    {"tyre_negative_radius.yaml", 7, "tyre 'tyre'", "radius must be positive"},
    {"tyre_unknown_body.yaml", 7, "tyre 'tyre'", "body 'whel' is not defined"},
    {"tyre_missing_coefficient.yaml", 13, "force 'tyre'", "missing coefficient PDX1"},
    {"tyre_negative_cornering_stiffness.yaml", 7, "tyre 'tyre'", "magic formula: PKY1 must be positive"},
    {"tyre_gravity_not_z.yaml", 7, "tyre 'tyre'", "gravity must point along -z"},
    {"road_unsorted_points.yaml", 11, "road", "points: profile point x = 4 lies before the end of the profile (x = 5)"},
    {"damping_curve_unsorted.yaml", 6, "spring 'strut'", "the damping curve's velocities must be strictly increasing"},
    {"air_spring_negative_volume.yaml", 6, "spring 'bag'", "air spring volume must be positive"},
    {"air_spring_zero_area.yaml", 11, "force 'bag'", "area: an air spring's effective area must be positive"},
    {"air_spring_vacuum.yaml", 6, "spring 'bag'", "air spring absolute pressure (gauge pressure plus ambient) must be positive"},
    {"leaf_spring_zero_slip_velocity.yaml", 6, "spring 'leaf'", "friction slip velocity must be positive"},
    {"road_negative_length.yaml", 11, "features[1]", "ramp length must be positive, got -2"},
};

INSTANTIATE_TEST_SUITE_P(YamlModelMalformed, YamlModelBadFile, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// An axis is a direction: components near the largest double still give the unit vector (their
// squared norm would overflow; the fuzzing test of the model loader found it).
TEST(YamlModel, AxisWithHugeComponentsIsNormalised) {
  const Model m = parse(R"(
bodies:
  - {name: rod, mass: 1, inertia: [0.1, 0.1, 0.1]}
joints:
  - {name: j1, type: prismatic, parent: ground, child: rod, axis: [1e308, 0, -1e308]}
)");
  EXPECT_NEAR((m.joints[1].axis - Vec3(1, 0, -1) / std::sqrt(2.0)).norm(), 0.0, 1e-15);
}

// The road's features expand to the points RoadProfileBuilder makes; a preset with overrides
// keeps the rest of the preset; the example quarter car loads with its tyre and road.
TEST(YamlModel, RoadFeaturesAndTyrePresets) {
  const Model m = parse(R"(
gravity: [0, 0, -9.81]
bodies:
  - {name: wheel, mass: 20, inertia: [0.4, 0.6, 0.4]}
joints:
  - {name: slide, type: prismatic, parent: ground, child: wheel, q: 0.3}
forces:
  - {name: t, type: tyre, body: wheel, radius: 0.3, radial_stiffness: 2e5, magic_formula: {preset: truck, PDX1: 0.9}}
road:
  type: profile
  points: [[-3, 0], [0, 0.1]]
  features:
    - {type: ramp, length: 2, rise: 0.2}
    - {type: stairs, count: 2, rise: -0.1, run: 0.5}
    - {type: bump, length: 1, height: 0.05, segments: 4}
)");
  const Road expected = RoadProfileBuilder(-3, 0).to(0, 0.1).ramp(2, 0.2).stairs(2, -0.1, 0.5).bump(1, 0.05, 4).build();
  ASSERT_EQ(m.road.points().size(), expected.points().size());
  for (std::size_t k = 0; k < expected.points().size(); ++k) {
    EXPECT_EQ(m.road.points()[k].x, expected.points()[k].x);
    EXPECT_EQ(m.road.points()[k].z, expected.points()[k].z);
  }
  ASSERT_EQ(m.tyres.size(), 1u);
  EXPECT_EQ(m.tyres[0].mf.PDX1, 0.9);
  EXPECT_EQ(m.tyres[0].mf.PKY1, MagicFormula::truck().PKY1);
  EXPECT_EQ(m.tyres[0].axis, Vec3::UnitZ());
  const Model car = loadModel(kExamples + "quarter_car.yaml");
  ASSERT_EQ(car.tyres.size(), 1u);
  EXPECT_EQ(car.road.kind(), Road::Kind::Profile);
  EXPECT_DOUBLE_EQ(car.road.height(7.0, 0.0), 0.15);  // half-way up the ramp
}

TEST(YamlModelMalformed, EveryBadFileHasACase) {
  std::set<std::string> covered;
  for (const BadFile& c : kBadFiles) covered.insert(c.file);
  for (const auto& entry : std::filesystem::directory_iterator(kBad))
    EXPECT_TRUE(covered.count(entry.path().filename().string())) << entry.path() << " has no expected error";
}

TEST(YamlModelMalformed, MissingFileOrDirectoryIsNamed) {
  const ModelError missing = errorFrom([] { loadModel("/nonexistent/model.yaml"); });
  EXPECT_EQ(std::string(missing.what()).rfind("/nonexistent/model.yaml: cannot open the model file", 0), 0u) << missing.what();
  const ModelError directory = errorFrom([] { loadModel(kBad); });
  EXPECT_NE(std::string(directory.what()).find("it is a directory"), std::string::npos) << directory.what();
}

// ---------------------------------------------------------------------------------
// Robustness: whatever the input, a Model with finite numbers or one ModelError

// Loads `text`; anything that loads must be finite and survive a round trip.
void expectModelOrModelError(const std::string& text) {
  try {
    const Model m = parseModelYaml(text, "fuzz.yaml").build();
    ASSERT_TRUE(m.q0.allFinite() && m.v0.allFinite()) << text;
    for (const Body& b : m.bodies) ASSERT_TRUE(b.inertia.matrix().allFinite()) << text;
    for (const Joint& j : m.joints) ASSERT_TRUE(j.placement.E.allFinite() && j.axis.allFinite()) << text;
    expectSameModel(m, parse(written(m)), 1e-12);
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("fuzz.yaml", 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected " << typeid(e).name() << ": " << e.what() << "\nfor input:\n" << text;
  }
}

TEST(YamlModelRobustness, TruncatedAndMutatedFilesFailCleanly) {
  std::vector<std::string> seeds;
  for (const auto& file : exampleFiles()) seeds.push_back(readText(file));
  seeds.push_back(written(richModel()));
  const std::vector<std::string> snippets = {": ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "1e308", "-1", "0", ".nan",
                                             "\"", "'", "#", "\t", "\n  ", "\n", "? ", "|", ">", "null", "~", "---\n", "ground",
                                             "name", "type: ", "free", "[1, 2, 3]", "{type: table}", "\x01", "\xff"};
  std::mt19937 rng(12345);
  const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  int cases = 0;
  for (const std::string& seed : seeds) {
    // Cuts every 5th byte, at most about 400 per file: every 5th byte of the truck's 21 kB made
    // this test 48 s in Release and 113 s under ASan (2026-11-26); the fuzzers cut everywhere.
    const std::size_t step = std::max<std::size_t>(5, seed.size() / 400);
    for (std::size_t cut = 0; cut < seed.size(); cut += step, ++cases) expectModelOrModelError(seed.substr(0, cut));
    for (int k = 0; k < 600; ++k, ++cases) {
      std::string text = seed;
      for (std::size_t edits = 1 + pick(3); edits > 0; --edits) {
        const std::size_t at = pick(text.size() + 1);
        switch (pick(3)) {
          case 0: text.insert(at, snippets[pick(snippets.size())]); break;
          case 1: text.erase(at, 1 + pick(8)); break;
          default: text.replace(at, 1, snippets[pick(snippets.size())]); break;
        }
      }
      expectModelOrModelError(text);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(cases, 3000);
}

TEST(YamlModelRobustness, PathologicalInputs) {
  expectModelOrModelError(std::string(100000, '['));
  expectModelOrModelError(std::string(100000, '{'));
  expectModelOrModelError("bodies:\n" + std::string(50000, ' ') + "- x");
  expectModelOrModelError(std::string("\0\0\0", 3));
  // Nested aliases: a "billion laughs" document is shared nodes for yaml-cpp, and the
  // reader rejects it at the first entry instead of walking it.
  std::string laughs = "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int k = 1; k < 10; ++k) laughs += ", " + prev;
    laughs += "]\n";
  }
  expectModelOrModelError(laughs + "bodies: *a9\n");
  expectModelOrModelError("bodies: &b [{name: x, mass: 1, inertia: [1, 1, 1]}]\njoints: *b\n");
  // Extreme but finite numbers.
  expectModelOrModelError(std::string(kOneRod) +
                          "joints: [{name: j, type: free, parent: ground, child: rod, rpy: [1e300, -1e300, 1e308], "
                          "xyz: [1e300, 1e300, 1e300], q: [1e300, 1e300, 1e300, 1e-300, 0, 0, 1e-300]}]\n");
}

}  // namespace ARTICULA_TEST_FILE
