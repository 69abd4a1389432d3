// The Hamiltonian divide-and-conquer algorithm (dynamics/hdca.hpp) against ABA, and Hamilton's
// equations integrated in [q; p] (simulate/hamiltonian_system.hpp).
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <limits>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/hamiltonian_system.hpp"
#include "articula/simulate/system.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

// Mdot v along qdot = G(q) v: M(q (+) s v) v differentiated in s at 0 by central differences at
// h and h/2, combined by Richardson extrapolation (error O(h^4) ~ 1e-12 with h = 1e-3; the
// rounding error is about 1e-16 / h ~ 1e-13, both relative to |M| |v|).
Eigen::VectorXd massMatrixRate(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Workspace ws(model);
  Eigen::MatrixXd M(model.nv, model.nv);
  auto difference = [&](double h) {
    Eigen::VectorXd plus = q, minus = q;
    integrateConfiguration(model, plus, Eigen::VectorXd(h * v));
    integrateConfiguration(model, minus, Eigen::VectorXd(-h * v));
    massMatrix(model, ws, plus, M);
    Eigen::VectorXd d = M * v;
    massMatrix(model, ws, minus, M);
    d -= M * v;
    return Eigen::VectorXd(d / (2.0 * h));
  };
  const double h = 2.5e-4;
  return (4.0 * difference(0.5 * h) - difference(h)) / 3.0;
}

// The round trip v -> p = M v -> v loses digits as any solve with M does: the bound is
// 10 eps cond(M), with cond(M) up to 7e4 on the random trees of 128 bodies (measured errors:
// up to 4e-11 there, below 1e-12 on trees of up to 8 bodies; a Cholesky solve of M stays near
// 1e-14, so HDCA's mobility form is the less accurate solve).
double conditionNumber(const Model& model) {
  Workspace ws(model);
  Eigen::MatrixXd M(model.nv, model.nv);
  massMatrix(model, ws, model.q0, M);
  const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(M).singularValues();
  return sigma[0] / sigma[model.nv - 1];
}

double roundTripBound(const Model& model) {
  return std::max(1e-12, 10.0 * std::numeric_limits<double>::epsilon() * conditionNumber(model));
}

// A planar chain of `links` rods hanging from the ground, its joints cycling through revolute,
// prismatic (along the parent rod) and planar below the first, each with a spring-damper on one
// coordinate.
Model planarChainWithEveryJoint(int links) {
  ModelBuilder b;
  b.name = "planar_every_joint" + std::to_string(links);
  b.gravity = Vec3(0.0, -9.81, 0.0);
  const JointType types[3] = {JointType::Revolute, JointType::Prismatic, JointType::Planar};
  for (int i = 1; i <= links; ++i) {
    BodySpec body;
    body.name = "rod" + std::to_string(i);
    body.mass = 1.0 + 0.1 * (i % 4);
    body.com = Vec3(0.25, 0.0, 0.0);
    body.inertia = Vec3(0.001, 0.02, 0.02).asDiagonal();
    b.addBody(body);
    JointSpec joint;
    joint.name = "j" + std::to_string(i);
    joint.type = i == 1 ? JointType::Revolute : types[(i - 1) % 3];
    joint.parent = i == 1 ? "ground" : "rod" + std::to_string(i - 1);
    joint.child = body.name;
    joint.position = i == 1 ? Vec3::Zero() : Vec3(0.5, 0.0, 0.0);
    joint.axis = joint.type == JointType::Prismatic ? Vec3::UnitX() : Vec3::UnitZ();
    joint.q0 = joint.type == JointType::Planar ? std::vector<double>{0.02, -0.01, 0.2} : std::vector<double>{0.15};
    b.addJoint(joint);
    JointSpringSpec spring;
    spring.name = "spring" + std::to_string(i), spring.joint = joint.name;
    spring.dof = joint.type == JointType::Planar ? (i / 3) % 3 : 0;  // the planar joints' x, y or angle in turn
    spring.stiffness = 40.0, spring.damping = 0.5;
    b.addJointSpring(spring);
  }
  Model model = b.build();
  model.v0.setLinSpaced(-0.5, 0.8);
  return model;
}

