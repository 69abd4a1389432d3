// The global formulation (natural coordinates + index-3 augmented Lagrangian,
// sparse Cholesky, or sparse LU with the finite-difference tangent) with the
// structural integrators, checked against the reference and the hybrid
// formulations.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <string_view>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/global.hpp"
#include "articula/dynamics/natural_force_derivatives.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/system.hpp"
// GCC 12 reports a false -Wrestrict in random_model.hpp's string concatenations
// once inlined here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "../unit/random_model.hpp"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include "index3_support.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
using namespace articula::test_models;

namespace {

BodySpec rod(const std::string &name) {
  BodySpec b;
  b.name = name;
  b.mass = 1.0;
  b.com = Vec3(0.5, 0, 0);
  b.inertia = boxInertia(1.0, Vec3(1.0, 0.02, 0.02));
  return b;
}

// A double pendulum whose shoulder is driven (prescribed motion), with a
// spring-damper on the elbow, a point spring-damper from the ground to the
// lower rod's tip, a world torque on the lower rod and a joint load on the
// elbow: every element natural coordinates map, on a one-dof system.
Model drivenPendulum() {
  ModelBuilder b;
  b.name = "driven_pendulum";
  b.addBody(rod("upper")).addBody(rod("lower"));
  JointSpec shoulder;
  shoulder.name = "shoulder", shoulder.type = JointType::Revolute, shoulder.parent = "ground", shoulder.child = "upper";
  shoulder.q0 = {-1.0};
  JointSpec elbow;
  elbow.name = "elbow", elbow.type = JointType::Revolute, elbow.parent = "upper", elbow.child = "lower";
  elbow.position = Vec3(1, 0, 0), elbow.q0 = {0.4};
  b.addJoint(shoulder).addJoint(elbow);
  PrescribedMotionSpec drive;
  drive.name = "drive", drive.joint = "shoulder";
  drive.position = TimeFunction::sine(0.4, 0.5, 0.0, -1.0);
  b.addPrescribedMotion(drive);
  b.addJointSpring({"elbow_spring", "elbow", 0, 8.0, 0.3, 0.2, {}});
  b.addPointSpring({"tip_spring", "ground", "lower", Vec3(1.5, 0.5, 0.0), Vec3(1.0, 0, 0), 15.0, 0.5, 0.6, {}});
  BodyLoadSpec torque;
  torque.name = "twist", torque.body = "lower", torque.torque = true;
  torque.direction = Vec3::UnitZ(), torque.magnitude = TimeFunction::sine(0.8, 0.7);
  b.addBodyLoad(torque);
  JointLoadSpec load;
  load.name = "elbow_load", load.joint = "elbow", load.magnitude = TimeFunction::constant(0.3);
  b.addJointLoad(load);
  return b.build();
}

// World position of the point p of body b in natural coordinates x.
Vec3 worldPoint(const Eigen::VectorXd &x, int body, const Vec3 &p) {
  if (body == 0) return p;
  const int o = NaturalCoordinates::offset(body);
  return x.segment<3>(o) + p.x() * x.segment<3>(o + 3) + p.y() * x.segment<3>(o + 6) + p.z() * x.segment<3>(o + 9);
}

// A random tree (every joint type) with spring-dampers on the scalar joint
// coordinates natural coordinates map and point spring-dampers between random
// bodies (some to the ground), each spring at its rest length or position in
// the model's initial configuration.
Model relaxedSprings(unsigned seed) {
  ModelBuilder b = test_models::randomTree(6, seed);
  const Model bare = b.build();
  const NaturalCoordinates nc(bare);
  Workspace ws(bare);
  Eigen::VectorXd x(nc.size()), xd(nc.size());
  nc.fromJoint(ws, bare.q0, bare.v0, x, xd);
  std::mt19937 gen(seed + 7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint &j = bare.joints[i];
    if (j.nv == 0 || !jointHasScalarCoordinates(j.type) || j.type == JointType::Universal) continue;
    JointSpringSpec s;
    s.name = "spring_" + j.name, s.joint = j.name, s.dof = i % j.nv;
    s.stiffness = 20.0 + 10.0 * u(gen), s.damping = 1.0 + 0.5 * u(gen), s.restPosition = bare.q0[j.iq + s.dof];
    b.addJointSpring(s);
  }
  for (int k = 1; k <= bare.bodyCount(); ++k) {
    const int other = std::uniform_int_distribution<int>(0, bare.bodyCount())(gen);
    PointSpringSpec s;
    s.name = "ps" + std::to_string(k), s.bodyA = bare.bodies[k].name;
    s.bodyB = other == k ? std::string("ground") : bare.bodies[other].name;
    s.pointA = 0.3 * Vec3(u(gen), u(gen), u(gen)), s.pointB = 0.3 * Vec3(u(gen), u(gen), u(gen));
    s.stiffness = 60.0 + 20.0 * u(gen), s.damping = 2.0 + u(gen);
    s.restLength = (worldPoint(x, other == k ? 0 : other, s.pointB) - worldPoint(x, k, s.pointA)).norm();
    b.addPointSpring(s);
  }
  return b.build();
}

}  // namespace

