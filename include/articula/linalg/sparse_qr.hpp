// Sparse QR factorisation with rank detection of an m x n matrix with a fixed pattern, over
// SuiteSparseQR (SPQR): the fill-reducing column ordering and the symbolic analysis
// (SuiteSparseQR_symbolic) are done once per pattern, every later factorisation is numeric only
// (SuiteSparseQR_numeric). It solves the rectangular, possibly redundant but compatible systems
// A x = b of seed 004 section 3.1, where the paper uses MA48: A E = Q R with E the column
// ordering, x = E R^-1 (Q^T b)(0:rank). SPQR's types stay out of this header.
//
// Rank detection is SPQR's (Heath's method): a pivot column whose remaining 2-norm is at most
// tol = 20 (m + n) eps max_j |A(:, j)| is "dead" and gets x_j = 0 (a basic solution). SPQR does
// no column pivoting for size; R's diagonal then only estimates the conditioning.
//
// Memory: analyze() allocates, and sizes the right-hand-side buffer handed to SPQR (reused while
// the number of right-hand sides does not grow). What SPQR allocates itself cannot be avoided
// through its API: every factorize() frees and allocates the numeric factor (R, the Householder
// vectors, the frontal stacks: SuiteSparseQR_numeric -> spqr_factorize), and every solve gets
// Q^T B and X as freshly allocated cholmod_dense results (SuiteSparseQR_qmult, SuiteSparseQR_solve,
// which also allocate small workspaces of their own); both are freed before solve() returns. All
// of it goes through CHOLMOD's malloc, none through operator new.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace articula {

class SparseQr {
 public:
  SparseQr();
  ~SparseQr();
  SparseQr(const SparseQr&) = delete;
  SparseQr& operator=(const SparseQr&) = delete;

  /// The pattern of an m x n matrix in compressed-column form: the rows of column j are
  /// rowIndex[columnStart[j] .. columnStart[j + 1]), ascending, each in [0, m). Orders and
  /// analyses it (once); the values are then written through values().
  /// Throws articula::Error when the pattern is malformed or SPQR fails.
  void analyze(int rows, int cols, const std::vector<int>& columnStart, const std::vector<int>& rowIndex);

  int rows() const { return m_; }
  int cols() const { return n_; }
  /// Stored entries of the pattern.
  int nonZeros() const;

  /// The matrix values in the pattern's order (nonZeros() entries), written by the caller.
  Eigen::Map<Eigen::VectorXd> values();

  /// Numeric factorisation of the current values with rank detection. False (and no usable
  /// factorisation) when a value is not finite; throws articula::Error when SPQR fails.
  bool factorize();

  /// Numerical rank found by the last successful factorize().
  int rank() const;

  /// min |R_kk| / max |R_kk| over the rank() pivots of the last factorisation (0 when no pivot
  /// is live, 1 for an empty matrix).
  /// An estimate of the reciprocal condition number, not a bound: R comes from a fill-reducing,
  /// not a rank-revealing, column order. It falls to zero as A approaches rank deficiency
  /// (prod |R_kk| = sqrt(det(A^T A)) when A has full column rank), which is what it is for.
  double conditioningEstimate() const;

  /// X = E R^-1 (Q^T B)(0:rank), column by column, for B (rows() x k) and X (cols() x k); a vector
  /// or a block binds to these references without a copy. Each column is the exact solution of
  /// A x = b when b is compatible (in the range of A) and A has full column rank, and the
  /// least-squares solution otherwise (with the dead columns' entries zero when A is rank deficient).
  /// Throws articula::Error for sizes that do not match or without a usable factorisation.
  void solve(const Eigen::Ref<const Eigen::MatrixXd>& B, Eigen::Ref<Eigen::MatrixXd> X);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int m_ = 0, n_ = 0;
};

}  // namespace articula
