// Sparse LU factorisation of a general (unsymmetric) square matrix with a fixed pattern, over
// SuiteSparse KLU: the block triangular form and fill-reducing ordering (klu_analyze) are computed
// once per pattern; the first factorisation chooses the pivots by threshold partial pivoting
// (klu_factor) and every later one keeps them and only recomputes the numbers (klu_refactor), until
// a refactorisation meets a zero pivot or lets the entries grow too much (its reciprocal pivot
// growth, klu_rgrowth, falls below kRepivotRatio times that of the factorisation which chose the
// pivots): the pivots are then chosen afresh. KLU's types stay out of this header.
//
// The pivot order is part of the state: results depend on the values that chose it. A restart file
// that must continue bit for bit saves pivotingValues() and hands them back to restorePivots().
//
// Memory: analyze() allocates, and so does a factorisation that chooses pivots (klu_factor builds
// the factors); klu_refactor, klu_rcond, klu_rgrowth and klu_solve work in the factors' own
// workspaces and allocate nothing.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace articula {

class SparseLu {
 public:
  /// Threshold partial pivoting: a diagonal pivot is kept while it is at least this fraction of
  /// the largest candidate in its column, which bounds every multiplier by 1 / kPivotTolerance.
  /// KLU's default, 0.001, is tuned for circuit matrices; on random unsymmetric matrices it let
  /// backward errors reach 1e5 n eps, where 0.1 kept them below 3 n eps.
  static constexpr double kPivotTolerance = 0.1;
  /// A refactorisation whose reciprocal pivot growth falls below this fraction of the pivoting
  /// factorisation's is redone with fresh pivots (pivots kept from other values have become poor).
  static constexpr double kRepivotRatio = 1e-3;

  SparseLu();
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  /// The pattern of an n x n matrix in compressed-column form: the rows of column j are
  /// rowIndex[columnStart[j] .. columnStart[j + 1]), ascending, in [0, n). Orders and analyses it
  /// (once); the values are then written through values(). Throws articula::Error when the pattern
  /// is malformed or structurally singular, or when KLU fails.
  void analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex);

  int size() const { return n_; }
  /// Stored entries of the matrix.
  int nonZeros() const;
  /// Entries of the factors L and U (diagonal included in both) and of the off-diagonal blocks of
  /// the block triangular form; KLU's estimate until the first factorisation.
  long factorNonZeros() const;

  /// The matrix values in the pattern's order (nonZeros() entries), written by the caller.
  Eigen::Map<Eigen::VectorXd> values();

  /// Numeric factorisation of the current values. False when the matrix is singular (a zero pivot
  /// with every pivot order partial pivoting finds) or not finite; there is then no factorisation
  /// until the next successful one, and the next call chooses pivots afresh.
  bool factorize();

  /// x <- A^-1 x with the last successful factorisation. Throws articula::Error when there is none.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x);

  /// The values whose factorisation chose the pivot order that factorize() now keeps (empty when
  /// there is none: before the first factorisation, after a failure or resetPivots()).
  const Eigen::VectorXd& pivotingValues() const;
  /// Forgets the pivot order: the next factorize() chooses it afresh.
  void resetPivots();
  /// Re-establishes the pivot order saved as pivotingValues() (empty: none) by factorising those
  /// values; the current values are left as they are. False when they are singular.
  bool restorePivots(const Eigen::VectorXd& pivoting);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int n_ = 0;
};

}  // namespace articula
