// The three gradients of optimize/trajectory_gradient.hpp against each other: the discrete adjoint
// and direct differentiation differentiate the same discrete run, so they agree to round-off of
// the local derivatives; central finite differences of whole runs agree to their truncation error.
#include <gtest/gtest.h>

#include "articula/io/yaml_model.hpp"
#include "articula/optimize/trajectory_gradient.hpp"

namespace articula {
namespace {

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
  std::cout << "J " << JA << "\nadjoint " << gA.transpose() << "\ndirect  " << gD.transpose() << "\nfd      "
            << gF.transpose() << "\n";
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
  EXPECT_EQ(full.stats().storedStates, 60 + 1);
  EXPECT_EQ(checkpointed.stats().checkpointInterval, 8);
  EXPECT_EQ(checkpointed.stats().storedStates, 8 + 8);
  for (int k = 0; k < g1.size(); ++k) EXPECT_EQ(g1[k], g2[k]) << k;
}

}  // namespace
}  // namespace articula
