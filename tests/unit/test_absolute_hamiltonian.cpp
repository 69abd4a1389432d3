// The absolute-coordinate Hamiltonian formulation (seed 002 eq. (3.14)) and its adjoint product
// (section 4.2, appendix B): the product against central differences of the right-hand side on
// random spatial trees with every covered joint type, force element and loop closure, off the
// constraint manifold; and the motion against the articulated-body algorithm.
#include <gtest/gtest.h>

#include <random>

#include "articula/core/error.hpp"
#include "articula/dynamics/absolute_hamiltonian_system.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/system.hpp"
#include "random_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// A random tree of every joint type the formulation covers, with joint springs, dampers,
// friction and loads on the scalar coordinates, point springs, body loads and three loop
// closures (a revolute, a ball and a distance), none of them satisfied: the adjoint product is that of the
// right-hand side wherever it is evaluated.
Model coveredTree(unsigned seed) {
  const std::vector<JointType> types = {JointType::Revolute,  JointType::Prismatic, JointType::Cylindrical,
                                        JointType::Universal, JointType::Spherical, JointType::Planar,
                                        JointType::Free,      JointType::Fixed};
  ModelBuilder b = test_models::randomTreeOf(8, seed, types);
  const Model bare = b.build();
  std::mt19937 gen(seed + 17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[static_cast<std::size_t>(i)];
    if (j.type != JointType::Revolute && j.type != JointType::Prismatic && j.type != JointType::Cylindrical &&
        j.type != JointType::Universal)
      continue;
    JointSpringSpec s;
    s.name = "spring_" + j.name, s.joint = j.name, s.dof = i % j.nv;
    s.stiffness = 20.0 + 10.0 * u(gen), s.damping = 1.0 + u(gen), s.restPosition = 0.3 * u(gen);
    b.addJointSpring(s);
    JointFrictionSpec f;
    f.name = "friction_" + j.name, f.joint = j.name, f.dof = (i + 1) % j.nv, f.force = 2.0, f.slipVelocity = 0.5;
    b.addJointFriction(f);
    JointLoadSpec l;
    l.name = "load_" + j.name, l.joint = j.name, l.dof = (i + 1) % j.nv;
    l.magnitude = TimeFunction::sine(2.0, 1.5, u(gen), u(gen));
    b.addJointLoad(l);
  }
  for (int k = 0; k < 4; ++k) {
    PointSpringSpec s;
    s.name = "ps" + std::to_string(k), s.bodyA = k == 0 ? "ground" : "b" + std::to_string(k), s.bodyB = "b" + std::to_string(k + 3);
    s.pointA = 0.3 * vec(), s.pointB = 0.3 * vec();
    s.stiffness = 50.0 + 20.0 * u(gen), s.damping = 2.0 + u(gen), s.restLength = 0.2 + 0.1 * u(gen);
    b.addPointSpring(s);
    BodyLoadSpec l;
    l.name = "bl" + std::to_string(k), l.body = "b" + std::to_string(2 * k);
    l.torque = k % 2 == 1, l.worldFrame = k % 3 != 0;
    l.point = 0.3 * vec(), l.direction = vec().normalized();
    l.magnitude = TimeFunction::sine(5.0, 0.7, u(gen), u(gen));
    b.addBodyLoad(l);
  }
  LoopSpec revolute;
  revolute.name = "hinge", revolute.type = LoopConstraint::Type::Revolute, revolute.bodyA = "b2", revolute.bodyB = "b6";
  revolute.pointA = 0.2 * vec(), revolute.pointB = 0.2 * vec(), revolute.axisA = vec().normalized(),
  revolute.axisB = vec().normalized();
  b.addLoop(revolute);
  LoopSpec ball;
  ball.name = "ball", ball.type = LoopConstraint::Type::Ball, ball.bodyA = "ground", ball.bodyB = "b7";
  ball.pointA = vec(), ball.pointB = 0.2 * vec();
  b.addLoop(ball);
  LoopSpec rod;
  rod.name = "rod", rod.type = LoopConstraint::Type::Distance, rod.bodyA = "b1", rod.bodyB = "b5";
  rod.pointA = 0.2 * vec(), rod.pointB = 0.2 * vec(), rod.distance = 0.7;
  b.addLoop(rod);
  return b.build();
}

// A state of the model with random augmented momenta (so that the impulses sigma are not zero).
Eigen::VectorXd someState(const Model& m, AbsoluteHamiltonianSystem& system, unsigned seed) {
  Eigen::VectorXd qv(m.nq + m.nv), x;
  qv << m.q0, m.v0;
  system.canonicalState(qv, x);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = system.positionSize(); k < system.size(); ++k) x[k] += u(gen);
  for (int k = 0; k < system.positionSize(); k += 7) x.segment<4>(k + 3) *= 1.3;  // Euler parameters of any norm
  return x;
}