// Second-order methods at h = 1e-4 over 5 s against the reference (rk45 at
// 1e-12) and against the hybrid formulation with the same integrator and step,
// both within 1e3 h^2 (the bound of test_hybrid.cpp). The two index-3
// formulations discretise the same equations in different coordinates, so their
// difference is of the order of their errors.
TEST(Global, SecondOrderIntegratorsAgreeWithTheReferenceAndTheHybridFormulation) {
  constexpr double h = 1e-4;
  for (const Model &model : {modelFile("double_pendulum.yaml"), fourBar()}) {
    const Eigen::VectorXd reference = referencePositions(model, 5.0);
    for (const char *integrator : {"trapezoidal", "hht", "generalized-alpha"}) {
      const Eigen::VectorXd global = finalPositions(model, structural("global", integrator, h, 5.0));
      const Eigen::VectorXd hybrid = finalPositions(model, structural("hybrid", integrator, h, 5.0));
      ASSERT_EQ(global.size(), reference.size());
      const double toReference = infNorm(global - reference), toHybrid = infNorm(global - hybrid);
      std::cout << "[ global ] " << model.name << " " << integrator << ": |q - q_reference| = " << toReference
                << ", |q - q_hybrid| = " << toHybrid << ", hybrid to reference " << infNorm(hybrid - reference) << "\n";
      EXPECT_LT(toReference, 1e3 * h * h) << model.name << " " << integrator;
      EXPECT_LT(toHybrid, 1e3 * h * h) << model.name << " " << integrator;
    }
  }
}

// Newmark with dissipation is first order (error about 7e3 |xi| h on the
// four-bar with the hybrid formulation); the bound of test_hybrid.cpp.
TEST(Global, NewmarkAgreesWithTheReferenceToItsFirstOrderError) {
  constexpr double h = 1e-4, xi = -0.01;
  for (const Model &model : {modelFile("double_pendulum.yaml"), fourBar()}) {
    const Eigen::VectorXd reference = referencePositions(model, 5.0);
    const double e = infNorm(finalPositions(model, structural("global", "newmark", h, 5.0, xi)) - reference);
    std::cout << "[ global ] " << model.name << " newmark xi = " << xi << ": |q - q_reference| = " << e << "\n";
    EXPECT_LT(e, 2e4 * std::abs(xi) * h) << model.name;
  }
}

// A spatial case: the second rod turns about its own y axis, out of the plane.
TEST(Global, SpatialDoublePendulumAgreesWithTheReference) {
  constexpr double h = 1e-4;
  const Model model = modelFile("spatial_double_pendulum.yaml");
  const Eigen::VectorXd reference = referencePositions(model, 5.0);
  for (const char *integrator : {"trapezoidal", "generalized-alpha"}) {
    const double e = infNorm(finalPositions(model, structural("global", integrator, h, 5.0)) - reference);
    std::cout << "[ global ] " << model.name << " " << integrator << ": |q - q_reference| = " << e << "\n";
    EXPECT_LT(e, 1e3 * h * h) << integrator;
  }
}

