// SparseQr (SPQR) on random sparse redundant-but-compatible systems, against Eigen's dense QR.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/linalg/sparse_qr.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// A dense matrix with its structural pattern (entries that may be non-zero).
struct PatternMatrix {
  Eigen::MatrixXd values;
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> pattern;
  int independentRows = 0;
  std::vector<std::pair<int, int>> sources;  // row independentRows + k = row a (+ 2 row b when b >= 0)
};

// Compressed-column pattern of `a.pattern`.
void compressedColumns(const PatternMatrix& a, std::vector<int>& columnStart, std::vector<int>& rowIndex) {
  columnStart.assign(1, 0);
  rowIndex.clear();
  for (int j = 0; j < a.pattern.cols(); ++j) {
    for (int i = 0; i < a.pattern.rows(); ++i)
      if (a.pattern(i, j)) rowIndex.push_back(i);
    columnStart.push_back(static_cast<int>(rowIndex.size()));
  }
}

// Writes a's values into the analysed SparseQr in the pattern's order.
void setValues(SparseQr& qr, const PatternMatrix& a) {
  Eigen::Map<Eigen::VectorXd> x = qr.values();
  int k = 0;
  for (int j = 0; j < a.pattern.cols(); ++j)
    for (int i = 0; i < a.pattern.rows(); ++i)
      if (a.pattern(i, j)) x[k++] = a.values(i, j);
  ASSERT_EQ(k, x.size());
}

// Values for a's pattern: random in the independent rows, with the diagonal-like entry (column
// i mod n of row i) shifted by 3 to keep the column rank full, and the redundant rows combined
// from them as a.sources says.
void drawValues(PatternMatrix& a, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const int n = static_cast<int>(a.pattern.cols());
  a.values.setZero(a.pattern.rows(), n);
  for (int i = 0; i < a.independentRows; ++i)
    for (int j = 0; j < n; ++j)
      if (a.pattern(i, j)) a.values(i, j) = value(rng) + (j == i % n ? 3.0 : 0.0);
  for (std::size_t k = 0; k < a.sources.size(); ++k) {
    const auto [ra, rb] = a.sources[k];
    const int i = a.independentRows + static_cast<int>(k);
    a.values.row(i) = a.values.row(ra);
    if (rb >= 0) a.values.row(i) += 2.0 * a.values.row(rb);
  }
}

// n columns, n + 2 independent sparse rows (three entries or fewer each), then redundant rows:
// `duplicates` copies of rows and `combinations` sums row a + 2 row b.
PatternMatrix redundantCompatible(int n, int duplicates, int combinations, std::mt19937& rng) {
  PatternMatrix a;
  a.independentRows = n + 2;
  const int m = a.independentRows + duplicates + combinations;
  std::uniform_int_distribution<int> column(0, n - 1), row(0, a.independentRows - 1);
  a.pattern.setConstant(m, n, false);
  for (int i = 0; i < a.independentRows; ++i) {
    a.pattern(i, i % n) = true;
    for (int e = 0; e < 2; ++e) a.pattern(i, column(rng)) = true;
  }
  for (int k = 0; k < duplicates + combinations; ++k) {
    const int ra = row(rng), rb = k < duplicates ? -1 : row(rng);
    a.sources.emplace_back(ra, rb);
    const int i = a.independentRows + k;
    a.pattern.row(i) = a.pattern.row(ra);
    if (rb >= 0) a.pattern.row(i) = a.pattern.row(i).array() || a.pattern.row(rb).array();
  }
  drawValues(a, rng);
  return a;
}

void analyze(SparseQr& qr, const PatternMatrix& a) {
  std::vector<int> columnStart, rowIndex;
  compressedColumns(a, columnStart, rowIndex);
  qr.analyze(static_cast<int>(a.values.rows()), static_cast<int>(a.values.cols()), columnStart, rowIndex);
  setValues(qr, a);
}

}  // namespace

