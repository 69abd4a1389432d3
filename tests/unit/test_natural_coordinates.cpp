// Natural coordinates (dynamics/natural_coordinates.hpp) against the tree's joint coordinates:
// kinetic energy, constraints at mapped states, the round trip of positions, velocities and
// accelerations, the constraint derivatives, the generalised forces.
#include <gtest/gtest.h>

#include <random>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/natural_coordinates.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/kinematics/kinematics.hpp"
// GCC 12 reports a false -Wrestrict in random_model.hpp's string concatenations once inlined here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "random_model.hpp"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr int kBodyCounts[] = {1, 2, 3, 5, 8, 13, 21};
constexpr double kTime = 0.3;

Eigen::VectorXd randomVector(int n, std::mt19937& gen, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x(i) = u(gen);
  return x;
}

// A random state of a random tree: the model's q0 moved along a random velocity-space increment.
struct State {
  Eigen::VectorXd q, v, vdot;
};
State randomState(const Model& model, std::mt19937& gen) {
  State s{model.q0, randomVector(model.nv, gen, 2.0), randomVector(model.nv, gen, 3.0)};
  integrateConfiguration(model, s.q, randomVector(model.nv, gen, 1.0));
  return s;
}

double infNorm(const Eigen::VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

// A random tree with loop constraints of every type between random bodies and prescribed motions
// on the scalar coordinates natural coordinates support (not assembled: for derivative checks).
Model randomTreeWithConstraints(int bodies, unsigned seed) {
  ModelBuilder b = test_models::randomTree(bodies, seed);
  const Model bare = b.build();
  std::mt19937 gen(seed + 2000);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(gen), u(gen), u(gen)); };
  std::uniform_int_distribution<int> pick(-1, bodies - 1);
  auto body = [&](int k) { return k < 0 ? std::string("ground") : "b" + std::to_string(k); };
  const LoopConstraint::Type types[] = {LoopConstraint::Type::Ball, LoopConstraint::Type::Revolute,
                                        LoopConstraint::Type::Weld, LoopConstraint::Type::Distance};
  for (int k = 0; k < 4; ++k) {
    LoopSpec l;
    l.name = "loop" + std::to_string(k), l.type = types[k];
    l.bodyA = body(k % bodies), l.bodyB = body(pick(gen));
    if (l.bodyB == l.bodyA) l.bodyB = "ground";
    l.pointA = 0.3 * vec(), l.pointB = 0.3 * vec();
    l.axisA = vec().normalized(), l.axisB = vec().normalized();
    l.rotationA = Quat(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
    l.rotationB = Quat(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
    l.distance = 0.5 + 0.2 * u(gen);
    b.addLoop(l);
  }
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (j.nv == 0 || !jointHasScalarCoordinates(j.type) || j.type == JointType::Universal) continue;
    PrescribedMotionSpec p;
    p.name = "drive_" + j.name, p.joint = j.name, p.dof = (i + 2) % j.nv;
    p.position = TimeFunction::sine(0.7, 0.9, u(gen), u(gen));
    b.addPrescribedMotion(p);
  }
  return b.build();
}

// Natural state of a random joint state.
struct NaturalState {
  Eigen::VectorXd x, xd, xdd;
};
NaturalState naturalState(const NaturalCoordinates& nc, Workspace& ws, const State& s) {
  NaturalState n{Eigen::VectorXd(nc.size()), Eigen::VectorXd(nc.size()), Eigen::VectorXd(nc.size())};
  nc.fromJoint(ws, s.q, s.v, n.x, n.xd);
  nc.accelerationsFromJoint(ws, s.vdot, n.xdd);
  return n;
}

}  // namespace

// 1/2 xd^T M xd with the constant natural mass matrix against 1/2 v^T H(q) v (CRBA), every joint
// type. Both are sums of positive terms; observed agreement about 1e-15 relative.
TEST(NaturalCoordinates, MassMatrixReproducesTheKineticEnergyOfTheTree) {
  std::mt19937 gen(11);
  for (int bodies : kBodyCounts)
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const NaturalCoordinates nc(model);
      Workspace ws(model);
      Eigen::MatrixXd H(model.nv, model.nv);
      for (int k = 0; k < 3; ++k) {
        const State s = randomState(model, gen);
        const NaturalState n = naturalState(nc, ws, s);
        massMatrix(model, ws, s.q, H);
        const double T = 0.5 * s.v.dot(H * s.v);
        EXPECT_NEAR(nc.kineticEnergy(n.xd), T, 1e-12 * T) << bodies << " bodies, seed " << seed;
        Eigen::VectorXd Mxd(nc.size());
        nc.multiplyMass(n.xd, Mxd);
        EXPECT_NEAR(0.5 * n.xd.dot(Mxd), T, 1e-12 * T);
        EXPECT_NEAR(0.5 * n.xd.dot(nc.denseMassMatrix() * n.xd), T, 1e-12 * T);
      }
    }
}