struct Comparison {
  double velocity;      // |v_hdca - v| / max(1, |v|)
  double momentumRate;  // |pdot_hdca - (M vdot_aba + Mdot v)| / max(1, |.|)
};

// HDCA's (v, pdot) at (t, q, p(q, v)) against v and the momentum rate M vdot + Mdot v from ABA's
// accelerations (force elements included), at the model's initial state and t = 0.3.
Comparison hdcaVersusAba(const Model& model, int threads = 1, const PairingPolicy& pairing = balancedPairing) {
  const Eigen::VectorXd& q = model.q0;
  const Eigen::VectorXd& v = model.v0;
  auto aba = makeFormulation("aba", model);
  Eigen::VectorXd vdot(model.nv);
  aba->accelerations(0.3, q, v, vdot);
  Workspace ws(model);
  Eigen::MatrixXd M(model.nv, model.nv);
  massMatrix(model, ws, q, M);
  const Eigen::VectorXd expectedRate = M * vdot + massMatrixRate(model, q, v);

  Hdca hdca(model, HdcaOptions{threads, pairing});
  Eigen::VectorXd p(model.nv), vOut(model.nv), pdot(model.nv);
  hdca.momenta(q, v, p);
  hdca.derivatives(0.3, q, p, vOut, pdot);
  return {relativeError(vOut, v) / roundTripBound(model), relativeError(pdot, expectedRate)};
}

}  // namespace

TEST(Hdca, AgreesWithAbaOnRandomTreesWithEveryJointType) {
  for (int bodies : {1, 2, 3, 5, 8, 13, 21, 34, 64, 100, 128})
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Comparison c = hdcaVersusAba(test_models::randomTree(bodies, seed).build());
      EXPECT_LT(c.velocity, 1.0) << bodies << " bodies, seed " << seed;
      EXPECT_LT(c.momentumRate, 1e-9) << bodies << " bodies, seed " << seed;
    }
}

// With force elements on joints only, the evaluation is one run of chained sweeps, the joint
// forces added after it (HdcaKernel::chainedDerivatives); with body forces, two runs.
TEST(Hdca, AgreesWithAbaWithForceElements) {
  for (bool bodyElements : {true, false})
    for (int bodies : {1, 4, 17, 50})
      for (unsigned seed = 0; seed < 3; ++seed) {
        const Comparison c = hdcaVersusAba(test_models::randomTreeWithForceElements(bodies, seed, true, bodyElements));
        EXPECT_LT(c.velocity, 1.0) << bodies << " bodies, seed " << seed << ", body elements " << bodyElements;
        EXPECT_LT(c.momentumRate, 1e-9) << bodies << " bodies, seed " << seed << ", body elements " << bodyElements;
      }
}

// Chains up to 64 links. The momentum rates are a function of (q, p), through v = M(q)^-1 p: on
// the long spatial chains (thin links, cond(M) = 8.7e6 at 32 links, 1.2e8 at 64) they cannot be
// more accurate than eps cond(M) relative, the error a perturbation of p by round-off gives (a
// Cholesky solve of M p = v loses as much: 2.7e-9 at 64 links). Measured: 9e-10 at 32 links, 5.5e-9
// at 64 (the factored elimination of handle_assembly.cpp; the earlier K^-1 form reached 3.3e-8).
// Planar chains stay near 1e-12.
TEST(Hdca, AgreesWithAbaOnChainsAndAFloatingBase) {
  for (bool spatial : {false, true})
    for (int links : {1, 2, 7, 16, 32, 64}) {
      Model model = makeChain(links, spatial);
      model.v0.setLinSpaced(-1.0, 1.0);  // the chains start at rest
      const double conditioning = std::numeric_limits<double>::epsilon() * conditionNumber(model);
      const Comparison c = hdcaVersusAba(model);
      EXPECT_LT(c.velocity, 1.0) << links << " links, spatial " << spatial;
      EXPECT_LT(c.momentumRate, std::max(1e-9, conditioning)) << links << " links, spatial " << spatial;
    }
  for (const Model& model : {test_models::floatingBase(), planarChainWithEveryJoint(30)}) {
    const Comparison c = hdcaVersusAba(model);
    EXPECT_LT(c.velocity, 1.0) << model.name;
    EXPECT_LT(c.momentumRate, 1e-9) << model.name;
  }
}

