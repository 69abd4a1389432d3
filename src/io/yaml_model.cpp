#include "articula/io/yaml_model.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "yaml_reader.hpp"

namespace articula {

namespace {

using yaml::Reader;

// "joint 'A'" when the element has a name, else "joints[2]".
std::string elementLabel(const YAML::Node& n, const char* kind, const char* list, std::size_t index) {
  const YAML::Node name = n.IsMap() ? n["name"] : YAML::Node();
  if (name.IsDefined() && name.IsScalar()) return std::string(kind) + " '" + name.Scalar() + "'";
  return std::string(list) + "[" + std::to_string(index) + "]";
}

// Calls f(reader) for each entry of the list under `key`.
template <class F>
void forEach(const Reader& top, const char* key, const char* kind, F&& f) {
  if (!top.has(key)) return;
  const YAML::Node list = top.get(key);
  if (!list.IsSequence()) top.fail(list, std::string(key) + ": expected a list");
  for (std::size_t i = 0; i < list.size(); ++i) f(Reader(list[i], top.file(), elementLabel(list[i], kind, key, i)));
}

Mat3 orientation(const Reader& r, const char* key) { return rpyRotation(r.vec3(key, Vec3::Zero())); }

Mat3 inertiaTensor(const Reader& r) {
  if (!r.has("inertia")) r.fail("missing required key 'inertia'");
  const YAML::Node n = r.get("inertia");
  if (n.IsMap()) {
    const Reader m(n, r.file(), r.element());
    m.allowKeys({"ixx", "iyy", "izz", "ixy", "ixz", "iyz"});
    const double ixy = m.number("ixy", 0.0), ixz = m.number("ixz", 0.0), iyz = m.number("iyz", 0.0);
    Mat3 I;
    I << m.number("ixx"), ixy, ixz, ixy, m.number("iyy"), iyz, ixz, iyz, m.number("izz");
    return I;
  }
  if (n.IsSequence() && n.size() == 3 && n[0].IsSequence()) {
    Mat3 I;
    for (int i = 0; i < 3; ++i) {
      const auto row = r.toNumbers(n[i], "inertia row", 3);
      for (int j = 0; j < 3; ++j) I(i, j) = row[static_cast<std::size_t>(j)];
    }
    return I;
  }
  const auto d = r.toNumbers(n, "inertia", 3);
  return Vec3(d[0], d[1], d[2]).asDiagonal();
}

Shape shape(const Reader& body) {
  Shape s;
  if (!body.has("shape")) return s;
  const Reader r(body.get("shape"), body.file(), body.element() + " shape");
  r.allowKeys({"type", "size", "radius", "length", "xyz", "rpy", "color"});
  const std::string type = r.text("type");
  auto positive = [&](const char* key) {
    const double x = r.number(key);
    if (x <= 0.0) r.fail(r.get(key), std::string(key) + " must be positive");
    return x;
  };
  if (type == "box") {
    s.kind = Shape::Kind::Box;
    s.size = r.vec3("size");
    if (s.size.minCoeff() <= 0.0) r.fail(r.get("size"), "box sizes must be positive");
  } else if (type == "cylinder" || type == "capsule") {
    s.kind = type == "cylinder" ? Shape::Kind::Cylinder : Shape::Kind::Capsule;
    s.radius = positive("radius");
    s.length = positive("length");
  } else if (type == "sphere") {
    s.kind = Shape::Kind::Sphere;
    s.radius = positive("radius");
  } else {
    r.fail(r.get("type"), "unknown shape type '" + type + "' (valid: box, cylinder, sphere, capsule)");
  }
  s.position = r.vec3("xyz", Vec3::Zero());
  s.rotation = orientation(r, "rpy");
  s.color = r.text("color", "");
  return s;
}

TimeFunction timeFunction(const Reader& owner, const char* key) {
  if (!owner.has(key)) owner.fail(std::string("missing required key '") + key + "'");
  const YAML::Node n = owner.get(key);
  if (n.IsScalar()) return TimeFunction::constant(owner.toNumber(n, key));
  const Reader r(n, owner.file(), owner.element() + " " + key);
  if (!n.IsMap()) r.fail(std::string(key) + ": expected a number or a function map");
  const std::string type = r.text("type");
  if (type == "constant") {
    r.allowKeys({"type", "value"});
    return TimeFunction::constant(r.number("value"));
  }
  if (type == "sine") {
    r.allowKeys({"type", "amplitude", "frequency", "phase", "offset"});
    return TimeFunction::sine(r.number("amplitude"), r.number("frequency"), r.number("phase", 0.0), r.number("offset", 0.0));
  }
  if (type == "polynomial") {
    r.allowKeys({"type", "coefficients"});
    const auto c = r.numbers("coefficients");
    if (c.empty()) r.fail("coefficients: expected at least one number");
    return TimeFunction::polynomial(c);
  }
  if (type == "smooth_step") {
    r.allowKeys({"type", "t0", "v0", "t1", "v1"});
    const double t0 = r.number("t0"), t1 = r.number("t1");
    if (!(t1 > t0)) r.fail(r.get("t1"), "t1 must be after t0");
    return TimeFunction::smoothStep(t0, r.number("v0"), t1, r.number("v1"));
  }
  if (type == "table") {
    r.allowKeys({"type", "time", "value"});
    const auto t = r.numbers("time"), v = r.numbers("value");
    if (t.size() < 2) r.fail("time: a table needs at least 2 points");
    if (t.size() != v.size())
      r.fail("time and value have different lengths (" + std::to_string(t.size()) + " and " + std::to_string(v.size()) + ")");
    for (std::size_t i = 1; i < t.size(); ++i)
      if (!(t[i] > t[i - 1])) r.fail(r.get("time"), "time: values must be strictly increasing (entry " + std::to_string(i) + ")");
    return TimeFunction::table(t, v);
  }
  r.fail(r.get("type"), "unknown function type '" + type + "' (valid: constant, sine, polynomial, smooth_step, table)");
}

void readBody(ModelBuilder& b, const Reader& r) {
  r.allowKeys({"name", "mass", "com", "inertia", "shape"});
  BodySpec s;
  s.where = r.where();
  s.name = r.text("name");
  s.mass = r.number("mass");
  s.com = r.vec3("com", Vec3::Zero());
  s.inertia = inertiaTensor(r);
  s.shape = shape(r);
  b.addBody(s);
}

void readJoint(ModelBuilder& b, const Reader& r, const std::vector<std::string>& locked) {
  r.allowKeys({"name", "type", "parent", "child", "xyz", "rpy", "axis", "axis2", "q", "v", "lock_in_assembly"});
  JointSpec s;
  s.where = r.where();
  s.name = r.text("name");
  const std::string type = r.text("type");
  if (!parseJointType(type, s.type))
    r.fail(r.get("type"), "unknown joint type '" + type + "' (valid: fixed, revolute, prismatic, cylindrical, universal, spherical, planar, free)");
  s.parent = r.text("parent");
  s.child = r.text("child");
  s.position = r.vec3("xyz", Vec3::Zero());
  s.rotation = orientation(r, "rpy");
  s.axis = r.vec3("axis", Vec3::UnitZ());
  s.axis2 = r.vec3("axis2", Vec3::UnitY());
  s.q0 = r.numbers("q");
  s.v0 = r.numbers("v");
  s.lockedInAssembly = r.flag("lock_in_assembly", false);
  for (const auto& l : locked) s.lockedInAssembly = s.lockedInAssembly || l == s.name;
  b.addJoint(s);
}

void readLoop(ModelBuilder& b, const Reader& r) {
  r.allowKeys({"name", "type", "body_a", "point_a", "axis_a", "rpy_a", "body_b", "point_b", "axis_b", "rpy_b", "distance"});
  LoopSpec s;
  s.where = r.where();
  s.name = r.text("name");
  const std::string type = r.text("type");
  if (type == "ball") s.type = LoopConstraint::Type::Ball;
  else if (type == "revolute") s.type = LoopConstraint::Type::Revolute;
  else if (type == "weld") s.type = LoopConstraint::Type::Weld;
  else if (type == "distance") s.type = LoopConstraint::Type::Distance;
  else r.fail(r.get("type"), "unknown loop type '" + type + "' (valid: ball, revolute, weld, distance)");
  s.bodyA = r.text("body_a");
  s.bodyB = r.text("body_b");
  s.pointA = r.vec3("point_a", Vec3::Zero());
  s.pointB = r.vec3("point_b", Vec3::Zero());
  s.axisA = r.vec3("axis_a", Vec3::UnitZ());
  s.axisB = r.vec3("axis_b", Vec3::UnitZ());
  s.rotationA = orientation(r, "rpy_a");
  s.rotationB = orientation(r, "rpy_b");
  if (s.type == LoopConstraint::Type::Distance) s.distance = r.number("distance");
  b.addLoop(s);
}

void readForce(ModelBuilder& b, const Reader& r) {
  const std::string type = r.text("type");
  const std::string name = r.text("name");
  if (type == "joint_spring_damper") {
    r.allowKeys({"name", "type", "joint", "dof", "stiffness", "damping", "rest"});
    b.addJointSpring({name, r.text("joint"), r.integer("dof", 0), r.number("stiffness", 0.0), r.number("damping", 0.0),
                      r.number("rest", 0.0), r.where()});
  } else if (type == "spring_damper") {
    r.allowKeys({"name", "type", "body_a", "point_a", "body_b", "point_b", "stiffness", "damping", "rest_length"});
    b.addPointSpring({name, r.text("body_a"), r.text("body_b"), r.vec3("point_a", Vec3::Zero()), r.vec3("point_b", Vec3::Zero()),
                      r.number("stiffness", 0.0), r.number("damping", 0.0), r.number("rest_length", 0.0), r.where()});
  } else if (type == "force" || type == "torque") {
    const bool torque = type == "torque";
    if (torque) r.allowKeys({"name", "type", "body", "direction", "frame", "magnitude"});
    else r.allowKeys({"name", "type", "body", "point", "direction", "frame", "magnitude"});
    const std::string frame = r.text("frame", "world");
    if (frame != "world" && frame != "body") r.fail(r.get("frame"), "frame: expected 'world' or 'body', got '" + frame + "'");
    b.addBodyLoad({name, r.text("body"), torque, frame == "world", r.vec3("point", Vec3::Zero()), r.vec3("direction"),
                   timeFunction(r, "magnitude"), r.where()});
  } else if (type == "joint_force") {
    r.allowKeys({"name", "type", "joint", "dof", "magnitude"});
    b.addJointLoad({name, r.text("joint"), r.integer("dof", 0), timeFunction(r, "magnitude"), r.where()});
  } else if (type == "prescribed_motion") {
    r.allowKeys({"name", "type", "joint", "dof", "position"});
    b.addPrescribedMotion({name, r.text("joint"), r.integer("dof", 0), timeFunction(r, "position"), r.where()});
  } else {
    r.fail(r.get("type"), "unknown force type '" + type +
                              "' (valid: joint_spring_damper, spring_damper, force, torque, joint_force, prescribed_motion)");
  }
}

}  // namespace

ModelBuilder parseModelYaml(const std::string& text, const std::string& fileLabel) {
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ModelError({fileLabel, e.mark.line + 1, e.mark.column + 1}, "", "YAML syntax error: " + e.msg);
  }
  const Reader top(doc, fileLabel, "model");
  if (!doc.IsMap()) throw ModelError({fileLabel, 0, 0}, "model", "the file must be a YAML map with at least a 'bodies' and a 'joints' list");
  top.allowKeys({"name", "gravity", "bodies", "joints", "loops", "forces", "markers", "assembly"});
  if (!top.has("bodies")) top.fail("the model has no 'bodies' list");
  ModelBuilder b;
  b.where = {fileLabel, 0, 0};
  b.name = top.text("name", "model");
  b.gravity = top.vec3("gravity", Vec3(0.0, -9.81, 0.0));