// Compatible right-hand sides (b = A x): SPQR recovers x to round-off, as Eigen's dense QR does,
// with the duplicated and combined rows doing no harm; refactorising with new values on the same
// analysis gives the new solution.
TEST(SparseQr, SolvesRedundantButCompatibleSystems) {
  std::mt19937 rng(7);
  for (int n : {1, 5, 30, 80}) {
    PatternMatrix values = redundantCompatible(n, n / 2 + 1, n / 3 + 1, rng);
    SparseQr qr;
    analyze(qr, values);
    if (n > 5) {
      EXPECT_LT(qr.nonZeros(), values.values.size() / 2);
    }
    for (int refactorisation = 0; refactorisation < 2; ++refactorisation) {
      if (refactorisation) {
        drawValues(values, rng);
        setValues(qr, values);
      }
      ASSERT_TRUE(qr.factorize());
      EXPECT_EQ(qr.rank(), n);
      const Eigen::VectorXd x = Eigen::VectorXd::Random(n);
      const Eigen::VectorXd b = values.values * x;
      Eigen::VectorXd solution(n);
      qr.solve(b, solution);
      const Eigen::VectorXd dense = values.values.colPivHouseholderQr().solve(b);
      // Diagonally dominated rows keep the condition number below about 1e2: round-off of
      // 1e2 * 1e-16 * |x|, with room for the growth over n columns.
      EXPECT_LT((solution - x).cwiseAbs().maxCoeff(), 1e-12) << "n = " << n;
      EXPECT_LT((solution - dense).cwiseAbs().maxCoeff(), 1e-12) << "n = " << n;
      EXPECT_GT(qr.conditioningEstimate(), 0.0);
      EXPECT_LE(qr.conditioningEstimate(), 1.0);
    }
  }
}

// A block of right-hand sides gives, column by column, the vector solves; an incompatible right
// side gets the least-squares solution.
TEST(SparseQr, BlockRightHandSidesAndLeastSquares) {
  std::mt19937 rng(11);
  const int n = 20;
  const PatternMatrix a = redundantCompatible(n, 4, 4, rng);
  SparseQr qr;
  analyze(qr, a);
  ASSERT_TRUE(qr.factorize());
  const Eigen::MatrixXd X = Eigen::MatrixXd::Random(n, 3);
  Eigen::MatrixXd B(a.values.rows(), 4);
  B.leftCols(3) = a.values * X;
  B.col(3) = Eigen::VectorXd::Random(a.values.rows());  // not in the range of A
  Eigen::MatrixXd solution(n, 4);
  qr.solve(B, solution);
  EXPECT_LT((solution.leftCols(3) - X).cwiseAbs().maxCoeff(), 1e-12);
  for (int k = 0; k < 4; ++k) {
    Eigen::VectorXd x(n);
    qr.solve(B.col(k), x);
    EXPECT_LT((x - solution.col(k)).cwiseAbs().maxCoeff(), 1e-14) << k;
  }
  const Eigen::VectorXd leastSquares = a.values.colPivHouseholderQr().solve(B.col(3));
  EXPECT_LT((solution.col(3) - leastSquares).cwiseAbs().maxCoeff(), 1e-12);
  // The same block again, now that the right-hand-side buffer has its size.
  Eigen::MatrixXd again(n, 4);
  qr.solve(B, again);
  EXPECT_EQ(again, solution);
}

// A column that is the sum of two others makes the matrix rank deficient: the rank drops by one
// (as Eigen's full-pivoting LU finds), and for a compatible right side the basic solution still
// satisfies the equations.
TEST(SparseQr, DetectsRankDeficiency) {
  std::mt19937 rng(3);
  const int n = 12;
  PatternMatrix a = redundantCompatible(n, 3, 3, rng);
  a.values.col(5) = a.values.col(1) + a.values.col(2);
  a.pattern.col(5) = a.pattern.col(1).array() || a.pattern.col(2).array();
  SparseQr qr;
  analyze(qr, a);
  ASSERT_TRUE(qr.factorize());
  Eigen::FullPivLU<Eigen::MatrixXd> lu(a.values);
  lu.setThreshold(1e-10);
  EXPECT_EQ(lu.rank(), n - 1);
  EXPECT_EQ(qr.rank(), n - 1);
  const Eigen::VectorXd b = a.values * Eigen::VectorXd::Random(n);
  Eigen::VectorXd x(n);
  qr.solve(b, x);
  EXPECT_LT((a.values * x - b).cwiseAbs().maxCoeff(), 1e-12);
}

