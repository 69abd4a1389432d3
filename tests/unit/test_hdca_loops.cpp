// The Hamiltonian divide-and-conquer algorithm on closed loops (dynamics/hdca.hpp,
// dynamics/constraint_impulses.hpp): the velocity-level projection and the momentum rates
// against the spanning tree's dynamics and the loop Jacobian.
#include <gtest/gtest.h>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

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
LoopComparison hdcaVersusReference(Model model, double speed) {
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

  Hdca hdca(model);
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
// bounds leave a factor of 10 to 30.
TEST(HdcaLoops, VelocitiesImpulsesAndMomentumRates) {
  struct Case {
    const char* name;
    Model model;
  };
  for (const Case& c : {Case{"four-bar", makeNFourBar(1, 1.0, -2.0)}, Case{"3 four-bars", makeNFourBar(3, 0.8, 1.5)},
                        Case{"rssr", makeRssr(0.4)}, Case{"rssr with a rod", makeRssr(0.4, true)},
                        Case{"rssr bank", makeRssrBank(3)}})
    for (double speed : {0.0, 1.0, 3.0}) {
      const LoopComparison r = hdcaVersusReference(c.model, speed);
      EXPECT_LT(r.velocity, 1e-10) << c.name << " at speed " << speed;
      EXPECT_LT(r.impulse, 1e-10) << c.name << " at speed " << speed;
      EXPECT_LT(r.momentumRate, 1e-10) << c.name << " at speed " << speed;
    }
}
