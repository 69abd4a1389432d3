// The analytic stiffness and damping matrices of springs and dampers (seed 001 eq. (28)-(34))
// against central differences of the generalised forces, and the global formulation's tangent
// rows in natural coordinates against them.
#include <gtest/gtest.h>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/natural_coordinates.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/dynamics/spring_damper_tangent.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "generalised_forces.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// A random tree without gravity whose only forces are joint springs and point springs, the
// point springs at their rest length: there the term the seed neglects (force times the second
// derivative of the length) vanishes, so the analytic K is the exact -dQ/dq.
Model springTree(int bodies, unsigned seed) {
  ModelBuilder b = test_models::randomTree(bodies, seed);
  b.gravity = Vec3::Zero();
  const Model bare = b.build();
  std::mt19937 gen(seed + 77);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (j.nv == 0 || !jointHasScalarCoordinates(j.type)) continue;
    JointSpringSpec s;
    s.name = "js" + std::to_string(i), s.joint = j.name, s.dof = i % j.nv;
    s.stiffness = 30.0 + 10.0 * u(gen), s.damping = 2.0 + u(gen), s.restPosition = u(gen);
    b.addJointSpring(s);
  }
  Workspace ws(bare);
  updatePositions(bare, ws, bare.q0);
  for (int k = 1; k <= bare.bodyCount(); ++k) {
    PointSpringSpec s;
    const int other = k == 1 ? 0 : 1 + static_cast<int>(gen() % static_cast<unsigned>(k - 1));
    s.name = "ps" + std::to_string(k), s.bodyA = bare.bodies[k].name, s.bodyB = bare.bodies[other].name;
    s.pointA = Vec3(0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen)), s.pointB = Vec3(0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen));
    s.restLength = (pointPosition(ws, other, s.pointB) - pointPosition(ws, k, s.pointA)).norm();
    s.stiffness = 80.0 + 20.0 * u(gen), s.damping = 3.0 + u(gen);
    b.addPointSpring(s);
  }
  return b.build();
}

Eigen::VectorXd forces(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  return test_models::generalisedForces(model, 0.0, q, v);
}

// The joint-level generalised forces (ws.tau) alone: limits and friction act only there.
Eigen::VectorXd jointForces(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Workspace ws(model);
  updateVelocities(model, ws, q, v);
  evaluateForceElements(model, ws, 0.0, q, v);
  return ws.tau;
}

struct Tangent {
  Eigen::MatrixXd K, C;
};

// K = -dQ/dq and C = -dQ/dv of Q = f(model, q, v) at (model.q0, v), by central differences with
// step 1e-6 (q moved along the joints' velocity-space increments).
template <class Forces>
Tangent centralDifferences(const Model& model, const Eigen::VectorXd& v, Forces f) {
  constexpr double eps = 1e-6;
  const int n = model.nv;
  Tangent t{Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n)};
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd step = Eigen::VectorXd::Zero(n);
    step[j] = eps;
    Eigen::VectorXd qp = model.q0, qm = model.q0;
    integrateConfiguration(model, qp, step);
    integrateConfiguration(model, qm, Eigen::VectorXd(-step));
    t.K.col(j) = -(f(model, qp, v) - f(model, qm, v)) / (2 * eps);
    t.C.col(j) = -(f(model, model.q0, v + step) - f(model, model.q0, v - step)) / (2 * eps);
  }
  return t;
}

// The analytic K and C at (model.q0, v). SpringDamperTangent writes the upper triangles and
// zeroes the strictly lower ones; they are mirrored here so that the whole matrices meet the
// central differences, which checks the symmetry too.
Tangent analytic(const Model& model, const Eigen::VectorXd& v) {
  Workspace ws(model);
  updatePositions(model, ws, model.q0);
  Tangent t{Eigen::MatrixXd::Constant(model.nv, model.nv, 1.0), Eigen::MatrixXd::Constant(model.nv, model.nv, 1.0)};
  SpringDamperTangent tangent(model);
  EXPECT_TRUE(tangent.active());
  tangent.evaluate(ws, model.q0, v, t.K, t.C);
  for (Eigen::MatrixXd* m : {&t.K, &t.C}) {
    EXPECT_EQ(Eigen::MatrixXd(m->triangularView<Eigen::StrictlyLower>()).cwiseAbs().maxCoeff(), 0.0);
    m->triangularView<Eigen::StrictlyLower>() = m->transpose();
  }
  return t;
}

}  // namespace