// Every tree-joint and rigid-body constraint vanishes at states mapped from joint coordinates, on
// position, velocity (Phi_x xd = nu) and acceleration level (Phi_x xdd = gamma).
TEST(NaturalCoordinates, ConstraintsVanishAtMappedStates) {
  std::mt19937 gen(12);
  for (int bodies : kBodyCounts)
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const NaturalCoordinates nc(model);
      Workspace ws(model);
      const State s = randomState(model, gen);
      const NaturalState n = naturalState(nc, ws, s);
      const int m = nc.constraintCount();
      Eigen::VectorXd phi(m), nu(m), gamma(m), Jxd(m), Jxdd(m);
      SparseRows J = nc.jacobianPattern();
      nc.jacobian(kTime, n.x, phi, J, nu);
      nc.accelerationBias(kTime, n.x, n.xd, gamma);
      J.multiply(n.xd, Jxd);
      J.multiply(n.xdd, Jxdd);
      EXPECT_LT(infNorm(phi), 1e-14) << bodies << " bodies, seed " << seed;
      EXPECT_LT(infNorm(Jxd - nu), 1e-13 * (1.0 + infNorm(n.xd))) << bodies << " bodies, seed " << seed;
      EXPECT_LT(infNorm(Jxdd - gamma), 1e-12 * (1.0 + infNorm(n.xdd))) << bodies << " bodies, seed " << seed;
    }
}

// A closed loop assembled in joint coordinates closes in natural coordinates too.
TEST(NaturalCoordinates, AssembledLoopClosesInNaturalCoordinates) {
  ModelBuilder b;
  b.name = "four_bar";
  auto bar = [](const std::string& name, double length) {
    BodySpec s;
    s.name = name, s.mass = length, s.com = Vec3(0.5 * length, 0, 0);
    s.inertia = boxInertia(s.mass, Vec3(length, 0.02, 0.02));
    return s;
  };
  auto pin = [](const std::string& name, const std::string& parent, const std::string& child, const Vec3& at,
                double q) {
    JointSpec j;
    j.name = name, j.type = JointType::Revolute, j.parent = parent, j.child = child, j.position = at, j.q0 = {q};
    return j;
  };
  b.addBody(bar("crank", 0.5)).addBody(bar("coupler", 1.2)).addBody(bar("rocker", 0.8));
  b.addJoint(pin("A", "ground", "crank", Vec3::Zero(), 1.0));
  b.addJoint(pin("B", "crank", "coupler", Vec3(0.5, 0, 0), -0.84));
  b.addJoint(pin("D", "ground", "rocker", Vec3(1, 0, 0), 1.01));
  LoopSpec l;
  l.name = "C", l.type = LoopConstraint::Type::Revolute, l.bodyA = "coupler", l.pointA = Vec3(1.2, 0, 0);
  l.bodyB = "rocker", l.pointB = Vec3(0.8, 0, 0);
  b.addLoop(l);
  const Model model = b.build();
  Eigen::VectorXd q = model.q0, v = Eigen::VectorXd::Constant(model.nv, 0.7);
  assemble(model, 0.0, q, v);
  const NaturalCoordinates nc(model);
  EXPECT_EQ(nc.constraintCount(), 3 * 6 + 3 * 5 + 5);
  Workspace ws(model);
  Eigen::VectorXd x(nc.size()), xd(nc.size()), phi(nc.constraintCount()), nu(nc.constraintCount()),
      Jxd(nc.constraintCount());
  nc.fromJoint(ws, q, v, x, xd);
  SparseRows J = nc.jacobianPattern();
  nc.jacobian(0.0, x, phi, J, nu);
  J.multiply(xd, Jxd);
  EXPECT_LT(infNorm(phi), 1e-12);
  EXPECT_LT(infNorm(Jxd - nu), 1e-12);
}