// Every joint type (random trees of five bodies: cylindrical, universal,
// spherical, free, planar, revolute, prismatic and fixed joints at random
// places) against the articulated-body algorithm with rk45 at 1e-12, 1 s: the
// error falls fourfold when the step halves (second order) and stays below 5e3
// h^2 at the lower step (largest observed at h = 1e-4: global 8e-6,
// hybrid 1.9e-5, both seed 2, in a free joint). The hybrid formulation is
// checked alike: its increments on a free joint go through the SE(3)
// exponential (model/joint.cpp), without which it was first order.
TEST(Global, EveryJointTypeConvergesWithSecondOrderToTheTreeDynamics) {
  for (const char *formulation : {"global", "hybrid"})
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTree(5, seed).build();
      SimulationOptions ro;
      ro.formulation = "aba";
      ro.integratorOptions.rtol = ro.integratorOptions.atol = 1e-12;
      ro.integratorOptions.dt = 0.0;
      ro.tEnd = ro.outputInterval = 1.0;
      const Eigen::VectorXd reference = finalPositions(model, ro);
      const double coarse =
          infNorm(finalPositions(model, structural(formulation, "trapezoidal", 4e-4, 1.0)) - reference);
      const double fine = infNorm(finalPositions(model, structural(formulation, "trapezoidal", 2e-4, 1.0)) - reference);
      std::cout << "[ " << formulation << " ] random tree seed " << seed << ": |q - q_aba| = " << coarse
                << " (h = 4e-4), " << fine << " (h = 2e-4), order " << std::log2(coarse / fine) << "\n";
      EXPECT_NEAR(std::log2(coarse / fine), 2.0, 0.2) << formulation << " seed " << seed;
      EXPECT_LT(fine, 5e3 * 2e-4 * 2e-4) << formulation << " seed " << seed;
    }
}

// Joint and point springs, dampers, loads and prescribed motion (driven
// pendulum, 3 s), and a prismatic joint with a spring (cart pendulum, 5 s),
// against the reference.
TEST(Global, ForceElementsAndPrescribedMotionAgreeWithTheReference) {
  constexpr double h = 1e-4;
  for (const Model &model : {drivenPendulum(), modelFile("cart_pendulum.yaml")}) {
    const double tEnd = model.name == "driven_pendulum" ? 3.0 : 5.0;
    const Eigen::VectorXd reference = referencePositions(model, tEnd);
    for (const char *integrator : {"trapezoidal", "hht"}) {
      const double e = infNorm(finalPositions(model, structural("global", integrator, h, tEnd)) - reference);
      std::cout << "[ global ] " << model.name << " " << integrator << ": |q - q_reference| = " << e << "\n";
      EXPECT_LT(e, 1e3 * h * h) << model.name << " " << integrator;
    }
  }
}

