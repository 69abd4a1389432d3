// Writing a Model in the YAML model format. The output loads back to the same model:
// numbers carry 17 significant digits, names are quoted when YAML would misread them,
// rotations are written as roll-pitch-yaw angles that rpyRotation() turns back into them.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "articula/io/yaml_model.hpp"
#include "yaml_format.hpp"

namespace articula {

namespace {

// Stream inserters for the value syntaxes of the format.
struct Num {
  double x;
};
struct Vec {
  const Vec3& v;
};
struct List {
  const double* x;
  int n;
};
struct Text {
  const std::string& s;
};

std::ostream& operator<<(std::ostream& out, Num num) {
  // YAML spellings for the values the loader rejects, so the file stays valid YAML.
  if (std::isnan(num.x)) return out << ".nan";
  if (std::isinf(num.x)) return out << (num.x > 0 ? ".inf" : "-.inf");
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, num.x, std::chars_format::general, 17);
  return out.write(buf, r.ptr - buf);
}

std::ostream& operator<<(std::ostream& out, Vec vec) {
  return out << '[' << Num{vec.v.x()} << ", " << Num{vec.v.y()} << ", " << Num{vec.v.z()} << ']';
}

// A single number, or a list when there are several.
std::ostream& operator<<(std::ostream& out, List list) {
  if (list.n == 1) return out << Num{list.x[0]};
  out << '[';
  for (int k = 0; k < list.n; ++k) out << (k ? ", " : "") << Num{list.x[k]};
  return out << ']';
}

// Plain when the text reads back as itself in any context (block or flow), else double-quoted.
bool plainSafe(const std::string& s) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL" || s == "~") return false;
  if (!std::isalnum(static_cast<unsigned char>(s[0])) && s[0] != '_') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
  });
}

std::ostream& operator<<(std::ostream& out, Text text) {
  if (plainSafe(text.s)) return out << text.s;
  out << '"';
  for (char c : text.s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out << '\\' << c;
    } else if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", u);
      out << esc;
    } else {
      out << c;
    }
  }
  return out << '"';
}

// Roll-pitch-yaw angles (r, p, y) with R = Rz(y) Ry(p) Rx(r), the inverse of rpyRotation().
// Yaw comes from the first column; Rz(-y) R = Ry(p) Rx(r) then gives roll and pitch
// from entries that stay well conditioned at p = +-pi/2, where yaw alone is arbitrary.
Vec3 rollPitchYaw(const Mat3& R) {
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  const Mat3 P = Eigen::AngleAxisd(-yaw, Vec3::UnitZ()).toRotationMatrix() * R;
  return {std::atan2(-P(1, 2), P(1, 1)), std::atan2(-P(2, 0), P(0, 0)), yaw};
}

void writeInertia(std::ostream& out, const Mat3& I) {
  if (I(0, 1) == 0.0 && I(0, 2) == 0.0 && I(1, 2) == 0.0) {
    out << Vec{I.diagonal()};
    return;
  }
  out << "{ixx: " << Num{I(0, 0)} << ", iyy: " << Num{I(1, 1)} << ", izz: " << Num{I(2, 2)} << ", ixy: " << Num{I(0, 1)}
      << ", ixz: " << Num{I(0, 2)} << ", iyz: " << Num{I(1, 2)} << '}';
}

void writeShape(std::ostream& out, const Shape& s) {
  out << "{type: ";
  switch (s.kind) {
    case Shape::Kind::Box: out << "box, size: " << Vec{s.size}; break;
    case Shape::Kind::Cylinder: out << "cylinder, radius: " << Num{s.radius} << ", length: " << Num{s.length}; break;
    case Shape::Kind::Capsule: out << "capsule, radius: " << Num{s.radius} << ", length: " << Num{s.length}; break;
    case Shape::Kind::Sphere: out << "sphere, radius: " << Num{s.radius}; break;
    case Shape::Kind::Mesh: out << "mesh, file: " << Text{s.mesh} << ", scale: " << Vec{s.scale}; break;
    case Shape::Kind::None: break;
  }
  out << ", xyz: " << Vec{s.position};
  if (s.rotation != Mat3::Identity()) out << ", rpy: " << Vec{rollPitchYaw(s.rotation)};
  if (!s.color.empty()) out << ", color: " << Text{s.color};
  out << '}';
}

// `shape: {...}` for one shape, a `shapes:` list for several, at the given indentation.
void writeShapes(std::ostream& out, const std::vector<Shape>& shapes, const std::string& indent) {
  if (shapes.size() == 1) {
    out << indent << "shape: ";
    writeShape(out, shapes.front());
    out << '\n';
    return;
  }
  if (shapes.empty()) return;
  out << indent << "shapes:\n";
  for (const Shape& s : shapes) {
    out << indent << "  - ";
    writeShape(out, s);
    out << '\n';
  }
}