// Central differences with eps = 1e-6 err by about eps^2 |Q'''| ~ 1e-10 relative, and round-off
// adds 1e-16 |Q| / eps ~ 1e-10: 1e-7 relative separates them from any missing term (the
// neglected geometric stiffness away from rest length is of order 1 here).
TEST(SpringDamperTangent, MatchesCentralDifferencesOfTheForces) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model model = springTree(6, seed);
    const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
    const Tangent a = analytic(model, v0);
    const Eigen::MatrixXd &K = a.K, &C = a.C;

    // At v = 0 the velocity products are even in v and cancel in the central difference of C.
    const Tangent fd = centralDifferences(model, v0, forces);
    const Eigen::MatrixXd &Kfd = fd.K, &Cfd = fd.C;
    EXPECT_LT((K - Kfd).norm(), 1e-7 * Kfd.norm()) << "seed " << seed;
    EXPECT_LT((C - Cfd).norm(), 1e-7 * Cfd.norm()) << "seed " << seed;
  }
}

// Every scalar joint past the upper end of its range, moving, with Coulomb friction: K and C are
// the derivatives of the active stop and of the regularised friction. Same tolerance as above.
TEST(SpringDamperTangent, JointLimitsAndFrictionMatchCentralDifferences) {
  ModelBuilder b = test_models::randomTree(6, 11, false);
  const Model bare = b.build();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(bare.nv);
  for (int i = 1; i <= bare.bodyCount(); ++i) {
    const Joint& j = bare.joints[i];
    if (!jointHasScalarCoordinates(j.type)) continue;
    for (int d = 0; d < j.nv; ++d) {
      const double q = bare.q0[j.iq + d];
      b.addJointLimit({"lim" + std::to_string(i) + "_" + std::to_string(d), j.name, d, q - 1.0, q - 0.1, 1e3, 5.0, {}});
      b.addJointFriction({"fr" + std::to_string(i) + "_" + std::to_string(d), j.name, d, 2.0, 0.3, {}});
      v[j.iv + d] = 0.1 + 0.05 * d;  // slow enough that the damped stop still pushes
    }
  }
  const Model model = b.build();
  ASSERT_FALSE(model.jointLimits.empty());
  const Tangent a = analytic(model, v);
  const Eigen::MatrixXd &K = a.K, &C = a.C;
  const Tangent fd = centralDifferences(model, v, jointForces);
  const Eigen::MatrixXd &Kfd = fd.K, &Cfd = fd.C;
  EXPECT_NEAR(K.trace(), 1e3 * static_cast<double>(model.jointLimits.size()), 1e-9) << "every stop is active";
  EXPECT_LT((K - Kfd).norm(), 1e-7 * Kfd.norm());
  EXPECT_LT((C - Cfd).norm(), 1e-7 * Cfd.norm());
}

// Damping curves and engaged bump stops: K and C take the slopes of the tension. Each point
// spring's rest length is moved so that its spring and its engaged bump stop (engagement 5 mm
// beyond the current length, the spring's stiffness) cancel at q0, which keeps the neglected
// geometric term zero; each curve passes through zero with the spring's damping as slope between
// its breakpoints at -0.3 and 0.4 m/s (steeper in bump beyond, flatter in rebound). Same
// tolerance as above.
TEST(SpringDamperTangent, DampingCurvesAndBumpStopsMatchCentralDifferences) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Model linear = springTree(5, seed);
    Model model = linear;
    for (PointSpringDamper& s : model.pointSprings) {
      const double L = s.restLength, c = s.damping;
      ASSERT_GT(L, 0.01);
      s.damping = 0.0;
      s.curveVelocity = {-1.0, -0.3, 0.4, 1.0};
      s.curveForce = {-0.3 * c - 3.0 * c * 0.7, -0.3 * c, 0.4 * c, 0.4 * c + 0.5 * c * 0.6};
      s.bumpStopLength = L + 0.005;
      s.bumpStopStiffness = s.stiffness;
      s.restLength = L - 0.005;
    }
    const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
    const Tangent a = analytic(model, v0), fd = centralDifferences(model, v0, forces);
    EXPECT_LT((a.K - fd.K).norm(), 1e-7 * fd.K.norm()) << "seed " << seed;
    EXPECT_LT((a.C - fd.C).norm(), 1e-7 * fd.C.norm()) << "seed " << seed;
    // The stops double the point springs' stiffness; the curves' slope at zero is the damping.
    const Tangent plain = analytic(linear, v0);
    EXPECT_GT((a.K - plain.K).norm(), 0.1 * plain.K.norm());
    EXPECT_LT((a.C - plain.C).norm(), 1e-12 * plain.C.norm());
  }
}

