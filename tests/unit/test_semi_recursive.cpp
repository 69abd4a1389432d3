// Semi-recursive dynamic terms (seed 001 eq. (3)-(19)) against CRBA, RNEA and ABA, and the
// tree-sparse LTL factorisation against a dense Cholesky, on random trees with every joint type
// and every force element that acts on a tree.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr int kBodyCounts[] = {1, 2, 3, 5, 8, 13, 21, 32};
constexpr double kTime = 0.3;  // time at which the force elements are evaluated

// Norm-wise relative error; zero for the empty vectors of a model whose only joint is fixed.
double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.size() == 0 ? 0.0 : (a - b).norm() / b.norm();
}

Eigen::VectorXd randomVector(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x(i) = u(gen);
  return x;
}

// The semi-recursive terms at the model's (random) initial state.
struct Evaluated {
  explicit Evaluated(const Model& model) : ws(model), M(model.nv, model.nv), Q(model.nv) {
    updateVelocities(model, ws, model.q0, model.v0);
    evaluateForceElements(model, ws, kTime, model.q0, model.v0);
    SemiRecursiveDynamics(model).evaluate(ws, M, Q);
  }
  Workspace ws;
  Eigen::MatrixXd M;
  Eigen::VectorXd Q;
};

// Whether body a is body b or one of its ancestors.
bool isAncestorOrSelf(const Model& model, int a, int b) {
  for (int k = b; k != 0; k = model.parent(k))
    if (k == a) return true;
  return false;
}

}  // namespace

// M and Q come from sums in another order and frame than CRBA and RNEA (world frame about the
// origin, against body frames), so they agree to rounding only: observed at most 2e-15 relative on
// these trees. Rounding grows with depth and lever arms; 1e-10, the bound of the other recursive
// dynamics tests, leaves room for that and still catches any wrong term.
TEST(SemiRecursive, MassMatrixAndForcesMatchCrbaAndRnea) {
  for (int bodies : kBodyCounts) {
    for (unsigned seed = 0; seed < 8; ++seed) {  // 8 seeds: every joint type at every position
      const Model model = test_models::randomTreeWithForceElements(bodies, seed);
      const Evaluated e(model);
      Workspace ws(model);
      Eigen::MatrixXd H(model.nv, model.nv);
      massMatrix(model, ws, model.q0, H);
      Eigen::VectorXd C(model.nv);
      biasForces(model, ws, model.q0, model.v0, &e.ws.fext, C);
      EXPECT_LT(relativeError(e.M, H), 1e-10) << bodies << " bodies, seed " << seed;
      EXPECT_LT(relativeError(e.Q, e.ws.tau - C), 1e-10) << bodies << " bodies, seed " << seed;
      // forces() repeats evaluate()'s arithmetic for Q; only instruction scheduling may differ.
      Eigen::VectorXd Q(model.nv);
      SemiRecursiveDynamics(model).forces(e.ws, Q);
      EXPECT_LT(relativeError(Q, e.Q), 1e-14) << bodies << " bodies, seed " << seed;
    }
  }
}

// seed 001 eq. (16): coordinates of bodies on different branches do not couple; those entries are
// never written, so they are exactly zero.
TEST(SemiRecursive, MassMatrixIsZeroOutsideTheTreePattern) {
  for (int bodies : kBodyCounts) {
    const Model model = test_models::randomTreeWithForceElements(bodies, 5);
    const Evaluated e(model);
    int zeros = 0;
    for (int a = 1; a <= model.bodyCount(); ++a)
      for (int b = 1; b <= model.bodyCount(); ++b) {
        if (isAncestorOrSelf(model, a, b) || isAncestorOrSelf(model, b, a)) continue;
        const Joint &ja = model.joints[a], &jb = model.joints[b];
        EXPECT_TRUE(e.M.block(ja.iv, jb.iv, ja.nv, jb.nv).isZero(0.0)) << "bodies " << a << ", " << b;
        zeros += ja.nv * jb.nv;
      }
    if (bodies == 32) {
      EXPECT_GT(zeros, 0) << "the test tree has no branches";
    }
  }
}

