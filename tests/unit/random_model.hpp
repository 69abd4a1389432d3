// Random tree-structured models with every joint type, for property tests.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "articula/model/builder.hpp"

namespace articula::test_models {

namespace detail {
/// Body "b<i>": random mass, centre of mass and a box inertia turned at random.
inline BodySpec randomBody(int i, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  BodySpec body;
  body.name = "b" + std::to_string(i);
  body.mass = 1.0 + 0.5 * u(gen);
  body.com = 0.3 * vec();
  const Mat3 R = Quat(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
  body.inertia =
      R * boxInertia(body.mass, Vec3(0.3 + 0.2 * u(gen), 0.3 + 0.2 * u(gen), 0.3 + 0.2 * u(gen))) * R.transpose();
  return body;
}

/// Parent of body i: a random earlier body, or the ground (always for body 0, else one time in four).
inline std::string randomParent(int i, std::mt19937& gen) {
  std::string parent = i == 0 ? "ground" : "b" + std::to_string(std::uniform_int_distribution<int>(0, i - 1)(gen));
  if (i > 0 && std::uniform_int_distribution<int>(0, 3)(gen) == 0) parent = "ground";
  return parent;
}
}  // namespace detail

/// A random tree of `bodies` bodies whose joint types cycle through `types` (starting at
/// seed % size); parents are chosen at random among earlier bodies, so the tree has branches.
inline ModelBuilder randomTreeOf(int bodies, unsigned seed, const std::vector<JointType>& types) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  const int typeCount = static_cast<int>(types.size());
  ModelBuilder b;
  b.gravity = Vec3(0.3, -9.81, 0.2);
  for (int i = 0; i < bodies; ++i) {
    const BodySpec body = detail::randomBody(i, gen);
    b.addBody(body);

    JointSpec j;
    j.name = "j" + std::to_string(i);
    j.type = types[static_cast<std::size_t>((i + static_cast<int>(seed)) % typeCount)];
    j.parent = detail::randomParent(i, gen);
    j.child = body.name;
    j.position = 0.5 * vec();
    j.rotation = Quat(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
    j.axis = vec().normalized();
    j.axis2 = j.axis.cross(vec()).normalized();
    const int nq = jointNq(j.type), nv = jointNv(j.type);
    j.q0.resize(static_cast<std::size_t>(nq));
    for (auto& x : j.q0) x = u(gen);
    if (j.type == JointType::Spherical) j.q0[0] += 2.0;  // keep the quaternion away from zero
    if (j.type == JointType::Free) j.q0[3] += 2.0;
    j.v0.resize(static_cast<std::size_t>(nv));
    for (auto& x : j.v0) x = 2.0 * u(gen);
    b.addJoint(j);
  }
  return b;
}

/// A random tree with every movable joint type (and fixed joints unless includeFixed is false).
inline ModelBuilder randomTree(int bodies, unsigned seed, bool includeFixed = true) {
  std::vector<JointType> types = {JointType::Revolute,  JointType::Prismatic, JointType::Cylindrical, JointType::Universal,
                                  JointType::Spherical, JointType::Planar,    JointType::Free};
  if (includeFixed) types.push_back(JointType::Fixed);
  return randomTreeOf(bodies, seed, types);
}

/// A random tree whose bodies all move parallel to the x-y plane: revolute joints
/// about +z or -z, prismatic joints along in-plane axes, planar and fixed joints,
/// placements rotated about z only. Inertias, centres of mass, joint heights and
/// gravity keep out-of-plane parts, which must not change the planar dynamics.
inline ModelBuilder randomPlanarTree(int bodies, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  const JointType types[] = {JointType::Revolute, JointType::Prismatic, JointType::Revolute, JointType::Planar,
                             JointType::Fixed};
  ModelBuilder b;
  b.gravity = Vec3(0.3, -9.81, 0.7);
  for (int i = 0; i < bodies; ++i) {
    const BodySpec body = detail::randomBody(i, gen);
    b.addBody(body);

    JointSpec j;
    j.name = "j" + std::to_string(i);
    j.type = types[(i + static_cast<int>(seed)) % 5];
    if (i == 0 && j.type == JointType::Fixed) j.type = JointType::Revolute;  // keep a degree of freedom
    j.parent = detail::randomParent(i, gen);
    j.child = body.name;
    j.position = 0.5 * vec();
    j.rotation = axisAngle(Vec3::UnitZ(), 3.0 * u(gen));
    j.axis =
        j.type == JointType::Prismatic ? Vec3(u(gen), u(gen), 0.0).normalized() : Vec3(0.0, 0.0, i % 2 ? -1.0 : 1.0);
    j.q0.resize(static_cast<std::size_t>(jointNq(j.type)));
    for (auto& x : j.q0) x = u(gen);
    j.v0.resize(static_cast<std::size_t>(jointNv(j.type)));
    for (auto& x : j.v0) x = 2.0 * u(gen);
    b.addJoint(j);
  }
  return b;
}

/// A random tree of revolute joints in the shapes the spatial ABA treats specially:
/// axes along +-x, +-y, +-z (every fifth a general axis), joint frames unrotated on
/// even bodies, central inertias diagonal in body axes on every other body. Not
/// planar, so forwardDynamics runs the 6D kernel.
inline ModelBuilder randomRevoluteTree(int bodies, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  ModelBuilder b;
  b.gravity = Vec3(0.3, -9.81, 0.2);
  for (int i = 0; i < bodies; ++i) {
    BodySpec body = detail::randomBody(i, gen);
    if (i % 2 == 0) body.inertia = Mat3(body.inertia.diagonal().asDiagonal());
    b.addBody(body);

    JointSpec j;
    j.name = "j" + std::to_string(i);
    j.type = JointType::Revolute;
    j.parent = detail::randomParent(i, gen);
    j.child = body.name;
    j.position = 0.5 * vec();
    if (i % 2 == 1) j.rotation = Quat(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
    j.axis = Vec3::Zero();
    j.axis[(i + static_cast<int>(seed)) % 3] = (i / 3) % 2 ? -1.0 : 1.0;
    if (i % 5 == 4) j.axis = vec().normalized();
    j.q0 = {3.0 * u(gen)};
    j.v0 = {2.0 * u(gen)};
    b.addJoint(j);
  }
  return b;
}

/// randomTree with joint springs and joint loads on scalar joints (universal joints only with
/// `universalJointElements`: natural coordinates do not map them), point springs between bodies
/// (and the ground), body forces and torques fixed in the world or in the body (those last two
/// only with `bodyElements`).
inline Model randomTreeWithForceElements(int bodies, unsigned seed, bool universalJointElements = true,
                                         bool bodyElements = true) {
  ModelBuilder b = randomTree(bodies, seed);
  const Model bare = b.build();
  std::mt19937 gen(seed + 1000);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  auto body = [&](int k) { return k < 0 ? std::string("ground") : "b" + std::to_string(k); };
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (j.nv == 0 || !jointHasScalarCoordinates(j.type)) continue;
    if (j.type == JointType::Universal && !universalJointElements) continue;
    JointSpringSpec s;
    s.name = "spring_" + j.name, s.joint = j.name, s.dof = i % j.nv;
    s.stiffness = 20.0 + 10.0 * u(gen), s.damping = 1.0 + u(gen), s.restPosition = u(gen);
    b.addJointSpring(s);
    JointLoadSpec l;
    l.name = "load_" + j.name, l.joint = j.name, l.dof = (i + 1) % j.nv;
    l.magnitude = TimeFunction::sine(2.0, 1.5, u(gen), u(gen));
    b.addJointLoad(l);
  }
  std::uniform_int_distribution<int> pick(-1, bodies - 1);
  for (int k = 0; bodyElements && k < bodies; ++k) {
    PointSpringSpec s;
    s.name = "ps" + std::to_string(k), s.bodyA = body(k), s.bodyB = body(pick(gen));
    if (s.bodyB == s.bodyA) s.bodyB = "ground";
    s.pointA = 0.3 * vec(), s.pointB = 0.3 * vec();
    s.stiffness = 50.0 + 20.0 * u(gen), s.damping = 2.0 + u(gen), s.restLength = 0.2 + 0.1 * u(gen);
    b.addPointSpring(s);
    BodyLoadSpec l;
    l.name = "bl" + std::to_string(k), l.body = body(k);
    l.torque = k % 2 == 1, l.worldFrame = k % 3 != 0;
    l.point = 0.3 * vec(), l.direction = vec().normalized();
    l.magnitude = TimeFunction::sine(5.0, 0.7, u(gen), u(gen));
    b.addBodyLoad(l);
  }
  return b.build();
}

// A free-floating base with two arms and a tail: a spherical-revolute arm, a universal-prismatic
// arm and a cylindrical tail, all hanging from the base body.
inline Model floatingBase() {
  std::mt19937 gen(7);
  ModelBuilder b;
  b.gravity = Vec3(0.0, 0.0, -9.81);
  const char* names[] = {"base", "shoulder", "elbow", "hip", "knee", "tail"};
  for (int i = 0; i < 6; ++i) {
    BodySpec body = detail::randomBody(i, gen);
    body.name = names[i];
    b.addBody(body);
  }
  auto joint = [&](const char* name, JointType type, const char* parent, const char* child, Vec3 position,
                   std::vector<double> q0, std::vector<double> v0) {
    JointSpec j;
    j.name = name, j.type = type, j.parent = parent, j.child = child, j.position = position;
    j.axis = Vec3(0.3, 0.4, 0.5).normalized(), j.axis2 = Vec3(0.0, 1.0, 0.0);
    j.q0 = std::move(q0), j.v0 = std::move(v0);
    b.addJoint(j);
  };
  joint("float", JointType::Free, "ground", "base", Vec3::Zero(), {0.1, 0.2, 1.0, 0.9, 0.1, -0.3, 0.2},
        {0.5, -0.4, 0.3, 0.2, 0.1, -0.6});
  joint("s", JointType::Spherical, "base", "shoulder", Vec3(0.3, 0.0, 0.0), {0.8, 0.3, -0.2, 0.1}, {1.0, -0.5, 0.7});
  joint("e", JointType::Revolute, "shoulder", "elbow", Vec3(0.4, 0.1, 0.0), {0.6}, {-1.2});
  joint("h", JointType::Universal, "base", "hip", Vec3(-0.3, 0.0, -0.1), {0.2, -0.4}, {0.3, 0.9});
  joint("k", JointType::Prismatic, "hip", "knee", Vec3(0.0, 0.0, -0.4), {0.15}, {0.4});
  joint("t", JointType::Cylindrical, "base", "tail", Vec3(0.0, -0.3, 0.0), {0.5, 0.05}, {0.8, -0.2});
  return b.build();
}

/// A random tree of the joints and force elements that the reverse-mode adjoint differentiates
/// (dynamics/forward_dynamics_adjoint.hpp): by default revolute, prismatic, cylindrical, universal,
/// planar and fixed joints, each movable one with a spring, friction, a load on its body and a
/// spring-damper to an earlier body or the ground; every second one with an end stop that acts
/// at q0.
inline ModelBuilder adjointTree(int bodies, unsigned seed,
                                const std::vector<JointType>& types = {JointType::Revolute, JointType::Prismatic,
                                                                       JointType::Cylindrical, JointType::Universal,
                                                                       JointType::Planar, JointType::Fixed}) {
  ModelBuilder b = randomTreeOf(bodies, seed, types);
  const Model bare = b.build();
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (j.nv == 0) continue;
    const double q = bare.q0[j.iq];
    b.addJointSpring({"spring_" + j.name, j.name, 0, 15.0 + i, 0.7, 0.2, {}});
    if (i % 2 == 0)  // an end stop that the initial coordinate has passed (it acts at q0)
      b.addJointLimit({"stop_" + j.name, j.name, 0, q - 2.0, q - 0.1, 400.0, 3.0, {}});
    b.addJointFriction({"friction_" + j.name, j.name, j.nv - 1, 0.8, 0.5, {}});
    // Loads on bodies: forces and torques, fixed in world axes or in the body, in turn.
    BodyLoadSpec l;
    l.name = "load_" + j.name, l.body = "b" + std::to_string(i - 1);
    l.torque = i % 2 == 0, l.worldFrame = i % 3 != 0;
    l.point = Vec3(0.1 * i, -0.2, 0.3), l.direction = Vec3(1.0, 0.5 * i, -0.3).normalized();
    l.magnitude = TimeFunction::sine(3.0, 1.5, 0.2 * i, 0.5);
    b.addBodyLoad(l);
    // A spring-damper from this body to an earlier one or to the ground, some with a bump stop.
    PointSpringSpec spring;
    spring.name = "spring_to_" + j.name, spring.bodyA = i % 3 == 0 ? "ground" : "b" + std::to_string((i - 1) / 2);
    spring.bodyB = "b" + std::to_string(i - 1);
    if (spring.bodyA == spring.bodyB) spring.bodyA = "ground";
    spring.pointA = Vec3(0.2, 0.1 * i, -0.1), spring.pointB = Vec3(-0.1, 0.2, 0.05 * i);
    spring.stiffness = 40.0 + i, spring.damping = 1.5, spring.restLength = 0.3;
    spring.bumpStopLength = i % 2 == 0 ? 5.0 : 0.0, spring.bumpStopStiffness = 200.0;
    b.addPointSpring(spring);
  }
  return b;
}

}  // namespace articula::test_models
