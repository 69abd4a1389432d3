// SparseCholesky on both of its numeric paths: the simplicial kernel with precomputed row
// patterns (src/linalg/simplicial_cholesky.hpp), which CHOLMOD's analysis picks for small and
// sparse factors, and CHOLMOD's supernodal factorisation, picked for dense ones. Solutions
// against Eigen's dense LLT, the factor's size, refactorisation after a matrix that is not
// positive definite, and non-finite values.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <limits>
#include <random>
#include <vector>

#include "articula/linalg/sparse_cholesky.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

struct Pattern {
  int n = 0;
  std::vector<int> columnStart{0}, rowIndex;  // upper triangle, rows ascending, diagonal last
};

Pattern fromMask(const Eigen::MatrixXi& mask) {
  Pattern p;
  p.n = static_cast<int>(mask.cols());
  for (int j = 0; j < p.n; ++j) {
    for (int i = 0; i <= j; ++i)
      if (mask(i, j) || i == j) p.rowIndex.push_back(i);
    p.columnStart.push_back(static_cast<int>(p.rowIndex.size()));
  }
  return p;
}

// The 2D five-point Laplacian on a side x side grid plus a shift: sparse, with fill-in.
Pattern grid(int side) {
  const int n = side * side;
  Eigen::MatrixXi mask = Eigen::MatrixXi::Zero(n, n);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const int k = y * side + x;
      if (x + 1 < side) mask(k, k + 1) = 1;
      if (y + 1 < side) mask(k, k + side) = 1;
    }
  return fromMask(mask);
}

// A tree's branch-induced pattern (every coordinate coupled with its ancestors, as the joint-space
// mass matrix) with a few loop couplings between branches.
Pattern treeWithLoops(int n, std::mt19937& gen) {
  Eigen::MatrixXi mask = Eigen::MatrixXi::Zero(n, n);
  std::vector<int> parent(static_cast<std::size_t>(n), -1);
  for (int j = 1; j < n; ++j) parent[static_cast<std::size_t>(j)] = std::uniform_int_distribution<int>(0, j - 1)(gen);
  for (int j = 1; j < n; ++j)
    for (int a = parent[static_cast<std::size_t>(j)]; a >= 0; a = parent[static_cast<std::size_t>(a)]) mask(a, j) = 1;
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int k = 0; k < n / 8; ++k) {
    const int a = pick(gen), b = pick(gen);
    mask(std::min(a, b), std::max(a, b)) = 1;
  }
  return fromMask(mask);
}

Pattern dense(int n) { return fromMask(Eigen::MatrixXi::Ones(n, n)); }

// Tridiagonal plus `couplings` random entries.
Pattern bandWithCouplings(int n, int couplings, std::mt19937& gen) {
  Eigen::MatrixXi mask = Eigen::MatrixXi::Zero(n, n);
  for (int j = 1; j < n; ++j) mask(j - 1, j) = 1;
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int k = 0; k < couplings; ++k) {
    const int a = pick(gen), b = pick(gen);
    mask(std::min(a, b), std::max(a, b)) = 1;
  }
  return fromMask(mask);
}

// Random values on the pattern, diagonally dominant (positive definite) by `margin`; returns the
// whole matrix and writes the pattern's values.
Eigen::MatrixXd randomValues(const Pattern& p, SparseCholesky& chol, double margin, std::mt19937& gen) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(p.n, p.n);
  Eigen::Map<Eigen::VectorXd> values = chol.values();
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (int j = 0; j < p.n; ++j)
    for (int k = p.columnStart[j]; k < p.columnStart[j + 1] - 1; ++k) {
      A(p.rowIndex[k], j) = A(j, p.rowIndex[k]) = entry(gen);
      values[k] = A(p.rowIndex[k], j);
    }
  for (int j = 0; j < p.n; ++j) {
    A(j, j) = A.row(j).cwiseAbs().sum() + margin;
    values[p.columnStart[j + 1] - 1] = A(j, j);
  }
  return A;
}

