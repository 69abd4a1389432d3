// The reverse-mode derivatives of dynamics/forward_dynamics_adjoint.hpp against central
// differences of the articulated-body algorithm: abar^T dvdot/dq, abar^T dvdot/dv and
// abar^T dvdot/dtau on random trees of every supported joint type, with gravity, joint springs,
// end stops, friction, loads on bodies and spring-dampers between bodies.
#include <gtest/gtest.h>

#include <random>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/forward_dynamics_adjoint.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "random_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// vdot(q, v, tau) with the model's force elements at t: the function differentiated.
Eigen::VectorXd accelerations(const Model& m, Workspace& ws, double t, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& v, const Eigen::VectorXd& tau) {
  updateVelocities(m, ws, q, v);
  evaluateForceElements(m, ws, t, q, v);
  const Eigen::VectorXd total = tau + ws.tau;
  Eigen::VectorXd vdot(m.nv);
  spatialForwardDynamics(m, ws, q, v, total, &ws.fext, vdot);
  return vdot;
}

Model supportedTree(int bodies, unsigned seed) { return test_models::adjointTree(bodies, seed).build(); }

TEST(ForwardDynamicsAdjoint, MatchesCentralDifferencesOfTheArticulatedBodyAlgorithm) {
  for (const auto& [bodies, seed] : {std::pair{1, 6u}, {2, 5u}, {6, 11u}, {12, 17u}, {24, 29u}}) {
    SCOPED_TRACE("bodies " + std::to_string(bodies) + ", seed " + std::to_string(seed));
    const Model m = supportedTree(bodies, seed);
    ASSERT_EQ(ForwardDynamicsAdjoint::unsupported(m), "");
    Workspace ws(m);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd tau(m.nv), abar(m.nv);
    for (int k = 0; k < m.nv; ++k) tau[k] = 3.0 * u(gen), abar[k] = u(gen);
    const double t = 0.3;
    const Eigen::VectorXd q = m.q0, v = m.v0, vdot = accelerations(m, ws, t, q, v, tau);

    ForwardDynamicsAdjoint adjoint(m);
    Eigen::VectorXd qbar = Eigen::VectorXd::Zero(m.nq), vbar = Eigen::VectorXd::Zero(m.nv);
    const Eigen::VectorXd w = adjoint.accumulate(t, q, v, vdot, abar, qbar, vbar);

    // Central differences of abar . vdot: truncation O(h^2) and round-off eps / h give about
    // 1e-9 of the largest entry with h = 1e-5 (at h = 1e-6 the round-off of the 6-body tree's
    // planar joint reached 1.4e-7); 1e-7 leaves room for the stops' kinks nowhere near.
    const double h = 1e-5;
    const auto difference = [&](auto perturb) {
      Eigen::VectorXd qp = q, vp = v, tp = tau, qm = q, vm = v, tm = tau;
      perturb(qp, vp, tp, h);
      perturb(qm, vm, tm, -h);
      return (abar.dot(accelerations(m, ws, t, qp, vp, tp)) - abar.dot(accelerations(m, ws, t, qm, vm, tm))) / (2 * h);
    };
    Eigen::VectorXd dq(m.nq), dv(m.nv), dtau(m.nv);
    for (int k = 0; k < m.nq; ++k) dq[k] = difference([k](auto& qq, auto&, auto&, double e) { qq[k] += e; });
    for (int k = 0; k < m.nv; ++k) dv[k] = difference([k](auto&, auto& vv, auto&, double e) { vv[k] += e; });
    for (int k = 0; k < m.nv; ++k) dtau[k] = difference([k](auto&, auto&, auto& tt, double e) { tt[k] += e; });
    const double scale = std::max({dq.cwiseAbs().maxCoeff(), dv.cwiseAbs().maxCoeff(), dtau.cwiseAbs().maxCoeff()});
    EXPECT_LT((qbar - dq).cwiseAbs().maxCoeff(), 1e-7 * scale);
    EXPECT_LT((vbar - dv).cwiseAbs().maxCoeff(), 1e-7 * scale);
    EXPECT_LT((w - dtau).cwiseAbs().maxCoeff(), 1e-7 * scale);
  }
}

