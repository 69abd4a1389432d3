// SparseLu (KLU): solutions of random sparse unsymmetric systems against Eigen's dense LU, the
// refactorisation with new values in the kept pivot order and fresh pivots when a kept one
// vanishes, singular and non-finite matrices reported by false, malformed patterns by exceptions,
// and the pivot order restored bit for bit.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/linalg/sparse_lu.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

struct Pattern {
  int n = 0;
  std::vector<int> columnStart{0}, rowIndex;
  std::vector<int> transversal;  // a zero-free transversal: row transversal[j] in column j
};

// A random sparse pattern with up to 1 + perColumn entries per column and a zero-free transversal
// that is not the diagonal (a random permutation), so that KLU's block triangular form and
// pivoting have work to do.
Pattern randomPattern(int n, int perColumn, std::mt19937& gen) {
  Pattern a;
  a.n = n;
  for (int i = 0; i < n; ++i) a.transversal.push_back(i);
  std::shuffle(a.transversal.begin(), a.transversal.end(), gen);
  std::uniform_int_distribution<int> row(0, n - 1);
  for (int j = 0; j < n; ++j) {
    std::vector<int> rows{a.transversal[static_cast<std::size_t>(j)]};
    for (int k = 0; k < perColumn; ++k) rows.push_back(row(gen));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    a.rowIndex.insert(a.rowIndex.end(), rows.begin(), rows.end());
    a.columnStart.push_back(static_cast<int>(a.rowIndex.size()));
  }
  return a;
}

// Values in [-1, 1], the transversal's in +-[2, 3]: regular, moderately conditioned.
Eigen::VectorXd randomValues(const Pattern& a, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd x(static_cast<Eigen::Index>(a.rowIndex.size()));
  for (int j = 0; j < a.n; ++j)
    for (int k = a.columnStart[j]; k < a.columnStart[j + 1]; ++k)
      x[k] = a.rowIndex[k] == a.transversal[static_cast<std::size_t>(j)]
                 ? (u(gen) < 0 ? -1.0 : 1.0) * (2.5 + 0.5 * u(gen))
                 : u(gen);
  return x;
}

Eigen::MatrixXd dense(const Pattern& a, const Eigen::VectorXd& values) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(a.n, a.n);
  for (int j = 0; j < a.n; ++j)
    for (int k = a.columnStart[j]; k < a.columnStart[j + 1]; ++k) A(a.rowIndex[k], j) = values[k];
  return A;
}

double conditionNumber(const Eigen::MatrixXd& A) {
  const Eigen::VectorXd s = Eigen::JacobiSVD<Eigen::MatrixXd>(A).singularValues();
  return s[0] / s[s.size() - 1];
}

// Every value times 1 + 0.2 u, u uniform in [-1, 1]: how a tangent matrix changes between
// factorisations that keep the pivots.
Eigen::VectorXd perturbed(const Eigen::VectorXd& values, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v = values;
  for (Eigen::Index k = 0; k < v.size(); ++k) v[k] *= 1.0 + 0.2 * u(gen);
  return v;
}

// KLU's solution of A x = b against Eigen's partial-pivoting LU. Gaussian elimination is backward
// stable up to the growth of the entries: the residual is at most about n eps |A| |x| times the
// growth, which threshold pivoting at 0.1 keeps modest (measured on these matrices: below
// 3 n eps; the bound allows 1e2 n eps). Two such solutions differ by at most cond(A) times their
// backward errors, relative to |x|.
void expectSolves(SparseLu& lu, const Pattern& a, const Eigen::VectorXd& values, std::mt19937& gen, const char* what) {
  lu.values() = values;
  ASSERT_TRUE(lu.factorize()) << what;
  const Eigen::MatrixXd A = dense(a, values);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd b(a.n);
  for (int i = 0; i < a.n; ++i) b[i] = u(gen);
  Eigen::VectorXd x = b;
  lu.solveInPlace(x);
  const Eigen::VectorXd expected = A.partialPivLu().solve(b);
  const double n = a.n, scale = x.cwiseAbs().maxCoeff();
  const double backward = (A * x - b).cwiseAbs().maxCoeff() / (A.cwiseAbs().rowwise().sum().maxCoeff() * scale);
  EXPECT_LT(backward, 1e2 * n * kEps) << what << ", n = " << a.n;
  EXPECT_LT((x - expected).cwiseAbs().maxCoeff(), 2e2 * n * kEps * conditionNumber(A) * scale)
      << what << ", n = " << a.n;
}

}  // namespace