// Solves with three sets of values (refactorisation on one analysis) against the dense LLT, to
// 1e-12 relative: these matrices are diagonally dominant, so their condition numbers are small
// (below about 1e2) and both factorisations are backward stable.
void expectSolves(const Pattern& p, SparseCholesky& chol, std::mt19937& gen) {
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::MatrixXd A = randomValues(p, chol, 0.5 + trial, gen);
    ASSERT_TRUE(chol.factorize()) << "trial " << trial;
    const Eigen::VectorXd b = Eigen::VectorXd::Random(p.n);
    Eigen::VectorXd x = b;
    chol.solveInPlace(x);
    const Eigen::VectorXd expected = A.llt().solve(b);
    EXPECT_LT((x - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.lpNorm<Eigen::Infinity>())
        << "n = " << p.n << ", trial " << trial;
    EXPECT_LT((A * x - b).lpNorm<Eigen::Infinity>(), 1e-12 * b.lpNorm<Eigen::Infinity>());
  }
}

}  // namespace

TEST(SparseCholesky, SimplicialFactorsOfSparsePatternsSolveLikeDenseCholesky) {
  std::mt19937 gen(3);
  for (const Pattern& p : {grid(1), grid(2), grid(9), treeWithLoops(63, gen), treeWithLoops(120, gen)}) {
    SparseCholesky chol;
    chol.analyze(p.n, p.columnStart, p.rowIndex);
    // A simplicial factor stores its entries only: at least the matrix's lower triangle, at most
    // a dense triangle (a supernodal one stores whole rectangles: see the next test).
    EXPECT_GE(chol.factorNonZeros(), static_cast<long>(p.rowIndex.size()));
    EXPECT_LE(chol.factorNonZeros(), static_cast<long>(p.n) * (p.n + 1) / 2);
    expectSolves(p, chol, gen);
  }
}

// The pattern's entry count, then three refactorisations on one analysis: solutions within 1e-13
// of the dense LLT's (absolute: with diagonals of 1-3 above the rows' sums, |x| <= |b| <= 1).
TEST(SparseCholesky, BandWithCouplingsSolvesRefactorisesAndDetectsIndefiniteMatrices) {
  std::mt19937 gen(16);
  const Pattern p = bandWithCouplings(40, 30, gen);
  SparseCholesky chol;
  chol.analyze(p.n, p.columnStart, p.rowIndex);
  EXPECT_EQ(chol.nonZeros(), static_cast<int>(p.rowIndex.size()));
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::MatrixXd A = randomValues(p, chol, 1.0 + trial, gen);
    ASSERT_TRUE(chol.factorize()) << "trial " << trial;
    const Eigen::VectorXd b = Eigen::VectorXd::Random(p.n);
    Eigen::VectorXd x = b;
    chol.solveInPlace(x);
    EXPECT_LT((x - A.llt().solve(b)).lpNorm<Eigen::Infinity>(), 1e-13) << "trial " << trial;
  }
  chol.values()[p.columnStart[p.n / 2 + 1] - 1] = -5.0;  // a negative diagonal entry
  EXPECT_FALSE(chol.factorize());
}

TEST(SparseCholesky, DenseMatricesGoToTheSupernodalFactorisation) {
  std::mt19937 gen(5);
  const int n = 160;
  const Pattern p = dense(n);
  SparseCholesky chol;
  chol.analyze(n, p.columnStart, p.rowIndex);
  // CHOLMOD keeps a supernode as a dense rectangle: one supernode of all n columns is n x n
  // entries, where the simplicial factor would hold n (n + 1) / 2.
  EXPECT_EQ(chol.factorNonZeros(), static_cast<long>(n) * n);
  expectSolves(p, chol, gen);
}

TEST(SparseCholesky, RefactorisesAfterAMatrixThatIsNotPositiveDefinite) {
  std::mt19937 gen(7);
  for (const Pattern& p : {grid(6), dense(160)}) {
    SparseCholesky chol;
    chol.analyze(p.n, p.columnStart, p.rowIndex);
    randomValues(p, chol, 1.0, gen);
    chol.values()[p.columnStart[p.n / 2 + 1] - 1] = -1.0;  // a negative diagonal entry mid-way
    EXPECT_FALSE(chol.factorize());
    randomValues(p, chol, 1.0, gen);
    chol.values()[0] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(chol.factorize());
    // The failures leave nothing behind: the next factorisation is exact again.
    expectSolves(p, chol, gen);
  }
}

}  // namespace ARTICULA_TEST_FILE