// HADCA: w = M^-1 abar from the divide-and-conquer handle equations instead of the articulated-body
// passes; the rest of the sweep is shared, so the products differ by the two solves' round-off
// only (the DCA's eliminations and the ABA's: at most 5.4e-14 of the largest entry measured on
// these trees, 1e-12 asked), and every thread count gives the same numbers bit for bit (fixed tree, fixed
// order of the sums).
TEST(ForwardDynamicsAdjoint, DivideAndConquerSolveAgreesWithTheArticulatedBodyOne) {
  using Solve = ForwardDynamicsAdjoint::MassSolve;
  for (const auto& [bodies, seed] : {std::pair{1, 6u}, {5, 3u}, {16, 17u}, {64, 29u}}) {
    SCOPED_TRACE("bodies " + std::to_string(bodies) + ", seed " + std::to_string(seed));
    const Model m = supportedTree(bodies, seed);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd abar(m.nv), vdot(m.nv);
    for (int k = 0; k < m.nv; ++k) abar[k] = u(gen), vdot[k] = 2.0 * u(gen);
    struct Products {
      Eigen::VectorXd w, qbar, vbar;
    };
    const auto products = [&](Solve solve, int threads) {
      FormulationOptions o;
      o.threads = threads;
      ForwardDynamicsAdjoint adjoint(m, o, solve);
      Products r{{}, Eigen::VectorXd::Zero(m.nq), Eigen::VectorXd::Zero(m.nv)};
      r.w = adjoint.accumulate(0.2, m.q0, m.v0, vdot, abar, r.qbar, r.vbar);
      return r;
    };
    const Products aba = products(Solve::ArticulatedBody, 1), dca1 = products(Solve::DivideAndConquer, 1),
                   dca2 = products(Solve::DivideAndConquer, 2);
    const double scale = std::max({aba.w.cwiseAbs().maxCoeff(), aba.qbar.cwiseAbs().maxCoeff(), aba.vbar.cwiseAbs().maxCoeff()});
    EXPECT_LT((dca1.w - aba.w).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((dca1.qbar - aba.qbar).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((dca1.vbar - aba.vbar).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_EQ(dca1.w, dca2.w);
    EXPECT_EQ(dca1.qbar, dca2.qbar);
    EXPECT_EQ(dca1.vbar, dca2.vbar);
  }
}

TEST(ForwardDynamicsAdjoint, LoadWeightIsTheDerivativeInTheLoadsMagnitude) {
  Model m = supportedTree(7, 19);
  ASSERT_FALSE(m.bodyLoads.empty());
  Workspace ws(m);
  const double t = 0.4;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv), abar = Eigen::VectorXd::LinSpaced(m.nv, -1.0, 2.0);
  ForwardDynamicsAdjoint adjoint(m);
  Eigen::VectorXd qbar = Eigen::VectorXd::Zero(m.nq), vbar = Eigen::VectorXd::Zero(m.nv);
  adjoint.accumulate(t, m.q0, m.v0, accelerations(m, ws, t, m.q0, m.v0, tau), abar, qbar, vbar);
  for (BodyLoad& l : m.bodyLoads) {
    // abar . vdot is linear in the magnitude: a wide step has no truncation error and little round-off.
    const double weight = adjoint.loadWeight(l), value = l.magnitude.value(t), h = 0.1;
    const TimeFunction original = l.magnitude;
    l.magnitude = TimeFunction::constant(value + h);
    const double up = abar.dot(accelerations(m, ws, t, m.q0, m.v0, tau));
    l.magnitude = TimeFunction::constant(value - h);
    const double down = abar.dot(accelerations(m, ws, t, m.q0, m.v0, tau));
    l.magnitude = original;
    EXPECT_NEAR(weight, (up - down) / (2 * h), 1e-8 * (1.0 + std::abs(weight))) << l.name;
  }
}

TEST(ForwardDynamicsAdjoint, AddsToTheGivenVectors) {
  const Model m = supportedTree(5, 7);
  Workspace ws(m);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv), abar = Eigen::VectorXd::Ones(m.nv);
  const Eigen::VectorXd vdot = accelerations(m, ws, 0.0, m.q0, m.v0, tau);
  ForwardDynamicsAdjoint adjoint(m);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(m.nq), v0 = Eigen::VectorXd::Zero(m.nv);
  adjoint.accumulate(0.0, m.q0, m.v0, vdot, abar, q0, v0);
  Eigen::VectorXd q1 = Eigen::VectorXd::Constant(m.nq, 2.0), v1 = Eigen::VectorXd::Constant(m.nv, -3.0);
  adjoint.accumulate(0.0, m.q0, m.v0, vdot, abar, q1, v1);
  EXPECT_LT((q1 - q0 - Eigen::VectorXd::Constant(m.nq, 2.0)).norm(), 1e-12 * q0.norm());
  EXPECT_LT((v1 - v0 - Eigen::VectorXd::Constant(m.nv, -3.0)).norm(), 1e-12 * v0.norm());
}

TEST(ForwardDynamicsAdjoint, PointForcesMatchThePointJacobian) {
  const Model m = supportedTree(9, 13);
  Workspace ws(m);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv);
  ForwardDynamicsAdjoint adjoint(m);
  Eigen::VectorXd qbar = Eigen::VectorXd::Zero(m.nq), vbar = Eigen::VectorXd::Zero(m.nv);
  adjoint.accumulate(0.0, m.q0, m.v0, zero, zero, qbar, vbar);
  updatePositions(m, ws, m.q0);
  const Vec3 p(0.2, -0.1, 0.3), f(1.5, -2.0, 0.7);
  Eigen::MatrixXd J(3, m.nv);
  for (int body = 1; body <= m.bodyCount(); ++body) {
    EXPECT_LT((adjoint.pointPosition(body, p) - pointPosition(ws, body, p)).norm(), 1e-14);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(m.nq);
    adjoint.addPointForce(body, p, f, g);
    pointJacobian(m, ws, body, p, J);
    EXPECT_LT((g - J.transpose() * f).norm(), 1e-13 * (1.0 + g.norm())) << body;
  }
}

TEST(ForwardDynamicsAdjoint, NamesWhatItDoesNotDifferentiate) {
  EXPECT_NE(ForwardDynamicsAdjoint::unsupported(test_models::randomTree(6, 1).build()).find("joint 'j"),
            std::string::npos);
  const Model springs = test_models::randomTreeWithForceElements(4, 2);
  EXPECT_FALSE(ForwardDynamicsAdjoint::unsupported(springs).empty());
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
