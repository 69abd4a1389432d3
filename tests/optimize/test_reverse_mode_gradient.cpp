// The adjoint with its local products in reverse mode (dynamics/forward_dynamics_adjoint.hpp)
// against the same adjoint with central-difference local Jacobians, direct differentiation and
// finite differences of whole runs, on a spatial tree of 8 bodies that uses every element the
// reverse mode covers: revolute, prismatic, cylindrical and fixed joints, joint springs, end stops
// and friction, a spring-damper from the ground, a load fixed in a body, a joint control and a
// body-force control (world axes), design parameters of masses and springs, and every cost term.
#include <gtest/gtest.h>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "../unit/random_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// A running cost term on marker, coordinate or control `index` (whichever the kind uses).
CostTerm term(CostTerm::Kind kind, double weight, int index, std::vector<TimeFunction> target = {}) {
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
OptimalControlProblem treeProblem(bool kinks) {
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

Eigen::VectorXd nonUniform(const OptimalControlProblem& p) {
  Eigen::VectorXd b = p.initialParameters();
  for (int k = 6; k < b.size(); ++k) b[k] += 0.3 * (k - 7);  // the controls, after 6 design parameters
  return b;
}

TEST(ReverseModeGradient, DiscreteAdjointAgreesWithTheOtherMethods) {
  const OptimalControlProblem p = treeProblem(true);
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  EXPECT_EQ(central.stats().localDerivatives, "central differences (asked for)");
  const Eigen::VectorXd b = nonUniform(p);
  Eigen::VectorXd gR, gC, gD, gF;
  const double JR = reverse.gradient(b, gR, GradientMethod::Adjoint);
  const double JC = central.gradient(b, gC, GradientMethod::Adjoint);
  reverse.gradient(b, gD, GradientMethod::DirectDifferentiation);
  reverse.gradient(b, gF, GradientMethod::FiniteDifference);
  EXPECT_EQ(JR, JC);
  // The reverse mode is exact; the central products use local Jacobians by central differences,
  // each entry accurate to about 1e-10 relative: 1.8e-11 measured on the whole gradient, 1e-10
  // asked. Direct differentiation takes its local Jacobian row by row in reverse mode: the same
  // products, 5e-16 measured, 1e-12 asked.
  EXPECT_LT((gR - gC).norm(), 1e-10 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
  EXPECT_LT((gR - gD).norm(), 1e-12 * gR.norm());
  // Differences of whole runs: their truncation and round-off, 1.2e-9 measured: 1e-7.
  EXPECT_LT((gR - gF).norm(), 1e-7 * gR.norm()) << gR.transpose() << "\n" << gF.transpose();
  for (int k = 0; k < gR.size(); ++k) EXPECT_NE(gR[k], 0.0) << k;  // every parameter acts
}

TEST(ReverseModeGradient, ContinuousAdjointAgreesWithCentralDifferenceProducts) {
  OptimalControlProblem p = treeProblem(false);
  // Without the body-velocity and tilt terms (the last two; the discrete test checks them): with
  // them the two backward runs differed by 7.9e-10, their adaptive steps steered by the
  // differences' less accurate products of those terms, which this test is not about.
  p.cost.resize(p.cost.size() - 2);
  p.integrator = "rk45";
  p.rtol = p.atol = 1e-8;
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  const Eigen::VectorXd b = nonUniform(p);
  Eigen::VectorXd gR, gC;
  reverse.gradient(b, gR, GradientMethod::Adjoint);
  central.gradient(b, gC, GradientMethod::Adjoint);
  // Two backward integrations to rtol = atol = 1e-8 over the same forward run, whose right-hand
  // sides differ by the central differences' 1e-10, so that their adaptive steps may differ:
  // 9.2e-11 measured, 1e-9 asked.
  EXPECT_LT((gR - gC).norm(), 1e-9 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
}

// The five-bar design of seed 002 section 5.2 (a closed loop, the reference formulation with
// Baumgarte terms), shortened to 1 s and given a crank torque control and a joint-velocity cost,
// so that the projected weights reach a control as well as the springs' rest lengths.
TEST(ReverseModeGradient, ClosedLoopAdjointAgreesWithTheOtherMethods) {
  OptimalControlProblem p = loadProblem(ARTICULA_SOURCE_DIR "/problems/five_bar_design.yaml").problem;
  p.tf = 1.0;
  ControlInput torque;
  torque.name = "torque";
  torque.joint = 1;
  torque.basis = ControlBasis(ControlBasis::Kind::CubicSpline, {0.0, 0.5, 1.0});
  torque.initial = 0.4;
  p.controls.push_back(torque);
  p.cost.push_back(term(CostTerm::Kind::JointVelocity, 0.2, 0));
  p.cost.push_back(term(CostTerm::Kind::MarkerVelocity, 0.3, 0));
  GradientOptions differences;
  differences.reverseModeDerivatives = false;
  TrajectoryGradient reverse(p), central(p, differences);
  EXPECT_EQ(reverse.stats().localDerivatives, "reverse mode");
  Eigen::VectorXd b = p.initialParameters();
  b.tail(3) << 0.4, -0.2, 0.6;  // the torque's spline coefficients
  Eigen::VectorXd gR, gC, gD, gF;
  reverse.gradient(b, gR, GradientMethod::Adjoint);
  central.gradient(b, gC, GradientMethod::Adjoint);
  reverse.gradient(b, gD, GradientMethod::DirectDifferentiation);
  reverse.gradient(b, gF, GradientMethod::FiniteDifference);
  // The reverse mode differentiates the constraint term by central differences (about 1e-10 of
  // its scale), the central products every local product: 5.2e-11 measured, 1e-8 asked. Direct
  // differentiation's Jacobian rows come from the same reverse mode: 8.1e-14 measured, 1e-11
  // asked. Whole-run differences 1.3e-9 measured, 1e-7 asked.
  EXPECT_LT((gR - gC).norm(), 1e-8 * gR.norm()) << gR.transpose() << "\n" << gC.transpose();
  EXPECT_LT((gR - gD).norm(), 1e-11 * gR.norm());
  EXPECT_LT((gR - gF).norm(), 1e-7 * gR.norm()) << gR.transpose() << "\n" << gF.transpose();
  for (int k = 0; k < gR.size(); ++k) EXPECT_NE(gR[k], 0.0) << k;
}

TEST(ReverseModeGradient, SaysWhyAProblemFallsBackToDifferences) {
  OptimalControlProblem ball;
  ball.model = test_models::randomTreeOf(3, 0, {JointType::Spherical}).build();
  ball.tf = 0.1;
  ball.dt = 0.01;
  ball.cost.push_back(term(CostTerm::Kind::JointVelocity, 1.0, 0));
  ControlInput torque;
  torque.name = "torque";
  torque.joint = 1;
  torque.basis = ControlBasis(ControlBasis::Kind::PiecewiseConstant, {0.0, 0.1});
  ball.controls.push_back(torque);
  const std::string why = TrajectoryGradient(ball).stats().localDerivatives;
  EXPECT_EQ(why.rfind("central differences (joint 'j0' is spherical", 0), 0u) << why;
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