// The serial tree (assembly_tree.hpp): the same bounds as the balanced one, on random trees with
// force elements, the chains of the test above and the floating base.
TEST(Hdca, SerialTreeAgreesWithAba) {
  for (int bodies : {1, 2, 5, 21, 64, 128})
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Comparison c = hdcaVersusAba(test_models::randomTreeWithForceElements(bodies, seed), 1, serialPairing);
      EXPECT_LT(c.velocity, 1.0) << bodies << " bodies, seed " << seed;
      EXPECT_LT(c.momentumRate, 1e-9) << bodies << " bodies, seed " << seed;
    }
  for (bool spatial : {false, true})
    for (int links : {1, 7, 32, 64}) {
      Model model = makeChain(links, spatial);
      model.v0.setLinSpaced(-1.0, 1.0);
      const double conditioning = std::numeric_limits<double>::epsilon() * conditionNumber(model);
      const Comparison c = hdcaVersusAba(model, 1, serialPairing);
      EXPECT_LT(c.velocity, 1.0) << links << " links, spatial " << spatial;
      EXPECT_LT(c.momentumRate, std::max(1e-9, conditioning)) << links << " links, spatial " << spatial;
    }
  const Comparison c = hdcaVersusAba(test_models::floatingBase(), 1, serialPairing);
  EXPECT_LT(c.velocity, 1.0);
  EXPECT_LT(c.momentumRate, 1e-9);
}

// The two state maps are inverse to each other, and p(q, v) is M(q) v.
TEST(Hdca, StateMapsAreInverse) {
  for (int bodies : {1, 6, 40, 128})
    for (unsigned seed = 0; seed < 3; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      Hdca hdca(model);
      Eigen::VectorXd p(model.nv), v(model.nv);
      hdca.momenta(model.q0, model.v0, p);
      Workspace ws(model);
      Eigen::MatrixXd M(model.nv, model.nv);
      massMatrix(model, ws, model.q0, M);
      EXPECT_LT(relativeError(p, M * model.v0), 1e-13) << bodies << " bodies, seed " << seed;
      hdca.velocities(0.0, model.q0, p, v);
      EXPECT_LT(relativeError(v, model.v0), roundTripBound(model)) << bodies << " bodies, seed " << seed;
    }
}

// The joint momenta of the velocity sweep are the subtree momenta: P_j = sum over the bodies
// below joint j of I_k V_k, moved to body j's origin (world axes), as RNEA sums forces.
TEST(Hdca, JointMomentaAreSubtreeMomenta) {
  const Model model = test_models::randomTree(30, 5).build();
  Hdca hdca(model);
  Eigen::VectorXd p(model.nv), v(model.nv);
  hdca.momenta(model.q0, model.v0, p);
  hdca.velocities(0.0, model.q0, p, v);
  Workspace ws(model);
  updateVelocities(model, ws, model.q0, model.v0);
  std::vector<Force> h(static_cast<std::size_t>(model.bodyCount()) + 1);
  for (int i = model.bodyCount(); i >= 1; --i) {
    const auto idx = static_cast<std::size_t>(i);
    h[idx] += model.bodies[idx].inertia * ws.v[idx];
    const Mat3 R = ws.X0[idx].E.transpose();
    Vec6 expected;
    expected << R * h[idx].ang, R * h[idx].lin;
    const Vec6 actual = hdca.jointMomentum(i);
    EXPECT_LT((actual - expected).norm(), 1e-12 * std::max(1.0, expected.norm())) << "joint " << i;
    const int parent = model.joints[idx].parent;
    if (parent > 0) h[static_cast<std::size_t>(parent)] += ws.Xup[idx].applyInverse(h[idx]);
  }
}

