// The reverse-mode derivatives of dynamics/forward_dynamics_adjoint.hpp on constrained models
// (src/dynamics/constraint_adjoint.hpp) against central differences of the reference
// formulation's accelerations with Baumgarte terms: abar^T dvdot/dq, abar^T dvdot/dv and
// abar^T dvdot/dtau on random trees closed by every loop type and a prescribed motion, away from
// the constraint manifold (so that every Baumgarte term acts), and on the planar four-bar, whose
// spatial revolute closure has redundant rows.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/forward_dynamics_adjoint.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/dynamics/reference.hpp"
#include "random_model.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// The body whose root path holds the most coordinates, other than `except`.
int deepestBody(const Model& m, int except = -1) {
  int best = 1;
  std::size_t most = 0;
  for (int i = 1; i <= m.bodyCount(); ++i)
    if (i != except && pathCoordinates(m, i).size() > most) best = i, most = pathCoordinates(m, i).size();
  return best;
}

// The adjoint's tree (adjointTree) closed by a loop of `type` from its deepest body to the ground
// and a distance loop between two other bodies, with a joint load on every coordinate (the tau
// that is differentiated) and a prescribed motion on the first movable joint when `prescribed`.
Model closedTree(int bodies, unsigned seed, LoopConstraint::Type type, bool prescribed) {
  // The joint types of the seeds below, chosen for loops of full rank (the tests of universal
  // joints are in test_forward_dynamics_adjoint.cpp).
  ModelBuilder b = test_models::adjointTree(
      bodies, seed, {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Fixed});
  const Model tree = b.build();
  const int deep = deepestBody(tree), other = deepestBody(tree, deep);
  LoopSpec closure;
  closure.name = "closure", closure.type = type, closure.bodyA = "ground", closure.bodyB = tree.bodies[deep].name;
  closure.pointA = Vec3(0.4, -0.3, 0.2), closure.pointB = Vec3(0.1, 0.2, -0.1);
  closure.axisA = Vec3(0.0, 0.6, 0.8), closure.axisB = Vec3(1.0, 0.0, 0.0);
  closure.rotationB = Eigen::AngleAxisd(0.4, Vec3::UnitY()).toRotationMatrix();
  closure.distance = 0.9;
  b.addLoop(closure);
  LoopSpec tie;
  tie.name = "tie", tie.type = LoopConstraint::Type::Distance, tie.bodyA = tree.bodies[other].name;
  tie.bodyB = tree.bodies[deep == 1 ? 2 : 1].name, tie.pointB = Vec3(0.2, 0.0, 0.1), tie.distance = 0.7;
  b.addLoop(tie);
  for (int i = 1; i <= tree.bodyCount(); ++i)
    for (int e = 0; e < tree.joints[i].nv; ++e)
      b.addJointLoad({"tau_" + tree.joints[i].name + std::to_string(e), tree.joints[i].name, e,
                      TimeFunction::constant(0.5 * e - 0.3 * i)});
  int driven = 1;
  while (tree.joints[driven].nv == 0) ++driven;
  if (prescribed) b.addPrescribedMotion({"drive", tree.joints[driven].name, 0, TimeFunction::sine(0.3, 2.0, 0.1, 0.2)});
  return b.build();
}