// After every step, in joint coordinates (the bounds of test_hybrid.cpp:
// positions 1e-10, velocities and accelerations 1e-11) and in natural
// coordinates (|Phi| to the Newton tolerance, |Phi_x xd - nu| and |Phi_x xdd -
// gamma| to the projection tolerance).
TEST(Global, ConstraintResidualsAfterEveryStep) {
  const Model model = fourBar();
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  Eigen::VectorXd x0(model.nq + model.nv), a0(model.nv);
  x0 << q, v;
  ReferenceFormulation(model, {}).accelerations(0.0, q, v, a0);
  ConstraintProjector residuals(model);
  constexpr double h = 2e-3;
  for (std::string_view integrator : structuralIntegratorNames()) {
    GlobalFormulation problem(model);
    const NaturalCoordinates &nc = problem.coordinates();
    const int m = nc.constraintCount();
    Eigen::VectorXd phi(m), nu(m), gamma(m), Jy(m);
    SparseRows J = nc.jacobianPattern();
    problem.start(0.0, x0, a0, structuralParameters(integrator, NAN));
    Eigen::VectorXd x = x0, a = a0, xNew(x0.size()), fNew(x0.size());
    double worstPosition = 0.0, worstVelocity = 0.0, worstAcceleration = 0.0;
    double worstNaturalPosition = 0.0, worstNaturalVelocity = 0.0, worstNaturalAcceleration = 0.0;
    for (int k = 1; k <= 2500; ++k) {
      const NewtonReport report = problem.step((k - 1) * h, h, x, a, xNew, fNew);
      ASSERT_TRUE(report.converged) << integrator << " step " << k;
      const double t = k * h;
      x = xNew;
      a = fNew.tail(model.nv);
      worstPosition = std::max(worstPosition, residuals.positionError(t, x.head(model.nq)));
      worstVelocity = std::max(worstVelocity, residuals.velocityError(t, x.head(model.nq), x.tail(model.nv)));
      worstAcceleration = std::max(worstAcceleration, accelerationResidual(model, t, x, a));
      nc.jacobian(t, problem.positions(), phi, J, nu);
      nc.accelerationBias(t, problem.positions(), problem.velocities(), gamma);
      worstNaturalPosition = std::max(worstNaturalPosition, infNorm(phi));
      J.multiply(problem.velocities(), Jy);
      worstNaturalVelocity = std::max(worstNaturalVelocity, infNorm(Jy - nu));
      J.multiply(problem.accelerations(), Jy);
      worstNaturalAcceleration = std::max(worstNaturalAcceleration, infNorm(Jy - gamma));
    }
    std::cout << "[ global ] " << integrator << " worst residuals, joint coordinates: " << worstPosition << ", "
              << worstVelocity << ", " << worstAcceleration << "; natural: " << worstNaturalPosition << ", "
              << worstNaturalVelocity << ", " << worstNaturalAcceleration << "\n";
    EXPECT_LT(worstPosition, 1e-10) << integrator;
    EXPECT_LT(worstVelocity, 1e-11) << integrator;
    EXPECT_LT(worstAcceleration, 1e-11) << integrator;
    EXPECT_LT(worstNaturalPosition, 1e-10) << integrator;
    EXPECT_LT(worstNaturalVelocity, 1e-11) << integrator;
    EXPECT_LT(worstNaturalAcceleration, 1e-11) << integrator;
  }
}

// The tangent matrix is sparse: its pattern, fixed per model, holds far fewer
// entries than the dense upper triangle (a chain couples neighbours only).
TEST(Global, TangentMatrixIsSparse) {
  ModelBuilder b;
  b.name = "chain";
  for (int k = 0; k < 20; ++k) {
    b.addBody(rod(std::string("r") + std::to_string(k)));
    JointSpec j;
    j.name = std::string("j") + std::to_string(k), j.type = JointType::Revolute;
    j.parent = k == 0 ? std::string("ground") : std::string("r") + std::to_string(k - 1);
    j.child = std::string("r") + std::to_string(k);
    j.position = k == 0 ? Vec3::Zero() : Vec3(1, 0, 0);
    b.addJoint(j);
  }
  const Model model = b.build();
  GlobalFormulation problem(model);
  const long n = problem.coordinates().size();
  EXPECT_EQ(n, 240);
  EXPECT_LT(problem.tangentNonZeros(), n * (n + 1) / 2 / 5);
  EXPECT_LT(problem.factorNonZeros(), n * (n + 1) / 2 / 3);
}