TEST(SparseLu, SolvesRandomUnsymmetricSystemsLikeDenseLu) {
  for (unsigned seed = 1; seed <= 6; ++seed)
    for (int n : {1, 7, 40, 120}) {
      std::mt19937 gen(seed);
      const Pattern a = randomPattern(n, 3, gen);
      SparseLu lu;
      lu.analyze(a.n, a.columnStart, a.rowIndex);
      EXPECT_EQ(lu.size(), n);
      EXPECT_EQ(lu.nonZeros(), static_cast<int>(a.rowIndex.size()));
      EXPECT_GT(lu.factorNonZeros(), 0);
      std::mt19937 values(seed + 100);
      const Eigen::VectorXd first = randomValues(a, values);
      expectSolves(lu, a, first, gen, "first factorisation");
      EXPECT_EQ(lu.pivotingValues(), first);
      // New values, same pattern: klu_refactor in the kept pivot order.
      Eigen::VectorXd next = first;
      for (int k = 0; k < 3; ++k) {
        next = perturbed(next, values);
        expectSolves(lu, a, next, gen, "refactorisation");
        EXPECT_EQ(lu.pivotingValues(), first) << "the pivots were chosen again";
      }
      // Values unrelated to those that chose the pivots: refactorised, or factorised afresh when
      // the kept pivots let the entries grow (either way as accurate).
      expectSolves(lu, a, randomValues(a, values), gen, "unrelated values");
    }
}

// A kept pivot that the new values make zero: the refactorisation fails and the pivots are
// chosen afresh, transparently. [0 1; 1 0] pivots off the diagonal, [1 0; 0 1] then has zeros there.
TEST(SparseLu, ChoosesPivotsAfreshWhenAKeptPivotVanishes) {
  Pattern a;
  a.n = 2;
  a.columnStart = {0, 2, 4};
  a.rowIndex = {0, 1, 0, 1};
  SparseLu lu;
  lu.analyze(a.n, a.columnStart, a.rowIndex);
  std::mt19937 gen(3);
  expectSolves(lu, a, Eigen::Vector4d(0.0, 1.0, 1.0, 0.0), gen, "swap");
  expectSolves(lu, a, Eigen::Vector4d(1.0, 0.0, 0.0, 1.0), gen, "identity");
  EXPECT_EQ(lu.pivotingValues(), Eigen::VectorXd(Eigen::Vector4d(1.0, 0.0, 0.0, 1.0)));
}

TEST(SparseLu, SingularAndNonFiniteMatricesReturnFalse) {
  std::mt19937 gen(11);
  const Pattern a = randomPattern(30, 3, gen);
  std::mt19937 values(12);
  const Eigen::VectorXd regular = randomValues(a, values);
  SparseLu lu;
  lu.analyze(a.n, a.columnStart, a.rowIndex);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(a.n);
  EXPECT_THROW(lu.solveInPlace(x), Error);  // nothing factorised yet
  // Column 4 all zeros (entries present): a zero pivot, in a first factorisation and in a
  // refactorisation after a regular one.
  Eigen::VectorXd zeroColumn = regular;
  zeroColumn.segment(a.columnStart[4], a.columnStart[5] - a.columnStart[4]).setZero();
  for (bool refactor : {false, true}) {
    if (refactor) expectSolves(lu, a, regular, gen, "regular");
    lu.values() = zeroColumn;
    EXPECT_FALSE(lu.factorize()) << "refactor " << refactor;
    EXPECT_EQ(lu.pivotingValues().size(), 0);
    EXPECT_THROW(lu.solveInPlace(x), Error);
  }
  // Exactly rank-deficient without a zero column: [1 2; 2 4] in a 3 x 3 matrix.
  Pattern full;
  full.n = 3;
  full.columnStart = {0, 3, 6, 9};
  full.rowIndex = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  SparseLu small;
  small.analyze(full.n, full.columnStart, full.rowIndex);
  Eigen::VectorXd v(9);
  v << 1, 2, 0, 2, 4, 0, 0, 0, 5;  // columns
  small.values() = v;
  EXPECT_FALSE(small.factorize());
  // Not finite: refused before KLU sees it, then a regular matrix factorises again.
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Eigen::VectorXd w = regular;
    w[5] = bad;
    lu.values() = w;
    EXPECT_FALSE(lu.factorize()) << bad;
  }
  expectSolves(lu, a, regular, gen, "after the failures");
}

