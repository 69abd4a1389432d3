// The Hamiltonian divide-and-conquer algorithm on closed loops (dynamics/hdca.hpp,
// dynamics/constraint_impulses.hpp): the velocity-level projection and the momentum rates
// against the spanning tree's dynamics and the loop Jacobian.
#include <gtest/gtest.h>

#include <string>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/hamiltonian_system.hpp"
#include "articula/simulate/system.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// d/ds f(q (+) s v) at s = 0 by central differences at h and h/2 combined by Richardson
// extrapolation: truncation O(h^4) ~ 1e-13 and rounding ~1e-16 / h ~ 1e-12 relative at h = 2.5e-4.
template <class F>
Eigen::VectorXd alongMotion(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const F& f) {
  auto difference = [&](double h) {
    Eigen::VectorXd plus = q, minus = q;
    integrateConfiguration(model, plus, Eigen::VectorXd(h * v));
    integrateConfiguration(model, minus, Eigen::VectorXd(-h * v));
    return Eigen::VectorXd((f(plus) - f(minus)) / (2.0 * h));
  };
  const double h = 2.5e-4;
  return (4.0 * difference(0.5 * h) - difference(h)) / 3.0;
}

struct LoopComparison {
  double velocity;      // |v_hdca - v| / max(1, |v|)
  double impulse;       // |J^T sigma_hdca - J^T sigma0| / max(1, |J^T sigma0|)
  double momentumRate;  // |pdot*_hdca - expected| / max(1, |expected|)
};

// At an assembled state (q, v) with J v = 0 and canonical momenta p* = M v - J^T sigma0, HDCA must
// give back v and (up to redundant rows) sigma0, and the rate of p* = p - J^T sigma with
// dsigma/dt = lambda (the multipliers: dp/dt = M vdot + Mdot v holds the constraint forces J^T
// lambda, which cancel):
//   pdot* = M vdot_tree + Mdot v - (dJ/dt)^T sigma0,
// with vdot_tree the spanning tree's accelerations (ABA, loops cut, force elements included), and
// Mdot v and (dJ/dt)^T sigma0 by differences along the motion.
LoopComparison hdcaVersusReference(Model model, double speed, const PairingPolicy& pairing) {
  Eigen::VectorXd q = model.q0, v = speed * model.v0;
  assemble(model, 0.0, q, v);
  Workspace ws(model);
  Eigen::MatrixXd M(model.nv, model.nv);
  massMatrix(model, ws, q, M);
  ConstraintEvaluator constraints(model);
  auto jacobianAt = [&](const Eigen::VectorXd& x) {
    updatePositions(model, ws, x);
    constraints.jacobian(ws, 0.0);
    return Eigen::MatrixXd(constraints.J);
  };
  const Eigen::MatrixXd J = jacobianAt(q);
  const Eigen::VectorXd sigma0 = Eigen::VectorXd::LinSpaced(J.rows(), -0.7, 0.4);
  const Eigen::VectorXd p = M * v - J.transpose() * sigma0;

  Eigen::VectorXd vdot(model.nv);
  updateVelocities(model, ws, q, v);
  evaluateForceElements(model, ws, 0.2, q, v);
  forwardDynamics(model, ws, q, v, ws.tau, &ws.fext, vdot);
  const Eigen::VectorXd massRate = alongMotion(model, q, v, [&](const Eigen::VectorXd& x) {
    massMatrix(model, ws, x, M);
    return Eigen::VectorXd(M * v);
  });
  const Eigen::VectorXd jacobianRate =
      alongMotion(model, q, v, [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(jacobianAt(x).transpose() * sigma0); });
  massMatrix(model, ws, q, M);
  const Eigen::VectorXd expected = M * vdot + massRate - jacobianRate;

  Hdca hdca(model, HdcaOptions{1, pairing});
  Eigen::VectorXd vOut(model.nv), pdot(model.nv);
  hdca.derivatives(0.2, q, p, vOut, pdot);
  const Eigen::VectorXd impulse0 = J.transpose() * sigma0;
  const Eigen::VectorXd impulse = J.transpose() * hdca.constraintImpulses();
  auto relative = [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return (a - b).norm() / std::max(1.0, b.norm());
  };
  return {relative(vOut, v), relative(impulse, impulse0), relative(pdot, expected)};
}

}  // namespace