// Every path of an evaluation: body forces (two runs), joint forces only and the plain chains
// (chained sweeps), and in the plane planar joints below a body (their frame rotation written
// with the child's pose, which the chained sweeps need).
TEST(Hdca, OneTwoAndThreeThreadsGiveIdenticalBits) {
  for (const Model& model : {test_models::randomTreeWithForceElements(128, 3),
                             test_models::randomTreeWithForceElements(128, 4, true, false), makeChain(200, true),
                             makeChain(200, false), planarChainWithEveryJoint(90)})
    for (const PairingPolicy& pairing : {PairingPolicy(balancedPairing), PairingPolicy(serialPairing)}) {
      Hdca serial(model, HdcaOptions{1, pairing});
      Eigen::VectorXd p = Eigen::VectorXd::LinSpaced(model.nv, -2.0, 3.0);
      Eigen::VectorXd v1(model.nv), v2(model.nv), pdot1(model.nv), pdot2(model.nv);
      serial.derivatives(0.1, model.q0, p, v1, pdot1);
      for (int threads : {2, 3}) {
        Hdca parallel(model, HdcaOptions{threads, pairing});
        parallel.derivatives(0.1, model.q0, p, v2, pdot2);
        for (int k = 0; k < model.nv; ++k) {
          ASSERT_EQ(v1[k], v2[k]) << "coordinate " << k << ", " << threads << " threads";
          ASSERT_EQ(pdot1[k], pdot2[k]) << "coordinate " << k << ", " << threads << " threads";
        }
      }
    }
}

TEST(Hdca, RejectsBadThreadCountsAndNonFiniteStates) {
  EXPECT_THROW(Hdca(makeChain(3, true), HdcaOptions{0}), Error);
  const Model model = makeChain(5, true);
  Hdca hdca(model);
  Eigen::VectorXd q = model.q0, p = Eigen::VectorXd::Zero(model.nv), v(model.nv), pdot(model.nv);
  q[2] = std::nan("");
  EXPECT_THROW(hdca.derivatives(0.0, q, p, v, pdot), Error);
}

// rk4 with a fixed step on a spatial chain, in [q; p] (HDCA) and in [q; v] (ABA): two different
// ODEs for the same motion, so the trajectories differ by the integration error, O(dt^4). On
// this chain the [q; p] form has the larger error constant (9.4e-4 at dt = 1e-3 after 1 s, 16
// times less at half the step; [q; v] has 1e-6): the links' tiny inertia about their long axes
// makes v = M^-1 p vary fast with q. At dt = 2.5e-4 the difference is below 1e-5.
TEST(Hdca, HamiltonianSimulationOfASpatialChainAgreesWithAba) {
  Model model = makeChain(8, true);
  model.v0.setConstant(0.5);
  IntegratorOptions io;
  io.dt = 2.5e-4;
  HamiltonianSystem hamiltonian(model);
  MultibodySystem lagrangian(model, makeFormulation("aba", model), Stabilization::None);
  Eigen::VectorXd qv(model.nq + model.nv), qp(model.nq + model.nv), qvFromHamiltonian(model.nq + model.nv);
  qv << model.q0, model.v0;
  hamiltonian.canonicalState(qv, qp);
  auto rk4p = makeIntegrator("rk4", io), rk4v = makeIntegrator("rk4", io);
  rk4p->initialize(hamiltonian, 0.0, qp);
  rk4v->initialize(lagrangian, 0.0, qv);
  while (rk4p->time() < 1.0 - 1e-12) rk4p->step(1.0);
  while (rk4v->time() < 1.0 - 1e-12) rk4v->step(1.0);
  hamiltonian.velocityState(rk4p->time(), rk4p->state(), qvFromHamiltonian);
  EXPECT_GT((rk4v->state().head(model.nq) - model.q0).norm(), 0.1);  // the chain has moved
  EXPECT_LT((qvFromHamiltonian - rk4v->state()).lpNorm<Eigen::Infinity>(), 1e-5);
}