void writeBodies(std::ostream& out, const Model& model) {
  if (!model.bodies[0].shapes.empty()) {
    out << "ground:\n";
    writeShapes(out, model.bodies[0].shapes, "  ");
  }
  out << "bodies:\n";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Body& b = model.bodies[i];
    out << "  - name: " << Text{b.name} << "\n    mass: " << Num{b.mass} << "\n    com: " << Vec{b.com} << "\n    inertia: ";
    writeInertia(out, b.inertiaCom);
    out << '\n';
    writeShapes(out, b.shapes, "    ");
  }
}

void writeJoints(std::ostream& out, const Model& model) {
  out << "joints:\n";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    out << "  - name: " << Text{j.name} << "\n    type: " << jointTypeName(j.type)
        << "\n    parent: " << Text{model.bodies[j.parent].name} << "\n    child: " << Text{model.bodies[j.child].name}
        << "\n    xyz: " << Vec{j.placement.r} << '\n';
    const Mat3 R = j.placement.rotationInParent();
    if (R != Mat3::Identity()) out << "    rpy: " << Vec{rollPitchYaw(R)} << '\n';
    if (yaml::jointUsesAxis(j.type)) out << "    axis: " << Vec{j.axis} << '\n';
    if (j.type == JointType::Universal) out << "    axis2: " << Vec{j.axis2} << '\n';
    if (j.nq > 0) out << "    q: " << List{model.q0.data() + j.iq, j.nq} << '\n';
    if (j.nv > 0) out << "    v: " << List{model.v0.data() + j.iv, j.nv} << '\n';
    if (j.nv > 0 && model.lockedInAssembly[static_cast<std::size_t>(j.iv)]) out << "    lock_in_assembly: true\n";
  }
}

void writeLoops(std::ostream& out, const Model& model) {
  if (!model.loops.empty()) out << "loops:\n";
  for (const auto& l : model.loops) {
    out << "  - name: " << Text{l.name} << "\n    type: " << loopTypeName(l.type) << "\n    body_a: " << Text{model.bodies[l.bodyA].name}
        << "\n    point_a: " << Vec{l.pointA} << "\n    body_b: " << Text{model.bodies[l.bodyB].name} << "\n    point_b: " << Vec{l.pointB}
        << '\n';
    switch (l.type) {
      case LoopConstraint::Type::Revolute:  // the hinge axis is the z axis of each frame
        out << "    axis_a: " << Vec{l.rotationA.col(2)} << "\n    axis_b: " << Vec{l.rotationB.col(2)} << '\n';
        break;
      case LoopConstraint::Type::Weld:
        out << "    rpy_a: " << Vec{rollPitchYaw(l.rotationA)} << "\n    rpy_b: " << Vec{rollPitchYaw(l.rotationB)} << '\n';
        break;
      case LoopConstraint::Type::Distance:
        out << "    distance: " << Num{l.distance} << '\n';
        break;
      case LoopConstraint::Type::Ball:
        break;
    }
  }
}

