// The three gradients of optimize/trajectory_gradient.hpp against each other: the discrete adjoint
// and direct differentiation differentiate the same discrete run, so they agree to the accuracy
// of their local derivatives; central finite differences of whole runs agree to their truncation
// error.
#include <gtest/gtest.h>

#include "articula/io/yaml_model.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "../unit/random_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// The four-bar of models/four_bar.yaml with a spring from the ground to the coupler's middle.
OptimalControlProblem fourBarProblem() {
  OptimalControlProblem p;
  p.model = loadModelBuilder(ARTICULA_SOURCE_DIR "/models/four_bar.yaml").build();
  PointSpringDamper spring;
  spring.name = "lift";
  spring.bodyA = 0;
  spring.pointA = Vec3(0.5, 1.5, 0);
  spring.bodyB = *p.model.findBody("coupler");
  spring.pointB = Vec3(0.6, 0, 0);
  spring.stiffness = 30.0;
  spring.damping = 0.5;
  spring.restLength = 0.8;
  p.model.pointSprings.push_back(spring);
  p.tf = 0.6;
  p.dt = 0.01;
  p.design.push_back({"lift.rest_length", DesignParameter::Target::SpringRestLength, 0, 0.8});
  p.design.push_back({"lift.stiffness", DesignParameter::Target::SpringStiffness, 0, 30.0});
  p.design.push_back({"coupler.mass", DesignParameter::Target::BodyMass, *p.model.findBody("coupler"), 1.2, 0.1});
  ControlInput motor;
  motor.name = "motor";
  motor.joint = *p.model.findJoint("A");
  motor.basis = ControlBasis(ControlBasis::Kind::CubicSpline, {0.0, 0.2, 0.4, 0.6});
  motor.initial = 0.3;
  p.controls.push_back(motor);
  CostTerm track;
  track.kind = CostTerm::Kind::MarkerPosition;
  track.marker = *p.model.findMarker("coupler_mid");
  track.initialTarget = true;
  p.cost.push_back(track);
  CostTerm effort;
  effort.kind = CostTerm::Kind::ControlEffort;
  effort.weight = 0.01;
  p.cost.push_back(effort);
  CostTerm still;
  still.kind = CostTerm::Kind::JointVelocity;
  still.terminal = true;
  still.coordinate = 0;
  still.weight = 0.5;
  p.cost.push_back(still);
  return p;
}

TEST(TrajectoryGradient, AdjointDirectAndFiniteDifferencesAgreeOnAFourBar) {
  OptimalControlProblem p = fourBarProblem();
  TrajectoryGradient tg(p);
  Eigen::VectorXd b = p.initialParameters(), gA, gD, gF;
  b[4] = -0.2;  // a non-uniform control
  const double JA = tg.gradient(b, gA, GradientMethod::Adjoint);
  const double JD = tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
  const double JF = tg.gradient(b, gF, GradientMethod::FiniteDifference);
  EXPECT_EQ(JA, JD);
  EXPECT_EQ(JA, JF);
  // The adjoint's local products are in reverse mode, with the loop's term by central
  // differences of its own, and direct differentiation's Jacobian rows come from the same
  // reverse mode: 1.3e-11 measured on the gradient, 1e-9 asked.
  EXPECT_LT((gA - gD).norm(), 1e-9 * gA.norm());
  EXPECT_LT((gA - gF).norm(), 1e-6 * gA.norm());
}

TEST(TrajectoryGradient, CheckpointedAdjointEqualsTheFullyStoredOne) {
  OptimalControlProblem p = fourBarProblem();
  GradientOptions every;
  every.checkpointInterval = 1;
  TrajectoryGradient full(p, every), checkpointed(p);
  Eigen::VectorXd b = p.initialParameters(), g1, g2;
  full.gradient(b, g1, GradientMethod::Adjoint);
  checkpointed.gradient(b, g2, GradientMethod::Adjoint);
  // 60 rk4 steps: every state and the 4 stage arguments and slopes of one step, against
  // m = ceil(sqrt(60 / 8)) = 3: 20 checkpoints and the stages of 3 steps.
  EXPECT_EQ(full.stats().storedStates, 60 + 2 * 4);
  EXPECT_EQ(checkpointed.stats().checkpointInterval, 3);
  EXPECT_EQ(checkpointed.stats().storedStates, 20 + 2 * 4 * 3);
  for (int k = 0; k < g1.size(); ++k) EXPECT_EQ(g1[k], g2[k]) << k;
}