// R's diagonal: for a diagonal matrix (with a redundant copy of a row) it is the diagonal itself
// up to sign, whatever the column order; as two columns become parallel the estimate falls in
// proportion to the angle between them.
TEST(SparseQr, ConditioningEstimateFromTheDiagonalOfR) {
  PatternMatrix d;
  d.values.setZero(5, 4);
  d.values.diagonal() << 2.0, -0.5, 4.0, 1.0;
  d.values.row(4) = d.values.row(1);
  d.pattern = d.values.array() != 0.0;
  SparseQr qr;
  analyze(qr, d);
  ASSERT_TRUE(qr.factorize());
  // Row 1 and its copy fold into one R entry of size sqrt(2) * 0.5.
  EXPECT_NEAR(qr.conditioningEstimate(), std::sqrt(2.0) * 0.5 / 4.0, 1e-15);

  PatternMatrix p;
  p.pattern.setConstant(3, 2, true);
  auto estimate = [&](double angle) {
    p.values.resize(3, 2);
    p.values << 1.0, std::cos(angle), 0.0, std::sin(angle), 0.0, 0.0;
    analyze(qr, p);
    EXPECT_TRUE(qr.factorize());
    return qr.conditioningEstimate();
  };
  EXPECT_NEAR(estimate(1.0), std::sin(1.0), 1e-15);  // |R_11| = 1, |R_22| = sin(angle)
  EXPECT_EQ(qr.rank(), 2);
  EXPECT_NEAR(estimate(1e-6), 1e-6, 1e-14);
  EXPECT_EQ(qr.rank(), 2);
  // Parallel: the second pivot is dead; the estimate covers the live part only.
  EXPECT_EQ(estimate(0.0), 1.0);
  EXPECT_EQ(qr.rank(), 1);
}

TEST(SparseQr, RejectsMalformedPatternsAndMisuse) {
  SparseQr qr;
  EXPECT_THROW(qr.factorize(), Error);  // before analyze
  EXPECT_THROW(qr.values(), Error);
  EXPECT_THROW(qr.analyze(3, 2, {0, 1}, {0}), Error);           // columnStart too short
  EXPECT_THROW(qr.analyze(3, 2, {1, 1, 2}, {0, 1}), Error);     // does not start at 0
  EXPECT_THROW(qr.analyze(3, 2, {0, 1, 3}, {0, 1}), Error);     // does not end at nnz
  EXPECT_THROW(qr.analyze(3, 2, {0, 2, 1}, {0, 1}), Error);     // decreasing
  EXPECT_THROW(qr.analyze(3, 2, {0, 2, 3}, {1, 0, 2}), Error);  // rows not ascending
  EXPECT_THROW(qr.analyze(3, 2, {0, 2, 3}, {1, 1, 2}), Error);  // duplicate row
  EXPECT_THROW(qr.analyze(3, 2, {0, 1, 2}, {0, 3}), Error);     // row outside the matrix
  EXPECT_THROW(qr.analyze(3, 2, {0, 1, 2}, {-1, 2}), Error);    // negative row
  EXPECT_THROW(qr.analyze(-1, 0, {0}, {}), Error);

  qr.analyze(3, 2, {0, 2, 3}, {0, 1, 2});
  EXPECT_THROW(qr.rank(), Error);  // not factorised yet
  qr.values() << 1.0, 2.0, 3.0;
  ASSERT_TRUE(qr.factorize());
  EXPECT_EQ(qr.rank(), 2);
  Eigen::VectorXd x(2);
  EXPECT_THROW(qr.solve(Eigen::VectorXd::Zero(2), x), Error);  // b of the wrong size
  Eigen::VectorXd wrong(3);
  EXPECT_THROW(qr.solve(Eigen::VectorXd::Zero(3), wrong), Error);
  qr.values()[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(qr.factorize());
  EXPECT_THROW(qr.solve(Eigen::VectorXd::Zero(3), x), Error);
}

}  // namespace ARTICULA_TEST_FILE
