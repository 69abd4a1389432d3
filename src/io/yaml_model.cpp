// Reading the YAML model format (docs/model-format.md) into a ModelBuilder. This file
// checks the syntax (keys, types, lengths, numbers) and records where each element
// is; ModelBuilder::build() checks the semantics and reports at those locations.
#include "articula/io/yaml_model.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "articula/io/urdf_model.hpp"
#include "yaml_format.hpp"
#include "yaml_reader.hpp"
#include "yaml_values.hpp"
#include "yaml_vehicle.hpp"

namespace articula {

namespace {

using yaml::Choice;
using yaml::describe;
using yaml::forEach;
using yaml::markLocation;
using yaml::Reader;

// Joints named in `assembly: {lock: [...]}`, with their nodes for error messages.
struct AssemblyLocks {
  std::vector<std::pair<std::string, YAML::Node>> names;

  bool contains(const std::string& joint) const {
    return std::any_of(names.begin(), names.end(), [&](const auto& n) { return n.first == joint; });
  }
};

AssemblyLocks readAssembly(const Reader& top) {
  AssemblyLocks locks;
  if (!top.has("assembly")) return locks;
  const Reader a = top.child("assembly");
  a.allowKeys({"lock"});
  if (!a.has("lock")) return locks;
  const YAML::Node list = a.required("lock");
  if (!list.IsSequence()) a.fail(list, "lock: expected a list of joint names, got " + describe(list));
  for (const YAML::Node& item : list) locks.names.emplace_back(a.toText(item, "lock"), item);
  return locks;
}

void readBody(ModelBuilder& b, const Reader& r) {
  r.allowKeys({"name", "mass", "com", "inertia", "shape", "shapes"});
  BodySpec s;
  s.where = r.where();
  s.name = r.text("name");
  s.mass = r.number("mass");
  s.com = r.vec3("com", Vec3::Zero());
  s.inertia = yaml::readInertia(r);
  s.shapes = yaml::readShapes(r);
  b.addBody(std::move(s));
}

void readJoint(ModelBuilder& b, const Reader& r, const AssemblyLocks& locks) {
  static const std::vector<Choice<JointType>> types = [] {
    std::vector<Choice<JointType>> t;
    for (JointType type : {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Cylindrical,
                           JointType::Universal, JointType::Spherical, JointType::Planar, JointType::Free}) {
      yaml::Keys own;
      if (yaml::jointUsesAxis(type)) own.push_back("axis");
      if (type == JointType::Universal) own.push_back("axis2");
      t.push_back({type, {jointTypeName(type), own}});
    }
    return t;
  }();
  JointSpec s;
  s.where = r.where();
  s.name = r.text("name");
  s.type = r.choose(types, {"name", "type", "parent", "child", "xyz", "rpy", "q", "v", "lock_in_assembly"}, "joint");
  s.parent = r.text("parent");
  s.child = r.text("child");
  s.position = r.vec3("xyz", Vec3::Zero());
  s.rotation = yaml::readRotation(r, "rpy");
  s.axis = r.vec3("axis", Vec3::UnitZ());
  s.axis2 = r.vec3("axis2", Vec3::UnitY());
  s.q0 = r.numbers("q");
  s.v0 = r.numbers("v");
  s.lockedInAssembly = r.flag("lock_in_assembly", false) || locks.contains(s.name);
  b.addJoint(std::move(s));
}

void readLoop(ModelBuilder& b, const Reader& r) {
  using Type = LoopConstraint::Type;
  static const std::vector<Choice<Type>> types = {{Type::Ball, {loopTypeName(Type::Ball), {}}},
                                                  {Type::Revolute, {loopTypeName(Type::Revolute), {"axis_a", "axis_b"}}},
                                                  {Type::Weld, {loopTypeName(Type::Weld), {"rpy_a", "rpy_b"}}},
                                                  {Type::Distance, {loopTypeName(Type::Distance), {"distance"}}}};
  LoopSpec s;
  s.where = r.where();
  s.name = r.text("name");
  s.type = r.choose(types, {"name", "type", "body_a", "point_a", "body_b", "point_b"}, "loop");
  s.bodyA = r.text("body_a");
  s.pointA = r.vec3("point_a", Vec3::Zero());
  s.bodyB = r.text("body_b");
  s.pointB = r.vec3("point_b", Vec3::Zero());
  s.axisA = r.vec3("axis_a", Vec3::UnitZ());
  s.axisB = r.vec3("axis_b", Vec3::UnitZ());
  s.rotationA = yaml::readRotation(r, "rpy_a");
  s.rotationB = yaml::readRotation(r, "rpy_b");
  if (s.type == Type::Distance) s.distance = r.number("distance");
  b.addLoop(std::move(s));
}

// The keys every point spring shares: its two ends and its damper (coefficient or curve) and bump stop.
PointSpringSpec readPointSpring(const Reader& r, const std::string& name) {
  PointSpringSpec s{name, r.text("body_a"), r.text("body_b"), r.vec3("point_a", Vec3::Zero()), r.vec3("point_b", Vec3::Zero()),
                    0.0, r.number("damping", 0.0), 0.0, r.where()};
  if (r.has("damping_curve")) {
    const Reader c = r.child("damping_curve");
    c.allowKeys({"velocity", "force"});
    s.curveVelocity = c.toList(c.required("velocity"), "velocity");
    s.curveForce = c.toNumbers(c.required("force"), "force", s.curveVelocity.size());
  }
  if (r.has("bump_stop")) {
    const Reader stop = r.child("bump_stop");
    stop.allowKeys({"length", "stiffness"});
    s.bumpStopLength = stop.number("length");
    s.bumpStopStiffness = stop.number("stiffness");
  }
  return s;
}

void readForce(ModelBuilder& b, const Reader& r) {
  enum class Kind { JointSpring, JointLimit, JointFriction, PointSpring, AirSpring, LeafSpring, Force, Torque, JointForce, Prescribed, Tyre };
  static const std::vector<Choice<Kind>> kinds = {
      {Kind::JointSpring, {"joint_spring_damper", {"joint", "dof", "stiffness", "damping", "rest", "reference"}}},
      {Kind::JointLimit, {"joint_limit", {"joint", "dof", "lower", "upper", "stiffness", "damping"}}},
      {Kind::JointFriction, {"joint_friction", {"joint", "dof", "force", "slip_velocity"}}},
      {Kind::PointSpring,
       {"spring_damper", {"body_a", "point_a", "body_b", "point_b", "stiffness", "damping", "rest_length", "damping_curve", "bump_stop"}}},
      {Kind::AirSpring,
       {"air_spring", {"body_a", "point_a", "body_b", "point_b", "area", "volume", "pressure", "length", "exponent",
                       "ambient_pressure", "damping", "damping_curve", "bump_stop"}}},
      {Kind::LeafSpring,
       {"leaf_spring", {"body_a", "point_a", "body_b", "point_b", "stiffness", "damping", "rest_length", "damping_curve",
                        "bump_stop", "interleaf_friction"}}},
      {Kind::Force, {"force", {"body", "point", "direction", "frame", "magnitude"}}},
      {Kind::Torque, {"torque", {"body", "direction", "frame", "magnitude"}}},
      {Kind::JointForce, {"joint_force", {"joint", "dof", "magnitude"}}},
      {Kind::Prescribed, {"prescribed_motion", {"joint", "dof", "position"}}},
      {Kind::Tyre, {"tyre", yaml::tyreKeys()}}};
  const std::string name = r.text("name");
  const Kind kind = r.choose(kinds, {"name", "type"}, "force");
  switch (kind) {
    case Kind::JointSpring: {
      if (r.has("rest") && r.has("reference")) r.fail("give either 'rest' or 'reference' (a moving rest position), not both");
      std::optional<TimeFunction> reference;
      if (r.has("reference")) reference = yaml::readFunction(r, "reference");
      b.addJointSpring({name, r.text("joint"), r.integer("dof", 0), r.number("stiffness", 0.0), r.number("damping", 0.0),
                        r.number("rest", 0.0), r.where(), std::move(reference)});
      return;
    }
    case Kind::JointLimit:
      b.addJointLimit({name, r.text("joint"), r.integer("dof", 0), r.number("lower"), r.number("upper"), r.number("stiffness"),
                       r.number("damping", 0.0), r.where()});
      return;
    case Kind::JointFriction:
      b.addJointFriction({name, r.text("joint"), r.integer("dof", 0), r.number("force"), r.number("slip_velocity"), r.where()});
      return;
    case Kind::PointSpring:
    case Kind::LeafSpring: {
      PointSpringSpec s = readPointSpring(r, name);
      s.stiffness = r.number("stiffness", 0.0);
      s.restLength = r.number("rest_length", 0.0);
      if (r.has("interleaf_friction")) {
        const Reader f = r.child("interleaf_friction");
        f.allowKeys({"force", "slip_velocity"});
        s.frictionForce = f.number("force");
        s.frictionSlipVelocity = f.number("slip_velocity");
      }
      b.addPointSpring(std::move(s));
      return;
    }
    case Kind::AirSpring: {
      PointSpringSpec s = readPointSpring(r, name);
      s.air.area = r.number("area");
      s.air.volume = r.number("volume");
      s.air.ambient = r.number("ambient_pressure", AirSpring{}.ambient);
      s.air.pressure = r.number("pressure") + s.air.ambient;  // the file gives the gauge pressure
      s.air.length = r.number("length");
      s.air.exponent = r.number("exponent", AirSpring{}.exponent);
      if (s.air.area == 0.0) r.fail(r.required("area"), "area: an air spring's effective area must be positive");
      b.addPointSpring(std::move(s));
      return;
    }
    case Kind::Force:
    case Kind::Torque: {
      const std::string frame = r.text("frame", "world");
      if (frame != "world" && frame != "body")
        r.fail(r.required("frame"), "frame: expected 'world' or 'body', got " + describe(r.required("frame")));
      b.addBodyLoad({name, r.text("body"), kind == Kind::Torque, frame == "world", r.vec3("point", Vec3::Zero()),
                     r.vec3("direction"), yaml::readFunction(r, "magnitude"), r.where()});
      return;
    }
    case Kind::JointForce:
      b.addJointLoad({name, r.text("joint"), r.integer("dof", 0), yaml::readFunction(r, "magnitude"), r.where()});
      return;
    case Kind::Prescribed:
      b.addPrescribedMotion({name, r.text("joint"), r.integer("dof", 0), yaml::readFunction(r, "position"), r.where()});
      return;
    case Kind::Tyre:
      b.addTyre(yaml::readTyre(r, name));
      return;
  }
}

void readMarker(ModelBuilder& b, const Reader& r) {
  r.allowKeys({"name", "body", "position"});
  b.addMarker({r.text("name"), r.text("body"), r.vec3("position", Vec3::Zero()), r.where()});
}

// `subsystems: [[body, ...], ...]`: the distributed formulation's partition (docs/distributed.md);
// ModelBuilder::build() checks that it partitions the bodies into connected parts.
void readSubsystems(ModelBuilder& b, const Reader& top) {
  if (!top.has("subsystems")) return;
  const YAML::Node list = top.required("subsystems");
  if (!list.IsSequence() || list.size() == 0)
    top.fail(list, "subsystems: expected a non-empty list of subsystems (lists of body names), got " + describe(list));
  for (const YAML::Node& part : list) {
    if (!part.IsSequence())
      top.fail(part, "subsystems: each subsystem is a list of body names, got " + describe(part));
    SubsystemSpec s;
    s.where = markLocation(top.file(), part.Mark());
    for (const YAML::Node& item : part) {
      s.bodies.push_back(top.toText(item, "subsystems"));
      s.bodyWhere.push_back(markLocation(top.file(), item.Mark()));
    }
    b.addSubsystem(std::move(s));
  }
}

ModelBuilder readModel(const YAML::Node& doc, const std::string& file) {
  if (!doc.IsMap())
    throw ModelError(markLocation(file, doc.Mark()), "",
                     "the top level must be a map with keys such as 'bodies' and 'joints', got " + describe(doc));
  const Reader top(doc, file, "");
  top.allowKeys({"name", "gravity", "ground", "bodies", "joints", "loops", "forces", "markers", "assembly", "road",
                  "subsystems"});
  if (!top.has("bodies")) top.fail("the model has no bodies: a 'bodies' list is required");

  ModelBuilder b;
  b.where = top.where();
  b.name = top.text("name", "model");
  b.gravity = top.vec3("gravity", Vec3(0.0, -9.81, 0.0));
  if (top.has("ground")) {
    const Reader ground = top.child("ground");
    ground.allowKeys({"shape", "shapes"});
    b.groundShapes = yaml::readShapes(ground);
  }
  const AssemblyLocks locks = readAssembly(top);
  if (forEach(top, "bodies", "body", [&](const Reader& r) { readBody(b, r); }) == 0)
    top.fail(top.required("bodies"), "bodies: the list is empty; a model needs at least one body");
  std::vector<std::string> jointNames;
  forEach(top, "joints", "joint", [&](const Reader& r) {
    readJoint(b, r, locks);
    jointNames.push_back(r.text("name"));
  });
  for (const auto& [name, node] : locks.names)
    if (std::find(jointNames.begin(), jointNames.end(), name) == jointNames.end())
      Reader(top.required("assembly"), file, "assembly").fail(node, "lock: joint '" + name + "' is not defined");
  forEach(top, "loops", "loop", [&](const Reader& r) { readLoop(b, r); });
  forEach(top, "forces", "force", [&](const Reader& r) { readForce(b, r); });
  forEach(top, "markers", "marker", [&](const Reader& r) { readMarker(b, r); });
  if (top.has("road")) b.road = yaml::readRoad(Reader(top.required("road"), file, "road"));
  readSubsystems(b, top);
  return b;
}

}  // namespace

ModelBuilder parseModelYaml(const std::string& text, const std::string& fileLabel) {
  const YAML::Node doc = yaml::parseDocument(text, fileLabel);
  try {
    return readModel(doc, fileLabel);
  } catch (const YAML::Exception& e) {
    // Safety net: the readers check node kinds before every access, so yaml-cpp's own
    // checks should never fire; if one does, it still becomes a located ModelError.
    throw ModelError(markLocation(fileLabel, e.mark), "", "malformed model: " + e.msg);
  }
}

ModelBuilder loadModelBuilder(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ModelError({path, 0, 0}, "", "cannot read the model file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 0, 0}, "", "cannot open the model file (" + std::generic_category().message(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ModelError({path, 0, 0}, "", "cannot read the model file");
  return isUrdfPath(path) ? parseUrdf(text.str(), path) : parseModelYaml(text.str(), path);
}

Model loadModel(const std::string& path) { return loadModelBuilder(path).build(); }

}  // namespace articula