  std::vector<std::string> locked;
  if (top.has("assembly")) {
    const Reader a(top.get("assembly"), fileLabel, "assembly");
    a.allowKeys({"lock"});
    if (a.has("lock")) {
      const YAML::Node list = a.get("lock");
      if (!list.IsSequence()) a.fail(list, "lock: expected a list of joint names");
      for (const auto& n : list) {
        if (!n.IsScalar()) a.fail(n, "lock: expected joint names");
        locked.push_back(n.Scalar());
      }
    }
  }
  forEach(top, "bodies", "body", [&](const Reader& r) { readBody(b, r); });
  std::vector<std::string> jointNames;
  forEach(top, "joints", "joint", [&](const Reader& r) {
    readJoint(b, r, locked);
    jointNames.push_back(r.text("name"));
  });
  for (const auto& name : locked)
    if (std::find(jointNames.begin(), jointNames.end(), name) == jointNames.end())
      Reader(top.get("assembly")["lock"], fileLabel, "assembly").fail("lock: joint '" + name + "' is not defined");
  forEach(top, "loops", "loop", [&](const Reader& r) { readLoop(b, r); });
  forEach(top, "forces", "force", [&](const Reader& r) { readForce(b, r); });
  forEach(top, "markers", "marker", [&](const Reader& r) {
    r.allowKeys({"name", "body", "position"});
    b.addMarker({r.text("name"), r.text("body"), r.vec3("position", Vec3::Zero()), r.where()});
  });
  return b;
}

ModelBuilder loadModelBuilder(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 0, 0}, "", "cannot open the model file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ModelError({path, 0, 0}, "", "cannot read the model file");
  return parseModelYaml(text.str(), path);
}

Model loadModel(const std::string& path) { return loadModelBuilder(path).build(); }

}  // namespace articula