TEST(SparseLu, MalformedPatternsThrow) {
  SparseLu lu;
  EXPECT_THROW(lu.values(), Error);
  EXPECT_THROW(lu.factorize(), Error);
  auto malformed = [&](int n, std::vector<int> columnStart, std::vector<int> rowIndex) {
    EXPECT_THROW(lu.analyze(n, columnStart, rowIndex), Error) << "n = " << n;
  };
  malformed(-1, {0}, {});
  malformed(2, {0, 1}, {0});           // too few column starts
  malformed(2, {1, 2, 2}, {0, 1});     // not starting at 0
  malformed(2, {0, 2, 3}, {0, 1});     // last start != entry count
  malformed(2, {0, 2, 1}, {0, 1});     // decreasing
  malformed(2, {0, 1, 2}, {0, 2});     // row out of range
  malformed(2, {0, 1, 2}, {-1, 1});    // negative row
  malformed(2, {0, 2, 3}, {1, 0, 1});  // rows not ascending
  malformed(2, {0, 2, 3}, {0, 0, 1});  // duplicate row
  malformed(3, {0, 1, 1, 2}, {0, 2});  // column 1 empty: structurally singular
  malformed(2, {0, 1, 2}, {0, 0});     // rows 1 never used: structurally singular
  try {
    lu.analyze(2, {0, 1, 2}, {0, 0});
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("structurally singular"), std::string::npos) << e.what();
  }
  // A good pattern afterwards; a right-hand side of the wrong size.
  lu.analyze(2, {0, 1, 2}, {0, 1});
  lu.values() = Eigen::Vector2d(2.0, 4.0);
  ASSERT_TRUE(lu.factorize());
  Eigen::VectorXd x = Eigen::Vector3d::Ones();
  EXPECT_THROW(lu.solveInPlace(x), Error);
  x = Eigen::Vector2d(1.0, 1.0);
  lu.solveInPlace(x);
  EXPECT_EQ(x, Eigen::Vector2d(0.5, 0.25));
}

// The pivot order is state: another SparseLu given pivotingValues() refactorises new values to
// the same bits, and resetPivots() makes the next factorisation choose again.
TEST(SparseLu, RestoredPivotsGiveTheSameBits) {
  std::mt19937 gen(21);
  const Pattern a = randomPattern(60, 3, gen);
  std::mt19937 values(22);
  const Eigen::VectorXd first = randomValues(a, values), second = perturbed(first, values);
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(a.n, -1.0, 2.0);
  SparseLu lu, restored;
  for (SparseLu* s : {&lu, &restored}) s->analyze(a.n, a.columnStart, a.rowIndex);
  lu.values() = first;
  ASSERT_TRUE(lu.factorize());
  lu.values() = second;
  ASSERT_TRUE(lu.factorize());
  ASSERT_EQ(lu.pivotingValues(), first);  // refactorised
  Eigen::VectorXd x = b;
  lu.solveInPlace(x);
  ASSERT_TRUE(restored.restorePivots(lu.pivotingValues()));
  EXPECT_EQ(restored.pivotingValues(), first);
  restored.values() = second;
  ASSERT_TRUE(restored.factorize());
  Eigen::VectorXd y = b;
  restored.solveInPlace(y);
  EXPECT_EQ(x, y);
  restored.resetPivots();
  EXPECT_EQ(restored.pivotingValues().size(), 0);
  ASSERT_TRUE(restored.factorize());
  EXPECT_EQ(restored.pivotingValues(), second);
}

}  // namespace ARTICULA_TEST_FILE