void writeForces(std::ostream& out, const Model& model) {
  const auto body = [&](int i) { return Text{model.bodies[static_cast<std::size_t>(i)].name}; };
  const auto joint = [&](int i) { return Text{model.joints[static_cast<std::size_t>(i)].name}; };
  if (model.jointSprings.size() + model.jointLimits.size() + model.jointFrictions.size() + model.pointSprings.size() + model.bodyLoads.size() + model.jointLoads.size() +
          model.prescribed.size() + model.tyres.size() > 0)
    out << "forces:\n";
  for (const auto& s : model.jointSprings) {
    out << "  - {name: " << Text{s.name} << ", type: joint_spring_damper, joint: " << joint(s.joint) << ", dof: " << s.dof
        << ", stiffness: " << Num{s.stiffness} << ", damping: " << Num{s.damping};
    if (s.reference)
      out << ", reference: " << s.reference->yaml() << "}\n";
    else
      out << ", rest: " << Num{s.restPosition} << "}\n";
  }
  for (const auto& l : model.jointLimits)
    out << "  - {name: " << Text{l.name} << ", type: joint_limit, joint: " << joint(l.joint) << ", dof: " << l.dof
        << ", lower: " << Num{l.lower} << ", upper: " << Num{l.upper} << ", stiffness: " << Num{l.stiffness}
        << ", damping: " << Num{l.damping} << "}\n";
  for (const auto& f : model.jointFrictions)
    out << "  - {name: " << Text{f.name} << ", type: joint_friction, joint: " << joint(f.joint) << ", dof: " << f.dof
        << ", force: " << Num{f.force} << ", slip_velocity: " << Num{f.slipVelocity} << "}\n";
  for (const auto& s : model.pointSprings) {
    const char* type = s.hasAirSpring() ? "air_spring" : s.hasFriction() ? "leaf_spring" : "spring_damper";
    out << "  - {name: " << Text{s.name} << ", type: " << type << ", body_a: " << body(s.bodyA) << ", point_a: " << Vec{s.pointA}
        << ", body_b: " << body(s.bodyB) << ", point_b: " << Vec{s.pointB} << ", damping: " << Num{s.damping};
    if (s.hasAirSpring())  // the YAML reader's air_spring has no linear spring (the builder's element may)
      out << ",\n     area: " << Num{s.air.area} << ", volume: " << Num{s.air.volume} << ", pressure: "
          << Num{s.air.pressure - s.air.ambient} << ", length: " << Num{s.air.length} << ", exponent: " << Num{s.air.exponent}
          << ", ambient_pressure: " << Num{s.air.ambient};
    else
      out << ", stiffness: " << Num{s.stiffness} << ", rest_length: " << Num{s.restLength};
    if (s.hasFriction())
      out << ", interleaf_friction: {force: " << Num{s.frictionForce} << ", slip_velocity: " << Num{s.frictionSlipVelocity} << "}";
    if (s.hasDampingCurve()) {
      const int n = static_cast<int>(s.curveVelocity.size());
      out << ",\n     damping_curve: {velocity: " << List{s.curveVelocity.data(), n} << ", force: "
          << List{s.curveForce.data(), n} << "}";
    }
    if (s.hasBumpStop())
      out << ", bump_stop: {length: " << Num{s.bumpStopLength} << ", stiffness: " << Num{s.bumpStopStiffness} << "}";
    out << "}\n";
  }
  for (const auto& l : model.bodyLoads) {
    out << "  - {name: " << Text{l.name} << ", type: " << (l.torque ? "torque" : "force") << ", body: " << body(l.body);
    if (!l.torque) out << ", point: " << Vec{l.point};
    out << ", direction: " << Vec{l.direction} << ", frame: " << (l.worldFrame ? "world" : "body")
        << ", magnitude: " << l.magnitude.yaml() << "}\n";
  }
  for (const auto& l : model.jointLoads)
    out << "  - {name: " << Text{l.name} << ", type: joint_force, joint: " << joint(l.joint) << ", dof: " << l.dof
        << ", magnitude: " << l.magnitude.yaml() << "}\n";
  for (const auto& p : model.prescribed)
    out << "  - {name: " << Text{p.name} << ", type: prescribed_motion, joint: " << joint(p.joint) << ", dof: " << p.dof
        << ", position: " << p.position.yaml() << "}\n";
  for (const auto& t : model.tyres) {
    out << "  - {name: " << Text{t.name} << ", type: tyre, body: " << body(t.body) << ", centre: " << Vec{t.centre}
        << ", axis: " << Vec{t.axis} << ", radius: " << Num{t.radius} << ", radial_stiffness: " << Num{t.radialStiffness}
        << ", radial_damping: " << Num{t.radialDamping} << ", rolling_resistance: " << Num{t.rollingResistance}
        << ", low_speed: " << Num{t.lowSpeed} << ",\n     magic_formula: {";
    const char* separator = "";
    for (const auto& c : magicFormulaCoefficients()) {
      out << separator << c.name << ": " << Num{t.mf.*c.member};
      separator = ", ";
    }
    out << "}}\n";
  }
}

// The road, when it is not the default flat road at z = 0; a profile as its points (the
// features it was built from are expanded).
void writeRoad(std::ostream& out, const Road& road) {
  switch (road.kind()) {
    case Road::Kind::Flat:
      if (road.flatHeight() != 0.0) out << "road: {type: flat, height: " << Num{road.flatHeight()} << "}\n";
      return;
    case Road::Kind::Profile:
      out << "road:\n  type: profile\n  points:\n";
      for (const auto& p : road.points()) out << "    - [" << Num{p.x} << ", " << Num{p.z} << "]\n";
      return;
    case Road::Kind::HeightMap:
      out << "road:\n  type: height_map\n  origin: [" << Num{road.x0()} << ", " << Num{road.y0()} << "]\n  spacing: ["
          << Num{road.dx()} << ", " << Num{road.dy()} << "]\n  heights:\n";
      for (int j = 0; j < road.ny(); ++j)
        out << "    - " << List{road.heights().data() + static_cast<std::size_t>(j) * road.nx(), road.nx()} << '\n';
      return;
  }
}

void writeMarkers(std::ostream& out, const Model& model) {
  if (!model.markers.empty()) out << "markers:\n";
  for (const auto& m : model.markers)
    out << "  - {name: " << Text{m.name} << ", body: " << Text{model.bodies[static_cast<std::size_t>(m.body)].name}
        << ", position: " << Vec{m.position} << "}\n";
}

void writeSubsystems(std::ostream& out, const Model& model) {
  if (model.subsystems.empty()) return;
  out << "subsystems:\n";
  for (const auto& part : model.subsystems) {
    out << "  - [";
    for (std::size_t k = 0; k < part.size(); ++k)
      out << (k ? ", " : "") << Text{model.bodies[static_cast<std::size_t>(part[k])].name};
    out << "]\n";
  }
}

}  // namespace

void writeModelYaml(const Model& model, std::ostream& out) {
  out << "# Articula model (format: docs/model-format.md)\n"
      << "name: " << Text{model.name} << "\ngravity: " << Vec{model.gravity} << '\n';
  writeBodies(out, model);
  writeJoints(out, model);
  writeLoops(out, model);
  writeForces(out, model);
  writeMarkers(out, model);
  writeRoad(out, model.road);
  writeSubsystems(out, model);
}

}  // namespace articula
