#include "articula/model/builder.hpp"

#include "articula/model/subsystems.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace articula {

bool isGroundName(std::string_view name) { return name == "ground" || name == "world"; }

Mat3 boxInertia(double mass, const Vec3& e) {
  const Vec3 s = e.cwiseProduct(e);
  return (mass / 12.0) * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal().toDenseMatrix();
}

Vec3 boxEdges(double mass, const Vec3& I) {
  Vec3 edges;
  for (int i = 0; i < 3; ++i) edges[i] = std::sqrt(std::max(0.0, 6.0 * (I.sum() - 2.0 * I[i]) / mass));
  return edges;
}

Mat3 frameWithZ(const Vec3& z) {
  const Vec3 helper = std::abs(z.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 x = (helper - z * z.dot(helper)).normalized();
  Mat3 R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

Shape boxShape(const Vec3& edges, const Vec3& centre, const std::string& color) {
  Shape s;
  s.kind = Shape::Kind::Box;
  s.size = edges;
  s.position = centre;
  s.color = color;
  return s;
}

ModelBuilder& ModelBuilder::addBody(BodySpec s) { bodies_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addJoint(JointSpec s) { joints_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addLoop(LoopSpec s) { loops_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addSubsystem(SubsystemSpec s) { subsystems_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addJointSpring(JointSpringSpec s) { jointSprings_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addJointLimit(JointLimitSpec s) { jointLimits_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addJointFriction(JointFrictionSpec s) { jointFrictions_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addPointSpring(PointSpringSpec s) { pointSprings_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addBodyLoad(BodyLoadSpec s) { bodyLoads_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addJointLoad(JointLoadSpec s) { jointLoads_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addPrescribedMotion(PrescribedMotionSpec s) { prescribed_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addTyre(TyreSpec s) { tyres_.push_back(std::move(s)); return *this; }
ModelBuilder& ModelBuilder::addMarker(MarkerSpec s) { markers_.push_back(std::move(s)); return *this; }

namespace {

std::string label(const char* kind, const std::string& name) { return std::string(kind) + " '" + name + "'"; }

bool finite(const Vec3& v) { return v.allFinite(); }

[[noreturn]] void fail(const SourceLocation& where, const std::string& element, const std::string& what) {
  throw ModelError(where, element, what);
}

// The subsystems of the distributed formulation: names to indices, then the partition checks of
// model/subsystems.hpp, each reported where the offending entry was written.
void readSubsystems(Model& model, const std::vector<SubsystemSpec>& specs) {
  if (specs.empty()) return;
  auto entryWhere = [&](std::size_t s, int e) {
    const SubsystemSpec& spec = specs[s];
    return e >= 0 && static_cast<std::size_t>(e) < spec.bodyWhere.size() ? spec.bodyWhere[static_cast<std::size_t>(e)]
                                                                            : spec.where;
  };
  std::vector<std::vector<int>> parts;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const std::string el = "subsystem " + std::to_string(s + 1);
    parts.emplace_back();
    for (std::size_t e = 0; e < specs[s].bodies.size(); ++e) {
      const std::string& name = specs[s].bodies[e];
      const auto body = model.findBody(name);
      if (!body || *body == 0)
        fail(entryWhere(s, static_cast<int>(e)), el,
             body ? "the ground belongs to no subsystem" : "body '" + name + "' is not defined");
      parts.back().push_back(*body);
    }
  }
  if (const auto problem = findPartitionProblem(model, parts))
    fail(entryWhere(static_cast<std::size_t>(problem->subsystem), problem->entry),
         "subsystem " + std::to_string(problem->subsystem + 1), problem->message);
  for (auto& part : parts) std::sort(part.begin(), part.end());
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  model.subsystems = std::move(parts);
}

void requireName(const SourceLocation& where, const char* kind, const std::string& name) {
  if (name.empty()) fail(where, kind, "missing name");
}

template <class Spec>
void requireUniqueNames(const std::vector<Spec>& specs, const char* kind) {
  std::map<std::string, const Spec*> seen;
  for (const auto& s : specs) {
    requireName(s.where, kind, s.name);
    auto [it, inserted] = seen.emplace(s.name, &s);
    if (!inserted) {
      std::string first = it->second->where.line > 0 ? " (first defined at line " + std::to_string(it->second->where.line) + ")" : "";
      fail(s.where, label(kind, s.name), "duplicate name" + first);
    }
  }
}

Vec3 unitAxis(const Vec3& axis, const SourceLocation& where, const std::string& element, const char* what) {
  if (!finite(axis)) fail(where, element, std::string(what) + " has a non-finite component");
  // Huge components are scaled down first: the norm of an axis such as [1e308, 0, 0] would
  // overflow to infinity and normalise it to zero. (Only then: ordinary axes keep their bits.)
  const double largest = axis.cwiseAbs().maxCoeff();
  const Vec3 a = largest > 1e150 ? Vec3(axis / largest) : axis;
  const double n = a.norm();
  if (largest < 1e-12 || n < 1e-12) fail(where, element, std::string(what) + " has zero length");
  return a / n;
}

bool isRotation(const Mat3& R) {
  return R.allFinite() && (R.transpose() * R - Mat3::Identity()).norm() < 1e-9 && R.determinant() > 0.0;
}

void validateInertia(const BodySpec& b, const std::string& element) {
  if (!std::isfinite(b.mass)) fail(b.where, element, "mass is not a finite number");
  if (b.mass <= 0.0) fail(b.where, element, "mass must be positive (got " + std::to_string(b.mass) + ")");
  if (!finite(b.com)) fail(b.where, element, "centre of mass has a non-finite component");
  if (!b.inertia.allFinite()) fail(b.where, element, "inertia has a non-finite component");
  const double scale = std::max(b.inertia.cwiseAbs().maxCoeff(), 1e-300);
  if ((b.inertia - b.inertia.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale)
    fail(b.where, element, "inertia tensor is not symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia);
  const Vec3 p = eig.eigenvalues();  // ascending
  if (p(0) <= 0.0) fail(b.where, element, "inertia tensor is not positive definite (smallest principal moment " + std::to_string(p(0)) + ")");
  // A real mass distribution has I1 + I2 >= I3 for its principal moments.
  if (p(0) + p(1) < p(2) * (1.0 - 1e-9))
    fail(b.where, element, "principal moments of inertia violate the triangle inequality (" + std::to_string(p(0)) + " + " +
                               std::to_string(p(1)) + " < " + std::to_string(p(2)) + ")");
}

}  // namespace

Model ModelBuilder::build() const {
  Model model;
  model.name = name;
  model.warnings = warnings;
  if (!finite(gravity)) fail(where, "gravity", "has a non-finite component");
  model.gravity = gravity;

  requireUniqueNames(bodies_, "body");
  requireUniqueNames(joints_, "joint");
  requireUniqueNames(loops_, "loop");
  requireUniqueNames(markers_, "marker");
  for (const auto& b : bodies_)
    if (isGroundName(b.name)) fail(b.where, label("body", b.name), "'" + b.name + "' is reserved for the fixed ground frame");
  for (const auto& b : bodies_) validateInertia(b, label("body", b.name));

  std::map<std::string, std::size_t> bodyIndex;  // name -> index in bodies_
  for (std::size_t i = 0; i < bodies_.size(); ++i) bodyIndex[bodies_[i].name] = i;

  // Each body has exactly one parent joint.
  std::map<std::string, const JointSpec*> parentJoint;
  for (const auto& j : joints_) {
    const std::string el = label("joint", j.name);
    if (j.child.empty()) fail(j.where, el, "missing child body");
    if (j.parent.empty()) fail(j.where, el, "missing parent body");
    if (isGroundName(j.child)) fail(j.where, el, "the ground cannot be a child body");
    if (!bodyIndex.count(j.child)) fail(j.where, el, "child body '" + j.child + "' is not defined");
    if (!isGroundName(j.parent) && !bodyIndex.count(j.parent)) fail(j.where, el, "parent body '" + j.parent + "' is not defined");
    if (j.parent == j.child) fail(j.where, el, "joins body '" + j.child + "' to itself");
    auto [it, inserted] = parentJoint.emplace(j.child, &j);
    if (!inserted)
      fail(j.where, el, "body '" + j.child + "' has two parents (joint '" + it->second->name + "' already attaches it); close loops with a 'loops' entry instead");
  }
  for (const auto& b : bodies_)
    if (!parentJoint.count(b.name))
      fail(b.where, label("body", b.name), "is not attached to anything: add a joint with this body as child (type 'free' for a floating body)");

  // Walk from each joint's child towards the ground; revisiting a body on the same walk
  // means a cycle. Bodies already known to reach the ground end a walk early, so the
  // whole check is linear in the number of bodies.
  std::map<std::string, int> walkState;  // absent: not visited, 1: on the current walk, 2: reaches the ground
  std::vector<std::string> walk;
  for (const auto& j : joints_) {
    walk.clear();
    std::string at = j.child;
    while (!isGroundName(at) && walkState[at] != 2) {
      if (walkState[at] == 1)
        fail(j.where, label("joint", j.name), "closes a cycle in the tree through body '" + at + "'; cut the loop with a 'loops' entry instead");
      walkState[at] = 1;
      walk.push_back(at);
      at = parentJoint.at(at)->parent;
    }
    for (const auto& b : walk) walkState[b] = 2;
  }

  // Breadth-first order from the ground: parents before children, siblings in file order.
  model.bodies.push_back(Body{"ground", 0.0, Vec3::Zero(), Mat3::Zero(), SpatialInertia(), groundShapes});
  model.joints.push_back(Joint{"", JointType::Fixed, -1, 0, Transform(), Vec3::UnitZ(), Vec3::UnitY(), 0, 0, 0, 0});
  std::map<std::string, int> index{{"ground", 0}, {"world", 0}};
  std::map<std::string, std::vector<const JointSpec*>> childJoints;  // parent name ("ground" for both spellings)
  for (const auto& j : joints_) childJoints[isGroundName(j.parent) ? std::string("ground") : j.parent].push_back(&j);
  std::vector<const JointSpec*> order;
  for (std::size_t k = 0; k <= order.size(); ++k) {  // `order` grows while it is walked
    const std::string parent = k == 0 ? std::string("ground") : order[k - 1]->child;
    const auto it = childJoints.find(parent);
    if (it != childJoints.end()) order.insert(order.end(), it->second.begin(), it->second.end());
  }

  std::vector<double> q0, v0;
  for (const JointSpec* js : order) {
    const std::string el = label("joint", js->name);
    const BodySpec& bs = bodies_[bodyIndex.at(js->child)];
    const int child = static_cast<int>(model.bodies.size());
    index[bs.name] = child;

    Body body;
    body.name = bs.name;
    body.mass = bs.mass;
    body.com = bs.com;
    body.inertiaCom = bs.inertia;
    body.inertia = SpatialInertia::fromMassComInertia(bs.mass, bs.com, bs.inertia);
    // Finite mass, centre and inertia can still overflow m c c^T about the body origin.
    if (!body.inertia.matrix().allFinite())
      fail(bs.where, label("body", bs.name), "the centre of mass is too far from the body frame: its inertia about the origin overflows");
    body.shapes = bs.shapes;
    model.bodies.push_back(body);

    Joint joint;
    joint.name = js->name;
    joint.type = js->type;
    joint.parent = index.at(js->parent);
    joint.child = child;
    if (!finite(js->position)) fail(js->where, el, "position has a non-finite component");
    if (!isRotation(js->rotation)) fail(js->where, el, "orientation is not a proper rotation");
    joint.placement = Transform::fromPose(js->rotation, js->position);
    const bool usesAxis = js->type == JointType::Revolute || js->type == JointType::Prismatic ||
                          js->type == JointType::Cylindrical || js->type == JointType::Universal;
    if (usesAxis) joint.axis = unitAxis(js->axis, js->where, el, "axis");
    if (js->type == JointType::Universal) {
      joint.axis2 = unitAxis(js->axis2, js->where, el, "second axis");
      if (joint.axis.cross(joint.axis2).norm() < 1e-6) fail(js->where, el, "the two universal-joint axes are parallel");
    }
    joint.nq = jointNq(js->type);
    joint.nv = jointNv(js->type);
    joint.iq = model.nq;
    joint.iv = model.nv;
    model.nq += joint.nq;
    model.nv += joint.nv;

    std::vector<double> q(static_cast<std::size_t>(joint.nq));
    jointNeutral(joint, q.data());
    if (!js->q0.empty()) {
      if (static_cast<int>(js->q0.size()) != joint.nq)
        fail(js->where, el, "initial position needs " + std::to_string(joint.nq) + " values for a " +
                                std::string(jointTypeName(js->type)) + " joint, got " + std::to_string(js->q0.size()));
      for (double x : js->q0)
        if (!std::isfinite(x)) fail(js->where, el, "initial position is not finite");
      q = js->q0;
      const int quat = js->type == JointType::Spherical ? 0 : js->type == JointType::Free ? 3 : -1;
      if (quat >= 0) {
        // Huge components are scaled down first, so that the squared norm cannot overflow.
        double largest = 0.0;
        for (int k = 0; k < 4; ++k) largest = std::max(largest, std::abs(q[static_cast<std::size_t>(quat + k)]));
        if (largest > 1e150)
          for (int k = 0; k < 4; ++k) q[static_cast<std::size_t>(quat + k)] /= largest;
        double n = 0.0;
        for (int k = 0; k < 4; ++k) n += q[static_cast<std::size_t>(quat + k)] * q[static_cast<std::size_t>(quat + k)];
        if (n < 1e-12) fail(js->where, el, "initial quaternion has zero length");
        jointNormalize(joint, q.data());
      }
    }
    if (!js->v0.empty() && static_cast<int>(js->v0.size()) != joint.nv)
      fail(js->where, el, "initial velocity needs " + std::to_string(joint.nv) + " values for a " +
                              std::string(jointTypeName(js->type)) + " joint, got " + std::to_string(js->v0.size()));
    for (double x : js->v0)
      if (!std::isfinite(x)) fail(js->where, el, "initial velocity is not finite");
    q0.insert(q0.end(), q.begin(), q.end());
    for (int k = 0; k < joint.nv; ++k) {
      v0.push_back(js->v0.empty() ? 0.0 : js->v0[static_cast<std::size_t>(k)]);
      model.lockedInAssembly.push_back(js->lockedInAssembly);
    }
    model.joints.push_back(joint);
  }
  model.q0 = Eigen::Map<const Eigen::VectorXd>(q0.data(), static_cast<Eigen::Index>(q0.size()));
  model.v0 = Eigen::Map<const Eigen::VectorXd>(v0.data(), static_cast<Eigen::Index>(v0.size()));

  auto bodyRef = [&](const std::string& n, const SourceLocation& w, const std::string& el, const char* role) {
    if (n.empty()) fail(w, el, std::string("missing ") + role);
    auto it = index.find(n);
    if (it == index.end()) fail(w, el, std::string(role) + " '" + n + "' is not defined");
    return it->second;
  };
  auto jointRef = [&](const std::string& n, int dof, const SourceLocation& w, const std::string& el) {
    if (n.empty()) fail(w, el, "missing joint");
    auto j = model.findJoint(n);
    if (!j) fail(w, el, "joint '" + n + "' is not defined");
    const Joint& jt = model.joints[static_cast<std::size_t>(*j)];
    if (!jointHasScalarCoordinates(jt.type))
      fail(w, el, "joint '" + n + "' is a " + std::string(jointTypeName(jt.type)) + " joint; only joints with scalar coordinates (revolute, prismatic, cylindrical, universal, planar) are allowed here");
    if (dof < 0 || dof >= jt.nv) fail(w, el, "dof " + std::to_string(dof) + " is out of range for joint '" + n + "' (0.." + std::to_string(jt.nv - 1) + ")");
    return *j;
  };

  for (const auto& l : loops_) {
    const std::string el = label("loop", l.name);
    LoopConstraint c;
    c.name = l.name;
    c.type = l.type;
    c.bodyA = bodyRef(l.bodyA, l.where, el, "body_a");
    c.bodyB = bodyRef(l.bodyB, l.where, el, "body_b");
    if (c.bodyA == c.bodyB) fail(l.where, el, "connects body '" + l.bodyA + "' to itself");
    if (!finite(l.pointA) || !finite(l.pointB)) fail(l.where, el, "a point has a non-finite component");
    c.pointA = l.pointA;
    c.pointB = l.pointB;
    if (l.type == LoopConstraint::Type::Revolute) {
      c.rotationA = frameWithZ(unitAxis(l.axisA, l.where, el, "axis_a"));
      c.rotationB = frameWithZ(unitAxis(l.axisB, l.where, el, "axis_b"));
    } else if (l.type == LoopConstraint::Type::Weld) {
      if (!isRotation(l.rotationA) || !isRotation(l.rotationB)) fail(l.where, el, "frame orientation is not a proper rotation");
      c.rotationA = l.rotationA;
      c.rotationB = l.rotationB;
    } else if (l.type == LoopConstraint::Type::Distance) {
      if (!std::isfinite(l.distance) || l.distance <= 0.0) fail(l.where, el, "distance must be a positive number");
      c.distance = l.distance;
    }
    model.loops.push_back(c);
  }

  auto nonNegative = [&](double x, const SourceLocation& w, const std::string& el, const char* what) {
    if (!std::isfinite(x)) fail(w, el, std::string(what) + " is not a finite number");
    if (x < 0.0) fail(w, el, std::string(what) + " must not be negative");
    return x;
  };
  for (const auto& s : jointSprings_) {
    const std::string el = label("joint spring", s.name);
    JointSpringDamper e;
    e.name = s.name;
    e.joint = jointRef(s.joint, s.dof, s.where, el);
    e.dof = s.dof;
    e.stiffness = nonNegative(s.stiffness, s.where, el, "stiffness");
    e.damping = nonNegative(s.damping, s.where, el, "damping");
    if (!std::isfinite(s.restPosition)) fail(s.where, el, "rest position is not a finite number");
    e.restPosition = s.restPosition;
    e.reference = s.reference;
    model.jointSprings.push_back(e);
  }
  for (const auto& s : jointLimits_) {
    const std::string el = label("joint limit", s.name);
    JointLimit e;
    e.name = s.name;
    e.joint = jointRef(s.joint, s.dof, s.where, el);
    e.dof = s.dof;
    if (!std::isfinite(s.lower) || !std::isfinite(s.upper)) fail(s.where, el, "lower and upper must be finite numbers");
    if (!(s.lower <= s.upper)) fail(s.where, el, "lower must not exceed upper");
    e.lower = s.lower;
    e.upper = s.upper;
    e.stiffness = nonNegative(s.stiffness, s.where, el, "stiffness");
    if (e.stiffness == 0.0) fail(s.where, el, "stiffness must be positive: it is what holds the joint in its range");
    e.damping = nonNegative(s.damping, s.where, el, "damping");
    model.jointLimits.push_back(e);
  }
  for (const auto& s : jointFrictions_) {
    const std::string el = label("joint friction", s.name);
    JointFriction e;
    e.name = s.name;
    e.joint = jointRef(s.joint, s.dof, s.where, el);
    e.dof = s.dof;
    e.force = nonNegative(s.force, s.where, el, "friction force");
    if (!std::isfinite(s.slipVelocity) || s.slipVelocity <= 0.0) fail(s.where, el, "slip velocity must be positive");
    e.slipVelocity = s.slipVelocity;
    model.jointFrictions.push_back(e);
  }
  for (const auto& s : pointSprings_) {
    const std::string el = label("spring", s.name);
    PointSpringDamper e;
    e.name = s.name;
    e.bodyA = bodyRef(s.bodyA, s.where, el, "body_a");
    e.bodyB = bodyRef(s.bodyB, s.where, el, "body_b");
    if (!finite(s.pointA) || !finite(s.pointB)) fail(s.where, el, "a point has a non-finite component");
    e.pointA = s.pointA;
    e.pointB = s.pointB;
    e.stiffness = nonNegative(s.stiffness, s.where, el, "stiffness");
    e.damping = nonNegative(s.damping, s.where, el, "damping");
    e.restLength = nonNegative(s.restLength, s.where, el, "rest length");
    if (!s.curveVelocity.empty() || !s.curveForce.empty()) {
      if (e.damping != 0.0) fail(s.where, el, "give either damping or a damping curve, not both");
      if (s.curveVelocity.size() < 2 || s.curveVelocity.size() != s.curveForce.size())
        fail(s.where, el, "the damping curve needs at least two points and as many forces as velocities");
      for (std::size_t k = 0; k < s.curveVelocity.size(); ++k) {
        if (!std::isfinite(s.curveVelocity[k]) || !std::isfinite(s.curveForce[k]))
          fail(s.where, el, "the damping curve has a value that is not a finite number");
        if (k > 0 && !(s.curveVelocity[k] > s.curveVelocity[k - 1]))
          fail(s.where, el, "the damping curve's velocities must be strictly increasing");
      }
      e.curveVelocity = s.curveVelocity;
      e.curveForce = s.curveForce;
    }
    if (s.bumpStopStiffness != 0.0 || s.bumpStopLength != 0.0) {
      e.bumpStopLength = nonNegative(s.bumpStopLength, s.where, el, "bump stop length");
      e.bumpStopStiffness = nonNegative(s.bumpStopStiffness, s.where, el, "bump stop stiffness");
      if (e.bumpStopStiffness == 0.0) fail(s.where, el, "bump stop stiffness must be positive");
    }
    if (s.air.area != 0.0) {
      auto positive = [&](double x, const char* what) {
        if (!std::isfinite(x) || x <= 0.0) fail(s.where, el, std::string("air spring ") + what + " must be positive");
        return x;
      };
      e.air.area = positive(s.air.area, "area");
      e.air.volume = positive(s.air.volume, "volume");
      e.air.exponent = positive(s.air.exponent, "polytropic exponent");
      e.air.pressure = positive(s.air.pressure, "absolute pressure (gauge pressure plus ambient)");
      e.air.ambient = nonNegative(s.air.ambient, s.where, el, "ambient pressure");
      e.air.length = nonNegative(s.air.length, s.where, el, "air spring design length");
    }
    if (s.frictionForce != 0.0) {
      e.frictionForce = nonNegative(s.frictionForce, s.where, el, "friction force");
      if (!std::isfinite(s.frictionSlipVelocity) || s.frictionSlipVelocity <= 0.0)
        fail(s.where, el, "friction slip velocity must be positive");
      e.frictionSlipVelocity = s.frictionSlipVelocity;
    }
    model.pointSprings.push_back(e);
  }
  for (const auto& s : bodyLoads_) {
    const std::string el = label(s.torque ? "torque" : "force", s.name);
    BodyLoad e;
    e.name = s.name;
    e.body = bodyRef(s.body, s.where, el, "body");
    if (e.body == 0) fail(s.where, el, "cannot act on the ground");
    e.torque = s.torque;
    e.worldFrame = s.worldFrame;
    if (!finite(s.point)) fail(s.where, el, "point has a non-finite component");
    e.point = s.point;
    e.direction = unitAxis(s.direction, s.where, el, "direction");
    e.magnitude = s.magnitude;
    model.bodyLoads.push_back(e);
  }
  for (const auto& s : jointLoads_) {
    const std::string el = label("joint load", s.name);
    model.jointLoads.push_back(JointLoad{s.name, jointRef(s.joint, s.dof, s.where, el), s.dof, s.magnitude});
  }
  std::set<std::pair<int, int>> prescribedDofs;
  for (const auto& s : prescribed_) {
    const std::string el = label("prescribed motion", s.name);
    const int j = jointRef(s.joint, s.dof, s.where, el);
    if (!prescribedDofs.insert({j, s.dof}).second) fail(s.where, el, "joint '" + s.joint + "' dof " + std::to_string(s.dof) + " is already prescribed");
    model.prescribed.push_back(PrescribedMotion{s.name, j, s.dof, s.position});
  }
  model.road = road;
  for (const auto& s : tyres_) {
    const std::string el = label("tyre", s.name);
    Tyre e;
    e.name = s.name;
    e.body = bodyRef(s.body, s.where, el, "body");
    if (e.body == 0) fail(s.where, el, "cannot act on the ground: name the wheel body");
    // The road is z up (road.hpp): a model whose gravity has a horizontal part (the default
    // [0, -9.81, 0] of the y-up mechanism models) would drive its wheels sideways.
    if (gravity.x() != 0.0 || gravity.y() != 0.0)
      fail(s.where, el, "tyres roll on a z-up road: gravity must point along -z, e.g. [0, 0, -9.81]");
    if (!finite(s.centre)) fail(s.where, el, "centre has a non-finite component");
    e.centre = s.centre;
    e.axis = unitAxis(s.axis, s.where, el, "axis");
    if (!std::isfinite(s.radius) || s.radius <= 0.0) fail(s.where, el, "radius must be positive");
    e.radius = s.radius;
    if (!std::isfinite(s.radialStiffness) || s.radialStiffness <= 0.0) fail(s.where, el, "radial stiffness must be positive");
    e.radialStiffness = s.radialStiffness;
    e.radialDamping = nonNegative(s.radialDamping, s.where, el, "radial damping");
    e.rollingResistance = nonNegative(s.rollingResistance, s.where, el, "rolling resistance");
    if (!std::isfinite(s.lowSpeed) || s.lowSpeed <= 0.0) fail(s.where, el, "low speed must be positive");
    e.lowSpeed = s.lowSpeed;
    if (const std::string problem = magicFormulaProblem(s.mf); !problem.empty()) fail(s.where, el, "magic formula: " + problem);
    e.mf = s.mf;
    model.tyres.push_back(e);
  }
  for (const auto& s : markers_) {
    const std::string el = label("marker", s.name);
    if (!finite(s.position)) fail(s.where, el, "position has a non-finite component");
    model.markers.push_back(Marker{s.name, bodyRef(s.body, s.where, el, "body"), s.position});
  }
  readSubsystems(model, subsystems_);
  return model;
}

}  // namespace articula