// Compares the adjoint's products at (t, q, v) with central differences of abar . vdot of the
// reference formulation (Baumgarte alpha, beta); the model's joint loads are tau.
void expectMatchesDifferences(Model m, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& abar, const FormulationOptions& options) {
  ASSERT_EQ(ForwardDynamicsAdjoint::unsupported(m), "");
  ASSERT_EQ(m.jointLoads.size(), static_cast<std::size_t>(m.nv));  // one per coordinate: all of w is checked
  auto reference = makeFormulation("reference", m, options);
  const auto dot = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    Eigen::VectorXd vdot(m.nv);
    reference->accelerations(t, qq, vv, vdot);
    return abar.dot(vdot);
  };
  Eigen::VectorXd vdot(m.nv);
  reference->accelerations(t, q, v, vdot);
  ForwardDynamicsAdjoint adjoint(m, options);
  Eigen::VectorXd qbar = Eigen::VectorXd::Zero(m.nq), vbar = Eigen::VectorXd::Zero(m.nv);
  const Eigen::VectorXd w = adjoint.accumulate(t, q, v, vdot, abar, qbar, vbar);

  // Central differences with h = 1e-6: truncation h^2 and round-off eps / h leave about 1e-9 of
  // the largest entry, the adjoint's own differences of the constraint term 1e-10; 4e-11 to
  // 1.2e-9 measured, 1e-7 asked.
  const double h = 1e-6;
  Eigen::VectorXd dq(m.nq), dv(m.nv), dtau = Eigen::VectorXd::Zero(m.nv);
  for (int k = 0; k < m.nq; ++k) {
    Eigen::VectorXd up = q, down = q;
    up[k] += h, down[k] -= h;
    dq[k] = (dot(up, v) - dot(down, v)) / (2 * h);
  }
  for (int k = 0; k < m.nv; ++k) {
    Eigen::VectorXd up = v, down = v;
    up[k] += h, down[k] -= h;
    dv[k] = (dot(q, up) - dot(q, down)) / (2 * h);
  }
  for (JointLoad& load : m.jointLoads) {
    const double value = load.magnitude.value(t);
    load.magnitude.setConstant(value + h);
    const double up = dot(q, v);
    load.magnitude.setConstant(value - h);
    const double down = dot(q, v);
    load.magnitude.setConstant(value);
    dtau[m.joints[load.joint].iv + load.dof] = (up - down) / (2 * h);
  }
  const double scale = std::max({dq.cwiseAbs().maxCoeff(), dv.cwiseAbs().maxCoeff(), dtau.cwiseAbs().maxCoeff()});
  EXPECT_LT((qbar - dq).cwiseAbs().maxCoeff(), 1e-7 * scale) << qbar.transpose() << "\n" << dq.transpose();
  EXPECT_LT((vbar - dv).cwiseAbs().maxCoeff(), 1e-7 * scale) << vbar.transpose() << "\n" << dv.transpose();
  EXPECT_LT((w - dtau).cwiseAbs().maxCoeff(), 1e-7 * scale);
}

TEST(ConstraintAdjoint, MatchesCentralDifferencesOfTheReferenceFormulation) {
  using T = LoopConstraint::Type;
  FormulationOptions options;
  options.baumgarteAlpha = 5.0, options.baumgarteBeta = 7.0;
  for (const auto& [bodies, seed, type, prescribed] :
       {std::tuple{8, 2u, T::Ball, false}, {10, 22u, T::Revolute, true}, {12, 12u, T::Weld, false},
        {8, 3u, T::Distance, true}}) {
    SCOPED_TRACE("bodies " + std::to_string(bodies) + ", seed " + std::to_string(seed) + ", " +
                 std::string(loopTypeName(type)));
    const Model m = closedTree(bodies, seed, type, prescribed);
    // The derivative formula holds where J has full row rank (the forward solve is then exact):
    // the loops must have enough coordinates on their paths, which these seeds give.
    Workspace ws(m);
    ConstraintEvaluator c(m);
    updatePositions(m, ws, m.q0);
    c.jacobian(ws, 0.0);
    ASSERT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(c.J).rank(), c.size());
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd abar(m.nv);
    for (int k = 0; k < m.nv; ++k) abar[k] = u(gen);
    expectMatchesDifferences(m, 0.3, m.q0, m.v0, abar, options);
  }
}

TEST(ConstraintAdjoint, HandlesTheRedundantRowsOfAPlanarLoop) {
  Model m = loadModel(ARTICULA_SOURCE_DIR "/models/four_bar.yaml");
  for (int i = 1; i <= m.bodyCount(); ++i)  // the tau that is differentiated
    m.jointLoads.push_back({"tau" + std::to_string(i), i, 0, TimeFunction::constant(0.2 * i)});
  Eigen::VectorXd q = m.q0, v = m.v0;
  assemble(m, 0.0, q, v);
  // A velocity off the constraint manifold (J v != 0), so that the alpha term acts.
  v = Eigen::VectorXd::LinSpaced(m.nv, 0.7, -1.1);
  ConstrainedSolver solver(m);
  solver.factorize(0.0, q);
  ASSERT_LT(solver.rank(), solver.constraints.size());  // the spatial revolute closure is redundant here
  FormulationOptions options;
  options.baumgarteAlpha = 3.0, options.baumgarteBeta = 4.0;
  expectMatchesDifferences(m, 0.1, q, v, Eigen::VectorXd::LinSpaced(m.nv, 1.0, -0.5), options);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