// (q, v, vdot) -> natural -> (q, v, vdot): angles come back on the branch of the given q,
// quaternions with its sign.
TEST(NaturalCoordinates, JointCoordinateRoundTripIsExact) {
  std::mt19937 gen(13);
  for (int bodies : kBodyCounts)
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      const NaturalCoordinates nc(model);
      Workspace ws(model);
      const State s = randomState(model, gen);
      const NaturalState n = naturalState(nc, ws, s);
      Eigen::VectorXd q(model.nq), v(model.nv), vdot(model.nv);
      nc.toJoint(ws, n.x, n.xd, &n.xdd, s.q, q, v, &vdot);
      EXPECT_LT(infNorm(q - s.q), 1e-12) << bodies << " bodies, seed " << seed;
      EXPECT_LT(infNorm(v - s.v), 1e-12 * (1.0 + infNorm(s.v))) << bodies << " bodies, seed " << seed;
      EXPECT_LT(infNorm(vdot - s.vdot), 1e-12 * (1.0 + infNorm(s.vdot))) << bodies << " bodies, seed " << seed;
      // Another branch: angles near q + 2 pi come back as q + 2 pi.
      Eigen::VectorXd near = s.q;
      for (int i = 1; i <= model.bodyCount(); ++i) {
        const Joint& j = model.joints[i];
        if (j.type == JointType::Revolute) near[j.iq] += 2.0 * std::numbers::pi + 0.5;
      }
      nc.positionsToJoint(n.x, near, q);
      for (int i = 1; i <= model.bodyCount(); ++i) {
        const Joint& j = model.joints[i];
        if (j.type == JointType::Revolute) {
          EXPECT_NEAR(q[j.iq], s.q[j.iq] + 2.0 * std::numbers::pi, 1e-12);
        }
      }
    }
}

// The Jacobian against central differences (exact for these quadratic forms up to rounding), and
// nu and gamma against time derivatives of Phi along x(tau) = x + tau xd + tau^2/2 xdd, at states
// off the constraint manifold, with loops of every type and prescribed motions.
TEST(NaturalCoordinates, ConstraintDerivativesMatchFiniteDifferences) {
  std::mt19937 gen(14);
  for (int bodies : {1, 2, 3, 5, 8})
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = randomTreeWithConstraints(bodies, seed);
      const NaturalCoordinates nc(model);
      const int n = nc.size(), m = nc.constraintCount();
      const Eigen::VectorXd x = randomVector(n, gen), xd = randomVector(n, gen), xdd = randomVector(n, gen);
      Eigen::VectorXd phi(m), nu(m), gamma(m), plus(m), minus(m), Jxd(m), Jxdd(m);
      SparseRows J = nc.jacobianPattern();
      nc.jacobian(kTime, x, phi, J, nu);
      nc.accelerationBias(kTime, x, xd, gamma);
      const Eigen::MatrixXd Jd = J.dense();
      constexpr double e = 1e-3;
      for (int k = 0; k < n; ++k) {
        Eigen::VectorXd xp = x, xm = x;
        xp[k] += e;
        xm[k] -= e;
        nc.constraints(kTime, xp, plus);
        nc.constraints(kTime, xm, minus);
        EXPECT_LT(infNorm((plus - minus) / (2.0 * e) - Jd.col(k)), 1e-9) << "column " << k << ", seed " << seed;
      }
      // Along the curve: first derivative J xd - nu, second J xdd - gamma.
      const auto along = [&](double tau, Eigen::VectorXd& out) {
        nc.constraints(kTime + tau, x + tau * xd + 0.5 * tau * tau * xdd, out);
      };
      constexpr double dt = 1e-4;
      along(dt, plus);
      along(-dt, minus);
      J.multiply(xd, Jxd);
      J.multiply(xdd, Jxdd);
      EXPECT_LT(infNorm((plus - minus) / (2.0 * dt) - (Jxd - nu)), 1e-6) << bodies << " bodies, seed " << seed;
      EXPECT_LT(infNorm((plus - 2.0 * phi + minus) / (dt * dt) - (Jxdd - gamma)), 1e-5)
          << bodies << " bodies, seed " << seed;
    }
}