// The registry: "global" is an index-3 formulation for closed loops; asked for
// in ODE form it says which integrators it needs.
TEST(Global, IsRegisteredAsAnIndexThreeFormulation) {
  bool listed = false;
  for (const auto &f : formulations())
    if (f.name == "global") listed = f.index3 && f.closedLoops;
  EXPECT_TRUE(listed);
  const Model model = fourBar();
  EXPECT_NE(dynamic_cast<GlobalFormulation *>(makeIndex3Problem("global", model).get()), nullptr);
  try {
    makeFormulation("global", model);
    FAIL() << "the global formulation was accepted in ODE form";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("structural integrator"), std::string::npos) << e.what();
  }
}

// Finite-difference K = -dQ/dx and C = -dQ/dxd in natural coordinates (seed
// 004 eq. (52)-(53)) against the analytic spring-damper terms k g g^T and
// c g g^T (seed 001 eq. (31), (34)) where these are exact. C is, at any state:
// Q is linear in the velocities. K is where the terms it neglects vanish: the
// tension (or torque) times the second derivatives of the spring coordinate,
// and the damping times the derivative of the coordinate's rate, H xd. So every
// spring sits at its rest length or position, at rest for K, moving for C.
// Forward differences with the step h = sqrt(eps) (1 + |x_j|) err by
// h/2 |Q''| + eps |Q| / h per entry: O(sqrt(eps)) relative to the size of Q, K
// and Q''; the bound is 1e2 sqrt(eps) (1 + |Q| + |K|) (largest observed: a
// hundredth of it).
TEST(Global, FiniteDifferenceStiffnessAndDampingMatchTheExactSpringTerms) {
  const double bound = 1e2 * std::sqrt(std::numeric_limits<double>::epsilon());
  for (unsigned seed = 0; seed < 4; ++seed) {
    const Model model = relaxedSprings(seed);
    const NaturalCoordinates nc(model);
    Workspace ws(model);
    const int n = nc.size();
    Eigen::VectorXd x(n), xd(n), Q(n);
    for (bool moving : {false, true}) {
      nc.fromJoint(ws, model.q0, moving ? model.v0 : Eigen::VectorXd::Zero(model.nv), x, xd);
      NaturalCoordinates::TangentRows g = nc.tangentRows();
      nc.appliedForces(0.3, x, xd, model.q0, Q, &g);
      const Eigen::MatrixXd G = g.gradients.dense();
      const Eigen::MatrixXd K = G.transpose() * g.stiffness.asDiagonal() * G;
      const Eigen::MatrixXd C = G.transpose() * g.damping.asDiagonal() * G;
      NaturalForceDerivatives d(nc);
      d.evaluate(0.3, x, xd, model.q0, Q);
      const double errorK = (d.denseStiffness() - K).cwiseAbs().maxCoeff();
      const double errorC = (d.denseDamping() - C).cwiseAbs().maxCoeff();
      const double scale = 1.0 + Q.cwiseAbs().maxCoeff() + K.cwiseAbs().maxCoeff();
      std::cout << "[ global ] finite-difference K, C of relaxed springs, seed " << seed
                << (moving ? " moving" : " at rest") << ": |K - k g g^T| = " << errorK << ", |C - c g g^T| = " << errorC
                << " (scale " << scale << ")\n";
      EXPECT_GT(K.cwiseAbs().maxCoeff(), 10.0) << seed;
      EXPECT_GT(C.cwiseAbs().maxCoeff(), 1.0) << seed;
      if (!moving) {
        EXPECT_LT(errorK, bound * scale) << seed;
      }
      EXPECT_LT(errorC, bound * scale) << seed << (moving ? " moving" : " at rest");
    }
  }
}

