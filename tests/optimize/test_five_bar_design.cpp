// The optimal design of the five-bar, seed 002 section 5.2 (problems/five_bar_design.yaml): the
// optimum against the thesis and against the static equilibrium computed independently, and the
// gradient at the initial design against the thesis's Table 5.2.
#include <gtest/gtest.h>

#include <Eigen/QR>

#include "articula/dynamics/force_elements.hpp"
#include "articula/io/yaml_problem.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

const char* kProblem = ARTICULA_SOURCE_DIR "/problems/five_bar_design.yaml";

// The free lengths b that make the initial configuration q0 a static equilibrium, by virtual
// work: the gradient of the potential energy V(q; b) (gravity and the two springs) is orthogonal
// to every motion that keeps the loop closed. dV/dq is affine in b, so three evaluations (b = 0,
// e1, e2) give it exactly; each is a central difference of V in q (error ~1e-10).
Eigen::Vector2d staticEquilibrium(OptimalControlProblem p) {
  Model& m = p.model;
  const Eigen::VectorXd q0 = m.q0;
  Workspace ws(m);
  const auto gradient = [&](double b1, double b2) {
    m.pointSprings[0].restLength = b1;
    m.pointSprings[1].restLength = b2;
    Eigen::VectorXd g(m.nq), q = q0;
    for (int j = 0; j < m.nq; ++j) {
      const double h = 1e-5;
      q[j] = q0[j] + h;
      updatePositions(m, ws, q);
      const double plus = potentialEnergy(m, ws, q);
      q[j] = q0[j] - h;
      updatePositions(m, ws, q);
      const double minus = potentialEnergy(m, ws, q);
      q[j] = q0[j];
      g[j] = (plus - minus) / (2 * h);
    }
    return g;
  };
  const Eigen::VectorXd g0 = gradient(0, 0), g1 = gradient(1, 0) - g0, g2 = gradient(0, 1) - g0;
  updatePositions(m, ws, q0);
  ConstraintEvaluator constraints(m);
  constraints.jacobian(ws, 0.0);
  // Null space of the loop Jacobian (5 rows of rank 2 for a planar loop): the motions allowed.
  Eigen::FullPivLU<Eigen::MatrixXd> lu(constraints.J);
  lu.setThreshold(1e-10);
  const Eigen::MatrixXd N = lu.kernel();
  EXPECT_EQ(N.cols(), 2);
  Eigen::Matrix2d A;
  A << N.transpose() * g1, N.transpose() * g2;
  return A.colPivHouseholderQr().solve(-N.transpose() * g0);
}

TEST(FiveBarDesign, OptimumIsTheThesisValueAndTheStaticEquilibrium) {
  ProblemFile f = loadProblem(kProblem);
  // The optimum (J = 0 at the equilibrium) does not depend on the horizon; 2 s instead of 5 keeps
  // the test short under the sanitizers. The 5 s problem is optimised by tests/cli/optimize_problems.sh.
  f.problem.tf = 2.0;
  TrajectoryGradient tg(f.problem, f.gradient);
  const OptimizationResult r = optimize(tg, f.problem, f.problem.initialParameters(), f.optimizer);
  ASSERT_TRUE(r.converged) << r.status;
  const Eigen::Vector2d thesis(2.4319236, 1.8448689);  // seed 002 section 5.2, b_opt
  const Eigen::Vector2d equilibrium = staticEquilibrium(f.problem);
  // The thesis prints 8 digits; the issue asks for 6 significant ones.
  EXPECT_LT((r.parameters - thesis).cwiseAbs().maxCoeff(), 1e-6 * thesis.norm()) << r.parameters.transpose();
  // The minimum cost is zero, reached at the equilibrium: the optimiser's tolerance (1e-12 on b)
  // and the 1e-10 of the finite-difference potential gradient bound the difference.
  EXPECT_LT((r.parameters - equilibrium).norm(), 1e-8) << equilibrium.transpose();
  EXPECT_LT(r.cost, 1e-20);
}

TEST(FiveBarDesign, GradientAtTheInitialDesignMatchesTable52) {
  const ProblemFile f = loadProblem(kProblem);
  TrajectoryGradient tg(f.problem, f.gradient);
  Eigen::VectorXd g;
  tg.gradient(f.problem.initialParameters(), g, GradientMethod::Adjoint);
  // Table 5.2 at tolerance 1e-7, complex step. The thesis does not print the mechanism's
  // coordinates; the geometry of models/five_bar.yaml reproduces the optimum to 1e-8 but this
  // gradient to 1.6e-4 and 3.7e-4 relative (the thesis's own adjoint differs from its complex
  // step by 3e-5): 5e-4 per component bounds the remaining modelling difference.
  const Eigen::Vector2d thesis(-4.2281232, 3.2104307);
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(g[k], thesis[k], 5e-4 * std::abs(thesis[k])) << k;
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