// The natural generalised forces do the same virtual work as the tree's: G^T Q = tau_applied with
// G = d x / d v (natural velocities of unit joint velocities), tau_applied the joint-space
// applied forces (force elements and gravity) from RNEA. The springs' tangent rows are the
// gradients of the joint coordinates and spring lengths: G^T g is that coordinate's unit row or the
// length's rate per joint velocity.
TEST(NaturalCoordinates, GeneralisedForcesDoTheWorkOfTheTreeForces) {
  std::mt19937 gen(15);
  for (int bodies : {1, 2, 3, 5, 8, 13})
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTreeWithForceElements(bodies, seed, false);
      const NaturalCoordinates nc(model);
      Workspace ws(model);
      const State s = randomState(model, gen);
      const NaturalState n = naturalState(nc, ws, s);
      // Joint space: tau + J^T fext - gravity = tau - C(q, v, fext) + C(q, v, none) - C(q, 0, none).
      updateVelocities(model, ws, s.q, s.v);
      evaluateForceElements(model, ws, kTime, s.q, s.v);
      const ForceList fext = ws.fext;
      const Eigen::VectorXd tau = ws.tau;
      Eigen::VectorXd C1(model.nv), C2(model.nv), C3(model.nv);
      biasForces(model, ws, s.q, s.v, &fext, C1);
      biasForces(model, ws, s.q, s.v, nullptr, C2);
      biasForces(model, ws, s.q, Eigen::VectorXd::Zero(model.nv), nullptr, C3);
      const Eigen::VectorXd applied = tau - C1 + C2 - C3;
      // G column by column.
      Eigen::MatrixXd G(nc.size(), model.nv);
      Eigen::VectorXd xk(nc.size()), xdk(nc.size());
      for (int k = 0; k < model.nv; ++k) {
        nc.fromJoint(ws, s.q, Eigen::VectorXd::Unit(model.nv, k), xk, xdk);
        G.col(k) = xdk;
      }
      Eigen::VectorXd Q(nc.size());
      NaturalCoordinates::TangentRows tangent = nc.tangentRows();
      nc.appliedForces(kTime, n.x, n.xd, s.q, Q, &tangent);
      EXPECT_LT(infNorm(G.transpose() * Q - applied), 1e-10 * (1.0 + infNorm(applied)))
          << bodies << " bodies, seed " << seed;
      // Spring rows: joint springs first (unit rows of their coordinate), then point springs.
      const Eigen::MatrixXd rows = tangent.gradients.dense() * G;
      int r = 0;
      for (const JointSpringDamper& js : model.jointSprings) {
        const Eigen::VectorXd unit = Eigen::VectorXd::Unit(model.nv, model.joints[js.joint].iv + js.dof);
        EXPECT_LT(infNorm(rows.row(r++).transpose() - unit), 1e-12) << js.name;
      }
      updateVelocities(model, ws, s.q, s.v);
      for (const PointSpringDamper& ps : model.pointSprings) {
        const Vec3 d = pointPosition(ws, ps.bodyB, ps.pointB) - pointPosition(ws, ps.bodyA, ps.pointA);
        const Vec3 dv = pointVelocity(ws, ps.bodyB, ps.pointB) - pointVelocity(ws, ps.bodyA, ps.pointA);
        EXPECT_NEAR(rows.row(r++).dot(s.v), d.normalized().dot(dv), 1e-11) << ps.name;
      }
    }
}

// The automatic penalty's scale is the largest body mass, not the largest entry of M: a 100 kg
// body whose frame origin lies 8 m from its centre of mass has the second moment 100 * 8^2 + its
// own about the axes through the origin (6400 kg m^2 and more), which a unit of length in mm
// would make 1e6 times larger, while its mass stays 100 kg.
TEST(NaturalCoordinates, PenaltyScaleIsTheLargestBodyMass) {
  ModelBuilder b;
  BodySpec trailer;
  trailer.name = "trailer", trailer.mass = 100.0, trailer.com = Vec3(8.0, 0, 0), trailer.inertia = Mat3::Identity();
  BodySpec bar;
  bar.name = "bar", bar.mass = 2.0, bar.inertia = 0.01 * Mat3::Identity();
  b.addBody(trailer).addBody(bar);
  JointSpec kingpin, pin;
  kingpin.name = "kingpin", kingpin.type = JointType::Revolute, kingpin.parent = "ground", kingpin.child = "trailer";
  pin.name = "pin", pin.type = JointType::Revolute, pin.parent = "trailer", pin.child = "bar";
  b.addJoint(kingpin).addJoint(pin);
  const Model model = b.build();
  const NaturalCoordinates nc(model);
  EXPECT_GT(nc.bodyMass(1).diagonal().maxCoeff(), 6400.0);
  EXPECT_EQ(nc.penaltyMassScale(), 100.0);
}

TEST(NaturalCoordinates, UnsupportedCoordinatesAreRefusedNamingTheElement) {
  ModelBuilder b;
  BodySpec body;
  body.name = "link", body.mass = 1.0, body.inertia = Mat3::Identity();
  b.addBody(body);
  JointSpec j;
  j.name = "hooke", j.type = JointType::Universal, j.parent = "ground", j.child = "link";
  j.axis = Vec3::UnitZ(), j.axis2 = Vec3::UnitY();
  b.addJoint(j);
  JointSpringSpec s;
  s.name = "twist", s.joint = "hooke", s.dof = 1, s.stiffness = 3.0;
  b.addJointSpring(s);
  const Model model = b.build();
  try {
    NaturalCoordinates nc(model);
    FAIL() << "a spring on a universal joint was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("spring-damper 'twist'"), std::string::npos) << what;
    EXPECT_NE(what.find("joint 'hooke' (universal)"), std::string::npos) << what;
  }
}

}  // namespace ARTICULA_TEST_FILE