// M^-1 Q from the tree factorisation against the ABA, which shares no code with it. The solve
// magnifies rounding by the condition number of M (up to 6e4 on these trees; observed error at
// most 6e-13), hence the looser 1e-9.
TEST(SemiRecursive, AccelerationsMatchAba) {
  for (int bodies : kBodyCounts) {
    for (unsigned seed = 0; seed < 8; ++seed) {
      const Model model = test_models::randomTreeWithForceElements(bodies, seed);
      Evaluated e(model);
      TreeCholesky chol(model);
      chol.factorize(e.M);
      Eigen::VectorXd vdot = e.Q;
      chol.solveInPlace(vdot);
      Eigen::VectorXd aba(model.nv);
      forwardDynamics(model, e.ws, model.q0, model.v0, e.ws.tau, &e.ws.fext, aba);
      EXPECT_LT(relativeError(vdot, aba), 1e-9) << bodies << " bodies, seed " << seed;
    }
  }
}

// Against Eigen's dense LLT on M and on M + c K, K the mass matrix at another configuration (the
// same pattern, as a stiffness term would have). Both are backward-stable Cholesky solves of the
// same systems (cond up to 6e4): they agree to cond * eps (observed at most 5e-13), under 1e-10.
TEST(TreeCholesky, SolveMatchesDenseCholesky) {
  for (int bodies : kBodyCounts) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const Model model = test_models::randomTree(bodies, seed).build();
      Workspace ws(model);
      Eigen::MatrixXd M(model.nv, model.nv), K(model.nv, model.nv);
      massMatrix(model, ws, model.q0, M);
      Eigen::VectorXd q2 = model.q0 + 0.5 * randomVector(model.nq, seed + 7);
      massMatrix(model, ws, q2, K);
      TreeCholesky chol(model);
      for (const Eigen::MatrixXd& A : {M, Eigen::MatrixXd(M + 30.0 * K)}) {
        const Eigen::VectorXd b = randomVector(model.nv, seed + 11);
        Eigen::MatrixXd factor = A;
        chol.factorize(factor);
        Eigen::VectorXd x = b;
        chol.solveInPlace(x);
        EXPECT_LT(relativeError(x, A.llt().solve(b)), 1e-10) << bodies << " bodies, seed " << seed;
      }
    }
  }
}

TEST(TreeCholesky, ThrowsNamingTheJointAtANonPositivePivot) {
  const Model model = test_models::randomTree(12, 3).build();
  Workspace ws(model);
  Eigen::MatrixXd M(model.nv, model.nv);
  massMatrix(model, ws, model.q0, M);
  TreeCholesky chol(model);
  // A negative or NaN diagonal entry: the first pivot of that coordinate already fails.
  for (double bad : {-1.0, std::nan("")}) {
    const Joint& j = model.joints[model.bodyCount()];
    ASSERT_GT(j.nv, 0);
    Eigen::MatrixXd A = M;
    A(j.iv, j.iv) = bad;
    try {
      chol.factorize(A);
      ADD_FAILURE() << "no exception for pivot " << bad;
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find("'" + j.name + "'"), std::string::npos) << err.what();
    }
  }
  // Indefinite with a positive diagonal: M - s 1 with s between the two smallest eigenvalues
  // (and below the smallest diagonal entry) has one negative eigenvalue that only elimination finds.
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues();
  const double s = 0.5 * (eig[0] + std::min(eig[1], M.diagonal().minCoeff()));
  Eigen::MatrixXd A = M - s * Eigen::MatrixXd::Identity(model.nv, model.nv);
  ASSERT_GT(A.diagonal().minCoeff(), 0.0);
  EXPECT_THROW(chol.factorize(A), Error);
}

}  // namespace ARTICULA_TEST_FILE
