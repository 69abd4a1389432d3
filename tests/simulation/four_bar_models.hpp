// The four-bar of models/four_bar.yaml built in code, with two choices of cut joint.
#pragma once

#include <cmath>
#include <numbers>

#include "articula/model/builder.hpp"

namespace articula::test_models {

inline BodySpec bar(const std::string& name, double length) {
  BodySpec b;
  b.name = name;
  b.mass = length;  // 1 kg/m
  b.com = Vec3(0.5 * length, 0.0, 0.0);
  b.inertia = boxInertia(b.mass, Vec3(length, 0.02, 0.02));
  return b;
}

inline JointSpec pin(const std::string& name, const std::string& parent, const std::string& child, const Vec3& at,
                     double q, bool locked = false) {
  JointSpec j;
  j.name = name;
  j.type = JointType::Revolute;
  j.parent = parent;
  j.child = child;
  j.position = at;
  j.q0 = {q};
  j.lockedInAssembly = locked;
  return j;
}

inline LoopSpec revoluteLoop(const std::string& name, const std::string& bodyA, const Vec3& pointA,
                             const std::string& bodyB, const Vec3& pointB) {
  LoopSpec l;
  l.name = name;
  l.type = LoopConstraint::Type::Revolute;
  l.bodyA = bodyA;
  l.pointA = pointA;
  l.bodyB = bodyB;
  l.pointB = pointB;
  return l;
}

/// Cut at C: crank on ground at A, coupler on the crank tip, rocker on ground at D; the
/// loop closes the coupler tip onto the rocker tip. Angles are rough guesses for assembly.
inline ModelBuilder fourBarCutAtC() {
  ModelBuilder b;
  b.name = "four_bar_cut_C";
  b.addBody(bar("crank", 0.5)).addBody(bar("coupler", 1.2)).addBody(bar("rocker", 0.8));
  b.addJoint(pin("A", "ground", "crank", Vec3::Zero(), std::numbers::pi / 3, true));
  b.addJoint(pin("B", "crank", "coupler", Vec3(0.5, 0, 0), -0.84));
  b.addJoint(pin("D", "ground", "rocker", Vec3(1, 0, 0), 1.01));
  b.addLoop(revoluteLoop("C", "coupler", Vec3(1.2, 0, 0), "rocker", Vec3(0.8, 0, 0)));
  return b;
}

/// The four-bar cut at C with a point spring-damper from the coupler to the ground: a force
/// element whose K and C the finite-difference tangents must find.
inline Model fourBarWithShock() {
  ModelBuilder b = fourBarCutAtC();
  PointSpringSpec s;
  s.name = "shock", s.bodyA = "coupler", s.pointA = Vec3(0.6, 0, 0), s.bodyB = "ground", s.pointB = Vec3(0.5, -0.5, 0);
  s.stiffness = 400.0, s.damping = 5.0, s.restLength = 1.0;
  b.addPointSpring(s);
  return b.build();
}

/// Cut at B: crank on ground at A, rocker on ground at D, coupler hinged on the rocker tip
/// at C with its frame at C (x towards B); the loop closes the coupler's far end onto the crank tip.
inline ModelBuilder fourBarCutAtB() {
  ModelBuilder b;
  b.name = "four_bar_cut_B";
  b.addBody(bar("crank", 0.5)).addBody(bar("coupler", 1.2)).addBody(bar("rocker", 0.8));
  b.addJoint(pin("A", "ground", "crank", Vec3::Zero(), std::numbers::pi / 3, true));
  b.addJoint(pin("D", "ground", "rocker", Vec3(1, 0, 0), 1.01));
  b.addJoint(pin("C", "rocker", "coupler", Vec3(0.8, 0, 0), 2.33));
  b.addLoop(revoluteLoop("B", "coupler", Vec3(1.2, 0, 0), "crank", Vec3(0.5, 0, 0)));
  return b;
}

}  // namespace articula::test_models
