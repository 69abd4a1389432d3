#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "articula/io/yaml_model.hpp"

namespace articula {

namespace {

struct Writer {
  std::ostream& out;

  std::string num(double x) const {
    std::ostringstream s;
    s << std::setprecision(17) << x;
    return s.str();
  }
  std::string vec(const Vec3& v) const { return "[" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + "]"; }
  std::string list(const double* x, int n) const {
    std::string s = "[";
    for (int k = 0; k < n; ++k) s += (k ? ", " : "") + num(x[k]);
    return s + "]";
  }
  // Roll-pitch-yaw of a rotation R = Rz(y) Ry(p) Rx(r).
  Vec3 rpy(const Mat3& R) const {
    const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
    if (std::abs(R(2, 0)) > 1.0 - 1e-12) return {0.0, pitch, std::atan2(-R(0, 1), R(1, 1))};
    return {std::atan2(R(2, 1), R(2, 2)), pitch, std::atan2(R(1, 0), R(0, 0))};
  }
  bool identity(const Mat3& R) const { return (R - Mat3::Identity()).norm() < 1e-15; }
};

}  // namespace

void writeModelYaml(const Model& model, std::ostream& out) {
  Writer w{out};
  out << "# Articula model (docs/model-format.md)\n"
      << "name: " << model.name << "\n"
      << "gravity: " << w.vec(model.gravity) << "\n"
      << "bodies:\n";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Body& b = model.bodies[i];
    const Mat3& I = b.inertiaCom;
    out << "  - name: " << b.name << "\n"
        << "    mass: " << w.num(b.mass) << "\n"
        << "    com: " << w.vec(b.com) << "\n"
        << "    inertia: {ixx: " << w.num(I(0, 0)) << ", iyy: " << w.num(I(1, 1)) << ", izz: " << w.num(I(2, 2))
        << ", ixy: " << w.num(I(0, 1)) << ", ixz: " << w.num(I(0, 2)) << ", iyz: " << w.num(I(1, 2)) << "}\n";
    const Shape& s = b.shape;
    if (s.kind == Shape::Kind::None) continue;
    out << "    shape: {type: ";
    switch (s.kind) {
      case Shape::Kind::Box: out << "box, size: " << w.vec(s.size); break;
      case Shape::Kind::Cylinder: out << "cylinder, radius: " << w.num(s.radius) << ", length: " << w.num(s.length); break;
      case Shape::Kind::Capsule: out << "capsule, radius: " << w.num(s.radius) << ", length: " << w.num(s.length); break;
      case Shape::Kind::Sphere: out << "sphere, radius: " << w.num(s.radius); break;
      case Shape::Kind::None: break;
    }
    out << ", xyz: " << w.vec(s.position);
    if (!w.identity(s.rotation)) out << ", rpy: " << w.vec(w.rpy(s.rotation));
    if (!s.color.empty()) out << ", color: \"" << s.color << "\"";
    out << "}\n";
  }
  out << "joints:\n";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    out << "  - name: " << j.name << "\n"
        << "    type: " << jointTypeName(j.type) << "\n"
        << "    parent: " << model.bodies[j.parent].name << "\n"
        << "    child: " << model.bodies[j.child].name << "\n"
        << "    xyz: " << w.vec(j.placement.r) << "\n";
    const Mat3 R = j.placement.rotationInParent();
    if (!w.identity(R)) out << "    rpy: " << w.vec(w.rpy(R)) << "\n";
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic || j.type == JointType::Cylindrical ||
        j.type == JointType::Universal)
      out << "    axis: " << w.vec(j.axis) << "\n";
    if (j.type == JointType::Universal) out << "    axis2: " << w.vec(j.axis2) << "\n";
    if (j.nq > 0) out << "    q: " << w.list(model.q0.data() + j.iq, j.nq) << "\n";
    if (j.nv > 0) out << "    v: " << w.list(model.v0.data() + j.iv, j.nv) << "\n";
    if (j.nv > 0 && model.lockedInAssembly[static_cast<std::size_t>(j.iv)]) out << "    lock_in_assembly: true\n";
  }
  if (!model.loops.empty()) out << "loops:\n";
  for (const auto& l : model.loops) {
    out << "  - name: " << l.name << "\n"
        << "    type: " << loopTypeName(l.type) << "\n"
        << "    body_a: " << model.bodies[l.bodyA].name << "\n"
        << "    point_a: " << w.vec(l.pointA) << "\n"
        << "    body_b: " << model.bodies[l.bodyB].name << "\n"
        << "    point_b: " << w.vec(l.pointB) << "\n";
    if (l.type == LoopConstraint::Type::Revolute)
      out << "    axis_a: " << w.vec(l.rotationA.col(2)) << "\n    axis_b: " << w.vec(l.rotationB.col(2)) << "\n";
    if (l.type == LoopConstraint::Type::Weld)
      out << "    rpy_a: " << w.vec(w.rpy(l.rotationA)) << "\n    rpy_b: " << w.vec(w.rpy(l.rotationB)) << "\n";
    if (l.type == LoopConstraint::Type::Distance) out << "    distance: " << w.num(l.distance) << "\n";
  }
  const bool anyForce = !model.jointSprings.empty() || !model.pointSprings.empty() || !model.bodyLoads.empty() ||
                        !model.jointLoads.empty() || !model.prescribed.empty();
  if (anyForce) out << "forces:\n";
  for (const auto& s : model.jointSprings)
    out << "  - {name: " << s.name << ", type: joint_spring_damper, joint: " << model.joints[s.joint].name
        << ", dof: " << s.dof << ", stiffness: " << w.num(s.stiffness) << ", damping: " << w.num(s.damping)
        << ", rest: " << w.num(s.restPosition) << "}\n";
  for (const auto& s : model.pointSprings)
    out << "  - {name: " << s.name << ", type: spring_damper, body_a: " << model.bodies[s.bodyA].name
        << ", point_a: " << w.vec(s.pointA) << ", body_b: " << model.bodies[s.bodyB].name << ", point_b: " << w.vec(s.pointB)
        << ", stiffness: " << w.num(s.stiffness) << ", damping: " << w.num(s.damping)
        << ", rest_length: " << w.num(s.restLength) << "}\n";
  for (const auto& l : model.bodyLoads) {
    out << "  - {name: " << l.name << ", type: " << (l.torque ? "torque" : "force") << ", body: " << model.bodies[l.body].name;
    if (!l.torque) out << ", point: " << w.vec(l.point);
    out << ", direction: " << w.vec(l.direction) << ", frame: " << (l.worldFrame ? "world" : "body")
        << ", magnitude: " << l.magnitude.yaml() << "}\n";
  }
  for (const auto& l : model.jointLoads)
    out << "  - {name: " << l.name << ", type: joint_force, joint: " << model.joints[l.joint].name << ", dof: " << l.dof
        << ", magnitude: " << l.magnitude.yaml() << "}\n";
  for (const auto& p : model.prescribed)
    out << "  - {name: " << p.name << ", type: prescribed_motion, joint: " << model.joints[p.joint].name
        << ", dof: " << p.dof << ", position: " << p.position.yaml() << "}\n";
  if (!model.markers.empty()) out << "markers:\n";
  for (const auto& m : model.markers)
    out << "  - {name: " << m.name << ", body: " << model.bodies[m.body].name << ", position: " << w.vec(m.position) << "}\n";
}

}  // namespace articula