// Every change of Q that perturbing one natural coordinate (position or
// velocity) causes lies in the stored pattern of its column: outside it, the
// perturbed forces are bitwise those of the unperturbed state. Random trees
// with every kind of force element.
TEST(Global, FiniteDifferencePatternHoldsEveryEntryThatCanChange) {
  for (unsigned seed = 0; seed < 3; ++seed) {
    const Model model = test_models::randomTreeWithForceElements(6, seed, false);
    const NaturalCoordinates nc(model);
    Workspace ws(model);
    const int n = nc.size();
    Eigen::VectorXd x(n), xd(n), Q0(n), Q(n);
    nc.fromJoint(ws, model.q0, model.v0, x, xd);
    nc.appliedForces(0.3, x, xd, model.q0, Q0);
    const NaturalForceDerivatives d(nc);
    for (int j = 0; j < n; ++j)
      for (bool position : {true, false}) {
        Eigen::VectorXd xp = x, xdp = xd;
        (position ? xp : xdp)[j] += 1e-3;
        nc.appliedForces(0.3, xp, xdp, model.q0, Q);
        std::vector<char> inPattern(static_cast<std::size_t>(n), 0);
        for (int k = d.columnStart()[j]; k < d.columnStart()[j + 1]; ++k) inPattern[d.rowIndex()[k]] = 1;
        for (int r = 0; r < n; ++r) {
          if (inPattern[r]) continue;
          EXPECT_EQ(Q[r], Q0[r]) << "seed " << seed << " column " << j << " row " << r;
        }
      }
  }
}

// Bit for bit the same K and C with 1, 2 and 3 threads, with and without
// grouping columns (which groups, here: fewer evaluations than columns).
TEST(Global, FiniteDifferenceTangentIsTheSameForEveryThreadCountAndGrouping) {
  for (unsigned seed = 0; seed < 3; ++seed) {
    const Model model = test_models::randomTreeWithForceElements(8, seed, false);
    const NaturalCoordinates nc(model);
    Workspace ws(model);
    const int n = nc.size();
    Eigen::VectorXd x(n), xd(n), Q(n);
    nc.fromJoint(ws, model.q0, model.v0, x, xd);
    nc.appliedForces(0.3, x, xd, model.q0, Q);
    NaturalForceDerivatives serial(nc, {1, false});
    serial.evaluate(0.3, x, xd, model.q0, Q);
    EXPECT_GT(serial.denseStiffness().cwiseAbs().maxCoeff(), 1.0) << seed;
    EXPECT_GT(serial.denseDamping().cwiseAbs().maxCoeff(), 1.0) << seed;
    for (const ForceDerivativeOptions o :
         {ForceDerivativeOptions{1, true}, ForceDerivativeOptions{2, false}, ForceDerivativeOptions{2, true},
          ForceDerivativeOptions{3, false}, ForceDerivativeOptions{3, true}}) {
      NaturalForceDerivatives d(nc, o);
      d.evaluate(0.3, x, xd, model.q0, Q);
      EXPECT_EQ(d.denseStiffness(), serial.denseStiffness())
          << seed << " threads " << o.threads << " grouped " << o.groupColumns;
      EXPECT_EQ(d.denseDamping(), serial.denseDamping())
          << seed << " threads " << o.threads << " grouped " << o.groupColumns;
      if (o.groupColumns) {
        EXPECT_LT(d.positionGroups().size(), serial.positionGroups().size()) << seed;
        EXPECT_LT(d.velocityGroups().size(), serial.velocityGroups().size()) << seed;
      }
    }
  }
}