// Without dampers or loads the Hamiltonian is conserved: rk4 at dt = 1e-3 on a spatial chain
// and a random tree over 1 s keeps it to 1e-6 relative (rk4's own error: 5.6e-7 measured).
TEST(Hdca, ConservesEnergyOnConservativeModels) {
  Model chain = makeChain(6, true);
  chain.v0.setConstant(1.0);
  for (const Model& model : {chain, test_models::randomTree(12, 2, false).build()}) {
    IntegratorOptions io;
    io.dt = 1e-3;
    HamiltonianSystem system(model);
    Eigen::VectorXd qv(model.nq + model.nv), qp(model.nq + model.nv);
    qv << model.q0, model.v0;
    system.canonicalState(qv, qp);
    const double initial = system.energy(0.0, qp);
    auto rk4 = makeIntegrator("rk4", io);
    rk4->initialize(system, 0.0, qp);
    double worst = 0.0;
    while (rk4->time() < 1.0 - 1e-12) {
      rk4->step(1.0);
      worst = std::max(worst, std::abs(system.energy(rk4->time(), rk4->state()) - initial));
    }
    EXPECT_GT(std::abs(initial), 1.0);
    EXPECT_LT(worst / std::abs(initial), 1e-6);
  }
}

// Single precision (BasicHdca<float>, seed 000's study) against double on random trees with every
// joint type and on a closed loop: the same algorithm with float rounding, so the differences are
// bounded by 10 eps_float cond(M) as roundTripBound's are in double (measured: 6e-7 to 5.7e-5 on
// trees of 1 to 40 bodies, 1e-6 on the four-bar), on both assembly trees.
TEST(Hdca, SinglePrecisionAgreesWithDouble) {
  auto compare = [](const Model& model) {
    const double bound = 10.0 * std::numeric_limits<float>::epsilon() * conditionNumber(model);
    for (const char* tree : {"balanced", "serial"}) {
      Hdca hdca(model);
      BasicHdca<float> single(model, HdcaOptions{1, pairingPolicy(tree)});
      Eigen::VectorXd p(model.nv), v(model.nv), pdot(model.nv);
      hdca.momenta(model.q0, model.v0, p);
      hdca.derivatives(0.3, model.q0, p, v, pdot);
      const Eigen::VectorXf qf = model.q0.cast<float>(), pf = p.cast<float>();
      Eigen::VectorXf vf(model.nv), pdotf(model.nv);
      single.derivatives(0.3, qf, pf, vf, pdotf);
      EXPECT_LT(relativeError(vf.cast<double>(), v), bound) << model.name << ", " << tree << " tree";
      EXPECT_LT(relativeError(pdotf.cast<double>(), pdot), bound) << model.name << ", " << tree << " tree";
    }
  };
  for (int bodies : {1, 5, 16, 40}) compare(test_models::randomTree(bodies, 1).build());
  compare(makeNFourBar(1, 1.0, -2.0));
}

// On planar mechanisms the handle equations run in the plane (3x3): the same velocities and
// momentum rates as the 6D kernel, on a planar chain and on four-bar loops, on both assembly
// trees; spatial models keep the 6D kernel.
TEST(Hdca, PlanarKernelAgreesWithTheSpatialOne) {
  Model chain = makeChain(12, false);
  chain.v0.setLinSpaced(-1.0, 1.5);
  for (const Model& model : {chain, makeNFourBar(3, 0.8, 1.5), planarChainWithEveryJoint(12)})
    for (const PairingPolicy& pairing : {PairingPolicy(balancedPairing), PairingPolicy(serialPairing)}) {
      Hdca planar(model, HdcaOptions{1, pairing}), spatial(model, HdcaOptions{1, pairing, false});
      ASSERT_TRUE(planar.planar()) << model.name;
      ASSERT_FALSE(spatial.planar()) << model.name;
      Eigen::VectorXd p(model.nv), v1(model.nv), v2(model.nv), pdot1(model.nv), pdot2(model.nv);
      spatial.momenta(model.q0, model.v0, p);
      planar.derivatives(0.2, model.q0, p, v1, pdot1);
      spatial.derivatives(0.2, model.q0, p, v2, pdot2);
      // Both are solves with M: they differ by round-off amplified by cond(M) (roundTripBound).
      EXPECT_LT(relativeError(v1, v2), roundTripBound(model)) << model.name;
      EXPECT_LT(relativeError(pdot1, pdot2), roundTripBound(model)) << model.name;
    }
  EXPECT_FALSE(Hdca(makeChain(4, true)).planar());
}

}  // namespace ARTICULA_TEST_FILE