// Air springs and interleaf friction: K takes the gas's rate n p A^2 / V, C the friction's slope
// F / v_s at rest. Each spring's gas pushes with the force its linear spring pulls at q0 (the rest
// length moved by 5 mm, the gauge pressure set to match), so the tension and the neglected
// geometric term vanish there. Same tolerance as above.
TEST(SpringDamperTangent, AirSpringsAndFrictionMatchCentralDifferences) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    Model model = springTree(5, seed);
    for (PointSpringDamper& s : model.pointSprings) {
      const double L = s.restLength;
      s.restLength = L - 0.005;
      s.air.area = 1e-3, s.air.volume = 2e-3, s.air.length = L, s.air.ambient = 1e5, s.air.exponent = 1.3;
      s.air.pressure = s.air.ambient + s.stiffness * 0.005 / s.air.area;
      s.frictionForce = 2.0, s.frictionSlipVelocity = 0.1;
    }
    const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model.nv);
    const Tangent a = analytic(model, v0), fd = centralDifferences(model, v0, forces);
    EXPECT_LT((a.K - fd.K).norm(), 1e-7 * fd.K.norm()) << "seed " << seed;
    EXPECT_LT((a.C - fd.C).norm(), 1e-7 * fd.C.norm()) << "seed " << seed;
  }
}

// The global formulation's analytic tangent (NaturalCoordinates::TangentRows) has the same terms
// in natural coordinates: with G = dx/dv (the natural velocities of unit joint velocities, exact:
// x-dot is linear in v), G^T K G and G^T C G are the joint-space K and C, on the car (tyres,
// damping curves, bump stops, joint springs of the anti-roll bars) and on the truck (air springs,
// leaf springs with friction), moving, every wheel on the road. Both sides form the same products
// in another order, so they agree to round-off: 1e-10 relative leaves a wide margin and would
// still show any missing term (the smallest, a tyre's lateral slip damping, is about 1e-3 of the
// norms).
TEST(SpringDamperTangent, TheGlobalFormulationsRowsAreTheSameTermsInNaturalCoordinates) {
  for (const char* file : {"car.yaml", "truck.yaml"}) {
    const Model model = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/" + file);
    ASSERT_FALSE(model.tyres.empty()) << file;
    const Eigen::VectorXd v = model.v0;
    ASSERT_GT(v.cwiseAbs().maxCoeff(), 1.0) << file << " should be moving";
    Workspace ws(model);
    updateVelocities(model, ws, model.q0, v);
    Tangent joint{Eigen::MatrixXd(model.nv, model.nv), Eigen::MatrixXd(model.nv, model.nv)};
    SpringDamperTangent(model).evaluate(ws, model.q0, v, joint.K, joint.C);
    for (Eigen::MatrixXd* m : {&joint.K, &joint.C}) m->triangularView<Eigen::StrictlyLower>() = m->transpose();

    const NaturalCoordinates nc(model);
    const int n = nc.size();
    Eigen::VectorXd x(n), xd(n), Q(n);
    Eigen::MatrixXd G(n, model.nv);
    for (int k = 0; k < model.nv; ++k) {
      nc.fromJoint(ws, model.q0, Eigen::VectorXd::Unit(model.nv, k), x, xd);
      G.col(k) = xd;
    }
    nc.fromJoint(ws, model.q0, v, x, xd);
    NaturalCoordinates::TangentRows rows = nc.tangentRows();
    nc.appliedForces(0.0, x, xd, model.q0, Q, &rows);
    const Eigen::MatrixXd g = rows.gradients.dense() * G;
    const Eigen::MatrixXd K = g.transpose() * rows.stiffness.asDiagonal() * g;
    const Eigen::MatrixXd C = g.transpose() * rows.damping.asDiagonal() * g;
    EXPECT_LT((K - joint.K).norm(), 1e-10 * joint.K.norm()) << file;
    EXPECT_LT((C - joint.C).norm(), 1e-10 * joint.C.norm()) << file;
    // Every tyre loaded: its three rows carry the radial stiffness and three dampings.
    const int firstTyreRow = rows.gradients.rows() - 3 * static_cast<int>(model.tyres.size());
    for (std::size_t k = 0; k < model.tyres.size(); ++k) {
      const int r = firstTyreRow + 3 * static_cast<int>(k);
      EXPECT_EQ(rows.stiffness[r], model.tyres[k].radialStiffness) << file << " " << model.tyres[k].name;
      EXPECT_GT(rows.damping.segment<3>(r).minCoeff(), 0.0) << file << " " << model.tyres[k].name;
    }
  }
}

TEST(SpringDamperTangent, InactiveWithoutSpringsOrDampers) {
  const Model model = test_models::randomTree(4, 3).build();
  EXPECT_FALSE(SpringDamperTangent(model).active());
}

}  // namespace ARTICULA_TEST_FILE