// The tangent matrix steers the Newton iteration and sets the metric of the
// projections (eq. (35)-(36)), not the discrete equations solved: with
// finite-difference K and C of all forces, factorised by KLU, the four-bar with
// a spring-damper follows the analytic-tangent run (CHOLMOD) to within a
// thousandth of the discretisation error bound of the tests above (h^2 against
// 1e3 h^2; measured 2e-8 against 3e-5 to the reference), reaches the reference
// within that bound, and takes as many Newton iterations to 1 % (the
// numerical tangent holds the geometric stiffness the analytic one neglects).
// One thread: the thread counts are compared bit for bit above.
TEST(Global, FiniteDifferenceTangentGivesTheSameMotion) {
  const Model model = test_models::fourBarWithShock();
  constexpr double h = 1e-3, tEnd = 1.0;
  SimulationOptions analytic = structural("global", "trapezoidal", h, tEnd);
  SimulationOptions numeric = analytic;
  numeric.augmentedLagrangian.finiteDifferenceTangent = true;
  test_models::Recorder a, f;
  const SimulationResult ra = simulate(model, analytic, {&a}), rf = simulate(model, numeric, {&f});
  ASSERT_TRUE(ra.ok && rf.ok) << ra.error << rf.error;
  const Eigen::VectorXd reference = referencePositions(model, tEnd);
  const double toAnalytic = infNorm(f.q.back() - a.q.back()), toReference = infNorm(f.q.back() - reference);
  std::cout << "[ global ] finite-difference tangent: |q - q_analytic| = " << toAnalytic
            << ", |q - q_reference| = " << toReference << " (analytic " << infNorm(a.q.back() - reference)
            << "); Newton iterations " << rf.evaluations << " vs " << ra.evaluations << "\n";
  EXPECT_LT(toAnalytic, h * h);
  EXPECT_LT(toReference, 1e3 * h * h);
  EXPECT_LE(rf.evaluations, 1.01 * ra.evaluations);
}

// A Newton iterate at which a force cannot be evaluated is a failed iteration, not a failed run:
// an axle thrown up at 3 m/s into an air spring that empties 0.1 m above it (V = 0.005 m^3 at
// 0.3 m on 0.05 m^2, 0.1 bar over ambient) overshoots into the empty bellows at the first iterate
// of a 0.05 s step (0.15 m of travel predicted), which is retried with halved steps; the gas
// stops the axle short of the bottom. Both index-3 formulations, the global one with either
// tangent.
TEST(Global, AnIterateWithUndefinedForcesIsRetriedWithASmallerStep) {
  const Model model = parseModelYaml(R"(
gravity: [0, 0, -9.81]
bodies:
  - {name: axle, mass: 100, inertia: [1, 1, 1]}
joints:
  - {name: heave, type: prismatic, parent: ground, child: axle, axis: [0, 0, 1], q: 0.5, v: 3}
forces:
  - {name: bag, type: air_spring, body_a: axle, body_b: ground, point_b: [0, 0, 0.8], area: 0.05, volume: 0.005, pressure: 1.0e+4, length: 0.3}
)", "bellows.yaml").build();
  for (const auto& [formulation, finiteDifference] :
       {std::pair{"global", false}, std::pair{"global", true}, std::pair{"hybrid", false}}) {
    const std::string name = std::string(formulation) + (finiteDifference ? " (finite-difference tangent)" : "");
    SimulationOptions o = structural(formulation, "trapezoidal", 0.05, 0.5);
    o.outputInterval = 0.01;
    o.augmentedLagrangian.finiteDifferenceTangent = finiteDifference;
    test_models::Recorder r;
    const SimulationResult result = simulate(model, o, {&r});
    ASSERT_TRUE(result.ok) << name << ": " << result.error;
    EXPECT_GT(result.rejectedSteps, 0) << name << ": the first iterate should have bottomed out";
    // The gas's work stops the axle's 450 J at about 0.25 m (adiabatic compression to V0 / 2).
    double shortest = 1.0;
    for (const Eigen::VectorXd& q : r.q) shortest = std::min(shortest, 0.8 - q[0]);
    EXPECT_GT(shortest, 0.2) << name;
    EXPECT_LT(shortest, 0.3) << name;
  }
}

// The LU pivot order is part of the state with the finite-difference tangent:
// a structural integrator restored mid-run continues bit for bit (as
// IndexThree.RestoredIntegratorContinuesBitForBit checks for the analytic one).
TEST(Global, FiniteDifferenceTangentRestoredContinuesBitForBit) {
  AugmentedLagrangianOptions options;
  options.finiteDifferenceTangent = true;
  expectRestoredContinuesBitForBit(test_models::fourBarWithShock(), "global", options);
}

}  // namespace ARTICULA_TEST_FILE