// Planar four-bars (IFToMM A02 geometry, revolute loops: of their five rows the three
// out-of-plane ones are redundant), a spatial RSSR loop (spherical joints), the RSSR closed by a
// rod (a distance loop), and a bank of spatial loops on one crankshaft. Measured: velocities and
// impulses within 1e-11, rates within 3e-12 (the differences' own error is about 1e-12); the
// bounds leave a factor of 10 to 30. Both assembly trees: the serial one keeps its handle
// equations in articulated form (dynamics/articulated_handles.hpp).
TEST(HdcaLoops, VelocitiesImpulsesAndMomentumRates) {
  struct Case {
    const char* name;
    Model model;
  };
  for (const Case& c : {Case{"four-bar", makeNFourBar(1, 1.0, -2.0)}, Case{"3 four-bars", makeNFourBar(3, 0.8, 1.5)},
                        Case{"rssr", makeRssr(0.4)}, Case{"rssr with a rod", makeRssr(0.4, true)},
                        Case{"rssr bank", makeRssrBank(3)}})
    for (double speed : {0.0, 1.0, 3.0})
      for (const char* tree : {"balanced", "serial"}) {
        const LoopComparison r = hdcaVersusReference(c.model, speed, pairingPolicy(tree));
        EXPECT_LT(r.velocity, 1e-10) << c.name << " at speed " << speed << ", " << tree << " tree";
        EXPECT_LT(r.impulse, 1e-10) << c.name << " at speed " << speed << ", " << tree << " tree";
        EXPECT_LT(r.momentumRate, 1e-10) << c.name << " at speed " << speed << ", " << tree << " tree";
      }
}

namespace {

struct LoopRun {
  double positionDifference;  // max |q_hdca - q_reference|_inf over the samples
  double worstClosure;        // max |g(q_hdca)|_inf over the steps
};

// One second of motion from rest: HDCA in [q; p*] and the reference formulation in [q; v], both
// with rk45 at rtol = atol = 1e-10 (they integrate different ODEs for the same motion, so they
// differ by the integration error), the reference with its position and velocity projection.
LoopRun hdcaAgainstReference(const Model& model, bool projectPositions) {
  IntegratorOptions io;
  io.rtol = io.atol = 1e-10;
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  HamiltonianSystem hamiltonian(model, {}, projectPositions);
  MultibodySystem lagrangian(model, makeFormulation("reference", model), Stabilization::Projection);
  Eigen::VectorXd qv(model.nq + model.nv), qp(model.nq + model.nv), qvOut(model.nq + model.nv);
  qv << q, v;
  hamiltonian.canonicalState(qv, qp);
  auto forP = makeIntegrator("rk45", io), forV = makeIntegrator("rk45", io);
  forP->initialize(hamiltonian, 0.0, qp);
  forV->initialize(lagrangian, 0.0, qv);
  LoopRun run{0.0, 0.0};
  Eigen::VectorXd sampleP(model.nq + model.nv), sampleV(model.nq + model.nv);
  for (int k = 1; k <= 20; ++k) {
    const double t = 0.05 * k;
    while (forP->time() < t) {
      forP->step(1.0);
      const Eigen::VectorXd qk = forP->state().head(model.nq);
      run.worstClosure = std::max(run.worstClosure, hamiltonian.projector().positionError(forP->time(), qk));
    }
    while (forV->time() < t) forV->step(1.0);
    forP->interpolate(t, sampleP);
    forV->interpolate(t, sampleV);
    run.positionDifference =
        std::max(run.positionDifference, (sampleP.head(model.nq) - sampleV.head(model.nq)).lpNorm<Eigen::Infinity>());
  }
  EXPECT_GT((forV->state().head(model.nq) - q).norm(), 0.05);  // the mechanism has moved
  return run;
}

}  // namespace

// The four-bar of models/four_bar.yaml (planar, revolute loop), the RSSR (spatial, ball loop) and
// seed 000's examples (models/seed000_*.yaml: the four-bar with its 400 mm ground link released
// at alpha0 = pi/4, and the double pendulum) released under gravity. Both runs hold rk45's local
// error near 1e-10, so their difference stays near 1e-9 (measured: at most 1.5e-9; the bound 1e-7
// leaves room for the error accumulated over 1 s). Without projection the loop closure drifts by
// the integration error (measured 4e-11 over 1 s; bound 1e-9); with it every step ends within
// the projection's 1e-12.
TEST(HdcaLoops, SimulationAgreesWithTheReferenceFormulation) {
  const std::string models = std::string(ARTICULA_SOURCE_DIR) + "/models/";
  for (const Model& model : {loadModel(models + "four_bar.yaml"), makeRssr(0.4), loadModel(models + "seed000_four_bar.yaml"),
                             loadModel(models + "seed000_double_pendulum.yaml")})
    for (bool project : {false, true}) {
      const LoopRun run = hdcaAgainstReference(model, project);
      EXPECT_LT(run.positionDifference, 1e-7) << model.name << ", projection " << project;
      EXPECT_LE(run.worstClosure, project ? 1e-12 : 1e-9) << model.name << ", projection " << project;
    }
}

}  // namespace ARTICULA_TEST_FILE