// state <- the state after one second of rk4 at 1 ms from it.
void runOneSecond(OdeSystem& ode, Eigen::VectorXd& state) {
  IntegratorOptions io;
  io.dt = 1e-3;
  auto rk4 = makeIntegrator("rk4", io);
  rk4->initialize(ode, 0.0, state);
  while (rk4->time() < 1.0) rk4->step(1.0);
  state = rk4->state();
}

// One second of rk4 from the same start in absolute coordinates (x, advanced in place) and with
// `formulation` in joint coordinates (from qv): the end poses in ws and wsJoint.
void runBothOneSecond(const Model& m, AbsoluteHamiltonianSystem& system, Eigen::VectorXd& x, const char* formulation,
                      const Eigen::VectorXd& qv, Workspace& ws, Workspace& wsJoint) {
  MultibodySystem joint(m, makeFormulation(formulation, m), Stabilization::None);
  Eigen::VectorXd y = qv;
  runOneSecond(system, x);
  runOneSecond(joint, y);
  system.fillWorkspace(x, ws);
  updatePositions(m, wsJoint, y.head(m.nq));
}

TEST(AbsoluteHamiltonian, AdjointProductIsTheTransposedDerivativeOfTheRightHandSide) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Model m = coveredTree(seed);
    AbsoluteHamiltonianSystem system(m);
    EXPECT_EQ(system.constraintRows(), 5 + 3 + 1 + [&] {  // the loops, then 6 - dofs per joint
      int rows = 0;
      for (int i = 1; i <= m.bodyCount(); ++i) rows += 6 - m.joints[static_cast<std::size_t>(i)].nv;
      return rows;
    }());
    const Eigen::VectorXd x = someState(m, system, seed);
    const int n = system.size();
    std::mt19937 gen(seed + 99);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd weight(n), qbar(system.positionSize()), vbar = Eigen::VectorXd::Zero(system.velocitySize());
    for (int k = 0; k < n; ++k) weight[k] = u(gen);
    for (int k = 0; k < qbar.size(); ++k) qbar[k] = u(gen);
    const double t = 0.37;
    Eigen::VectorXd xbar(n);
    system.prepare(x);
    system.adjoint(t, weight, qbar, vbar, xbar);
    // Central differences of weight^T F(x) + qbar^T q, step 1e-5 max(1, |x_j|): measured 5.9e-10,
    // 1.8e-9 and 1.0e-8 relative for the three seeds. The differences' own error sets that floor
    // (with steps of 1e-4 and 1e-6 it grows to 2e-7 and 1.3e-7, truncation and round-off), so
    // 1e-7 asks for agreement to the differences' accuracy.
    Eigen::VectorXd fd(n), xs = x, f(n);
    for (int j = 0; j < n; ++j) {
      const double h = 1e-5 * std::max(1.0, std::abs(x[j]));
      xs[j] = x[j] + h;
      system.derivative(t, xs, f);
      double plus = weight.dot(f) + (j < qbar.size() ? qbar[j] * xs[j] : 0.0);
      xs[j] = x[j] - h;
      system.derivative(t, xs, f);
      double minus = weight.dot(f) + (j < qbar.size() ? qbar[j] * xs[j] : 0.0);
      xs[j] = x[j];
      fd[j] = (plus - minus) / (2 * h);
    }
    EXPECT_LT((xbar - fd).norm(), 1e-7 * fd.norm()) << "seed " << seed << "\n"
                                                     << xbar.transpose() << "\n"
                                                     << fd.transpose();
  }
}

// With sigma(0) = 0 and a tree whose joint constraints hold at the start, the motion is the
// articulated-body algorithm's: one second of rk4 at 1 ms on a random tree without loops.
TEST(AbsoluteHamiltonian, MovesAsTheArticulatedBodyAlgorithm) {
  const std::vector<JointType> types = {JointType::Revolute,  JointType::Prismatic, JointType::Cylindrical,
                                        JointType::Universal, JointType::Spherical, JointType::Planar,
                                        JointType::Free};
  const Model m = test_models::randomTreeOf(7, 5, types).build();
  AbsoluteHamiltonianSystem system(m);
  Eigen::VectorXd qv(m.nq + m.nv), x;
  qv << m.q0, m.v0;
  system.canonicalState(qv, x);
  EXPECT_LT(system.positionViolation(x), 1e-14);
  const double e0 = system.energy(x);
  Workspace ws(m), wsTree(m);
  runBothOneSecond(m, system, x, "aba", qv, ws, wsTree);
  double worst = 0.0;
  for (int i = 1; i <= m.bodyCount(); ++i)
    worst = std::max(worst, (pointPosition(ws, i, Vec3::Zero()) - pointPosition(wsTree, i, Vec3::Zero())).norm());
  // Both runs are rk4 at 1 ms of the same motion in different coordinates: their truncation
  // errors differ (1e-9 m measured); the joint constraints drift by rk4's error only (thesis:
  // linearly in time), and the energy of this conservative tree by rk4's.
  EXPECT_LT(worst, 1e-7);
  EXPECT_LT(system.positionViolation(x), 1e-8);
  EXPECT_NEAR(system.energy(x), e0, 1e-7 * std::abs(e0));
}