// A spatial tree of 8 bodies on revolute, universal, prismatic, cylindrical, planar, ball and free
// joints (branches, joint axes and placements at random; quaternion coordinates included), with a joint spring and a point spring as the
// design, a body force and a joint torque as controls, marker tracking and joint targets as cost.
TEST(TrajectoryGradient, AdjointDirectAndFiniteDifferencesAgreeOnASpatialTreeOf8Bodies) {
  OptimalControlProblem p;
  ModelBuilder builder = test_models::randomTreeOf(
      8, 3,
      {JointType::Revolute, JointType::Universal, JointType::Spherical, JointType::Prismatic, JointType::Cylindrical,
       JointType::Free, JointType::Planar});
  builder.addJointSpring({"twist", "j4", 0, 4.0, 0.3, 0.1, {}});
  builder.addPointSpring({"tie", "ground", "b7", Vec3(0.5, 0.5, 0.0), Vec3(0.1, 0, 0), 25.0, 0.4, 0.6, {}});
  builder.addMarker({"tip", "b7", Vec3(0.2, 0.1, 0.0), {}});
  p.model = builder.build();
  p.tf = 0.4;
  p.dt = 0.005;
  p.design.push_back({"twist.stiffness", DesignParameter::Target::JointSpringStiffness, 0, 4.0});
  p.design.push_back({"tie.rest_length", DesignParameter::Target::SpringRestLength, 0, 0.6});
  p.design.push_back({"b3.mass", DesignParameter::Target::BodyMass, *p.model.findBody("b3"), p.model.bodies[4].mass, 0.1});
  ControlInput push;
  push.name = "push";
  push.kind = ControlInput::Kind::BodyForce;
  push.body = *p.model.findBody("b5");
  push.point = Vec3(0.1, 0.0, 0.2);
  push.direction = Vec3(0.6, 0.0, 0.8);
  push.basis = ControlBasis(ControlBasis::Kind::PiecewiseLinear, {0.0, 0.1, 0.2, 0.3, 0.4});
  push.initial = 1.0;
  p.controls.push_back(push);
  ControlInput torque;
  torque.name = "torque";
  torque.joint = *p.model.findJoint("j0");
  torque.basis = ControlBasis(ControlBasis::Kind::PiecewiseConstant, {0.0, 0.15, 0.3});
  torque.initial = -0.5;
  p.controls.push_back(torque);
  CostTerm track;
  track.kind = CostTerm::Kind::MarkerPosition;
  track.marker = 0;
  track.target = {TimeFunction::constant(0.3), TimeFunction::sine(0.2, 1.0), TimeFunction::constant(-0.1)};
  p.cost.push_back(track);
  CostTerm speed;
  speed.kind = CostTerm::Kind::MarkerVelocity;
  speed.marker = 0;
  speed.terminal = true;
  speed.weight = 0.1;
  p.cost.push_back(speed);
  CostTerm joint;
  joint.kind = CostTerm::Kind::JointPosition;
  joint.coordinate = 1;
  joint.target = {TimeFunction::constant(0.2)};
  joint.weight = 2.0;
  p.cost.push_back(joint);
  ASSERT_EQ(p.model.nq, p.model.nv + 2);  // one ball and one free joint
  TrajectoryGradient tg(p);
  Eigen::VectorXd b = p.initialParameters(), gA, gD, gF;
  for (int k = 0; k < b.size(); ++k) b[k] += 0.05 * k;  // non-uniform controls
  tg.gradient(b, gA, GradientMethod::Adjoint);
  tg.gradient(b, gD, GradientMethod::DirectDifferentiation);
  tg.gradient(b, gF, GradientMethod::FiniteDifference);
  EXPECT_LT((gA - gD).norm(), 1e-9 * gA.norm());
  EXPECT_LT((gA - gF).norm(), 1e-6 * gA.norm()) << "adjoint " << gA.transpose() << "\nfd " << gF.transpose();

  // The working model is edited in place between evaluations; a formulation that kept a copy of
  // a mass would give a consistent but wrong gradient. Models built afresh with the mass changed
  // check that it does not.
  const auto costWithMass = [&](double mass) {
    OptimalControlProblem changed = p;
    changed.design.pop_back();
    writeParameter(changed.model, p.design[2], mass);
    Eigen::VectorXd bChanged(b.size() - 1);
    bChanged << b.head(2), b.tail(b.size() - 3);
    return TrajectoryGradient(changed).cost(bChanged);
  };
  const double h = 1e-6 * b[2];
  const double fresh = (costWithMass(b[2] + h) - costWithMass(b[2] - h)) / (2 * h);
  EXPECT_NE(gA[2], 0.0);
  EXPECT_NEAR(gA[2], fresh, 1e-6 * std::abs(fresh));
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
