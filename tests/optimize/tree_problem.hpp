// The spatial tree of 8 bodies whose gradient the reverse-mode tests check
// (test_reverse_mode_gradient.cpp) and the absolute-coordinate adjoint's (test_absolute_adjoint.cpp):
// revolute, prismatic, cylindrical and fixed joints, joint springs and friction (and an end stop),
// a spring-damper from the ground, a load fixed in a body, a joint control and a body-force
// control, design parameters of a mass and of springs, and every cost term.
#pragma once

#include <utility>
#include <vector>

#include "articula/optimize/problem.hpp"
#include "../unit/random_model.hpp"

namespace articula::test_problems {

// A running cost term on marker, coordinate or control `index` (whichever the kind uses).
inline CostTerm term(CostTerm::Kind kind, double weight, int index, std::vector<TimeFunction> target = {}) {
  CostTerm c;
  c.kind = kind;
  c.weight = weight;
  c.marker = c.coordinate = c.control = index;
  c.target = std::move(target);
  return c;
}

// kinks: a stop that the first joint reaches during the run, and a control effort counted beyond a
// limit that the push crosses. The stop's force has a kink, the effort's integrand a jump in its
// second derivative, which the discrete adjoint differentiates exactly (one side, as the run takes
// it) but which spoil the error control of the continuous methods (the whole-run differences, the
// continuous adjoint and sensitivities then differ by 1e-3 relative, by 1e-8 for the effort alone).
inline OptimalControlProblem treeProblem(bool kinks) {
  OptimalControlProblem p;
  ModelBuilder builder = test_models::randomTreeOf(
      8, 5, {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Fixed});
  const Model bare = builder.build();
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (j.nv == 0) continue;
    builder.addJointSpring({"spring_" + j.name, j.name, 0, 10.0 + i, 0.4, 0.1, {}});
    builder.addJointFriction({"friction_" + j.name, j.name, j.nv - 1, 0.5, 0.3, {}});
  }
  const Joint& stopped = bare.joints[1];
  if (kinks)
    builder.addJointLimit({"stop", stopped.name, 0, bare.q0[stopped.iq] - 0.05, bare.q0[stopped.iq] + 0.05, 300.0, 2.0, {}});
  builder.addMarker({"tip", "b7", Vec3(0.2, 0.1, 0.0), {}});
  BodyLoadSpec twist;  // a torque fixed in the body, varying in time
  twist.name = "twist", twist.body = "b4", twist.torque = true, twist.worldFrame = false;
  twist.direction = Vec3(0.0, 0.6, 0.8), twist.magnitude = TimeFunction::sine(0.8, 2.0);
  builder.addBodyLoad(twist);
  builder.addPointSpring({"tie", "ground", "b6", Vec3(0.5, 0.5, 0.0), Vec3(0.1, 0, 0), 25.0, 0.4, 0.6, {}});
  p.model = builder.build();
  p.tf = 0.3;
  p.dt = 0.005;
  p.design.push_back({"b3.mass", DesignParameter::Target::BodyMass, *p.model.findBody("b3"), p.model.bodies[4].mass, 0.1});
  const int spring = 2;
  const double k = p.model.jointSprings[spring].stiffness, c = p.model.jointSprings[spring].damping;
  p.design.push_back({"k", DesignParameter::Target::JointSpringStiffness, spring, k});
  p.design.push_back({"c", DesignParameter::Target::JointSpringDamping, spring, c});
  p.design.push_back({"rest", DesignParameter::Target::JointSpringRest, spring, 0.1});
  p.design.push_back({"tie.rest_length", DesignParameter::Target::SpringRestLength, 0, 0.6});
  p.design.push_back({"tie.damping", DesignParameter::Target::SpringDamping, 0, 0.4});
  ControlInput torque;
  torque.name = "torque";
  torque.joint = 2;
  torque.basis = ControlBasis(ControlBasis::Kind::CubicSpline, {0.0, 0.1, 0.2, 0.3});
  torque.initial = -0.5;
  p.controls.push_back(torque);
  ControlInput push;  // a force in world axes on a body point
  push.name = "push";
  push.kind = ControlInput::Kind::BodyForce;
  push.body = *p.model.findBody("b5");
  push.point = Vec3(0.1, 0.0, 0.2);
  push.direction = Vec3(0.6, 0.0, 0.8);
  push.basis = ControlBasis(ControlBasis::Kind::PiecewiseLinear, {0.0, 0.1, 0.2, 0.3});
  push.initial = 1.0;
  p.controls.push_back(push);
  using K = CostTerm::Kind;
  p.cost.push_back(term(K::MarkerPosition, 1.0, 0, {TimeFunction::constant(0.3), TimeFunction::sine(0.2, 1.0),
                                                     TimeFunction::constant(-0.1)}));
  p.cost.push_back(term(K::MarkerVelocity, 0.1, 0));
  p.cost.back().terminal = true;
  p.cost.push_back(term(K::MarkerVelocity, 0.2, 0, {TimeFunction::sine(0.3, 1.5), TimeFunction::constant(0.1),
                                                    TimeFunction::constant(0.0)}));
  p.cost.push_back(term(K::JointPosition, 2.0, 1, {TimeFunction::constant(0.2)}));
  p.cost.push_back(term(K::JointVelocity, 0.3, 3));
  p.cost.push_back(term(K::ControlEffort, 0.05, 0));
  CostTerm speed = term(K::BodyVelocity, 0.15, 0), tilt = term(K::BodyAxisAngle, 0.7, 0);
  speed.body = 6;  // behind the cylindrical and prismatic joints of the tree
  tilt.body = 7;
  tilt.axis = Vec3(0.6, 0.0, 0.8);
  tilt.direction = Vec3(0.0, 0.6, -0.8);
  p.cost.push_back(speed);
  p.cost.push_back(tilt);
  if (kinks) {
    p.cost.push_back(term(K::ControlEffort, 0.4, 1));  // the push beyond 2.3 (nonUniform makes it 1.9 to 2.8)
    p.cost.back().limit = 2.3;
  }
  return p;
}

}  // namespace articula::test_problems