TEST(AbsoluteHamiltonian, RefusesWhatItDoesNotCover) {
  ModelBuilder b = test_models::randomTreeOf(3, 1, {JointType::Revolute});
  PrescribedMotionSpec driven;
  driven.name = "driven", driven.joint = "j1", driven.position = TimeFunction::sine(0.1, 1.0);
  b.addPrescribedMotion(driven);
  try {
    AbsoluteHamiltonianSystem s(b.build());
    FAIL() << "a prescribed motion was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("prescribed motion 'driven'"), std::string::npos) << e.what();
  }
}

// Seed 004's RSSR with the coupler as a massless rod (a distance loop between the crank tip and
// the rocker tip): the motion against the reference formulation, and the loop's drift.
TEST(AbsoluteHamiltonian, DistanceLoopMovesAsTheReferenceFormulation) {
  const Model m = makeRssr(0.4, true);
  Eigen::VectorXd q = m.q0, v = m.v0;
  assemble(m, 0.0, q, v);
  Eigen::VectorXd qv(m.nq + m.nv), x;
  qv << q, v;
  AbsoluteHamiltonianSystem system(m);
  system.canonicalState(qv, x);
  EXPECT_LT(system.positionViolation(x), 1e-10);
  Workspace ws(m), wsRef(m);
  runBothOneSecond(m, system, x, "reference", qv, ws, wsRef);
  const Marker& tip = m.markers[static_cast<std::size_t>(*m.findMarker("C"))];
  const double apart = (pointPosition(ws, tip.body, tip.position) - pointPosition(wsRef, tip.body, tip.position)).norm();
  // One second of rk4 at 1 ms in two sets of coordinates, neither projected: 4.6e-10 m apart; the
  // loop drifts at rk4's error, linearly in time (thesis 3.2.1): 3.4e-11 m. 1e-8 and 1e-9 asked.
  EXPECT_LT(apart, 1e-8);
  EXPECT_LT(system.positionViolation(x), 1e-9);
}

// A universal joint's two angles as the formulation reads them back from the bodies' poses.
TEST(AbsoluteHamiltonian, ReadsUniversalJointAnglesFromThePoses) {
  ModelBuilder b = test_models::randomTreeOf(2, 3, {JointType::Universal});
  const Model bare = b.build();
  for (int i = 1; i <= 2; ++i) {
    const Joint& j = bare.joints[static_cast<std::size_t>(i)];
    for (int k = 0; k < 2; ++k) {
      JointSpringSpec s;
      s.name = j.name + "_" + std::to_string(k), s.joint = j.name, s.dof = k, s.stiffness = 10.0;
      b.addJointSpring(s);
    }
  }
  const Model m = b.build();
  AbsoluteHamiltonianSystem system(m);
  Eigen::VectorXd qv(m.nq + m.nv), x, xdot(system.size());
  qv << m.q0, Eigen::VectorXd::Zero(m.nv);
  system.canonicalState(qv, x);
  system.derivative(0.0, x, xdot);
  // At rest with sigma = 0 the momentum rates are the applied forces; their power under the joint
  // rates' unit motions is minus the springs' torques k q (gravity's too, which the second state
  // with zero stiffness removes).
  Model noSprings = m;
  for (auto& s : noSprings.jointSprings) s.stiffness = 0.0;
  AbsoluteHamiltonianSystem bare2(noSprings);
  Eigen::VectorXd xdot0(system.size());
  bare2.derivative(0.0, x, xdot0);
  const Eigen::VectorXd springs = (xdot - xdot0).tail(system.velocitySize());
  Workspace ws(m);
  updatePositions(m, ws, m.q0);
  for (int i = 1; i <= 2; ++i) {
    const Joint& j = m.joints[static_cast<std::size_t>(i)];
    for (int k = 0; k < 2; ++k) {
      // The generalised force on coordinate k is the power of the body forces under the body
      // velocities of a unit rate of that coordinate: dq_k = 1 moves the joint's child subtree.
      Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
      v[j.iv + k] = 1.0;
      updateVelocities(m, ws, m.q0, v);
      double power = 0.0;
      for (int body = 1; body <= 2; ++body) {
        const Vec3& c = m.bodies[static_cast<std::size_t>(body)].com;
        power += springs.segment<3>(6 * (body - 1)).dot(pointVelocity(ws, body, c)) +
                 springs.segment<3>(6 * (body - 1) + 3).dot(ws.v[static_cast<std::size_t>(body)].ang);
      }
      EXPECT_NEAR(power, -10.0 * m.q0[j.iq + k], 1e-12) << j.name << " angle " << k;
    }
  }
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
