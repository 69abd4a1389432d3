// Sparse Cholesky factorisation of a symmetric positive definite matrix with a fixed pattern,
// over SuiteSparse CHOLMOD: the fill-reducing ordering and symbolic analysis (cholmod_analyze)
// are done once per pattern, every later factorisation is numeric only (cholmod_factorize), and
// solves reuse CHOLMOD's workspaces (cholmod_solve2). The matrix is kept permuted by the ordering
// so that CHOLMOD factorises it in place, without the permuted copies it would otherwise build
// on every call. CHOLMOD's types stay out of this header. Where CHOLMOD's analysis chooses its
// simplicial method (small or very sparse factors), the numeric factorisation and the solves are
// done by a left-looking kernel whose row patterns are precomputed (src/linalg/
// simplicial_cholesky.hpp), which at the hybrid formulation's tangent sizes costs a fraction of
// cholmod_factorize; supernodal factors stay with CHOLMOD.
//
// Memory: analyze() allocates; factorize() and solveInPlace() allocate nothing here, only what
// CHOLMOD itself may do inside cholmod_factorize and cholmod_solve2 for a supernodal factor
// (their first call sizes CHOLMOD's workspaces, later calls with the same pattern reuse them).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace articula {

class SparseCholesky {
 public:
  SparseCholesky();
  ~SparseCholesky();
  SparseCholesky(const SparseCholesky&) = delete;
  SparseCholesky& operator=(const SparseCholesky&) = delete;

  /// The pattern of the upper triangle (diagonal included) of an n x n matrix in compressed-column
  /// form: the rows of column j are rowIndex[columnStart[j] .. columnStart[j + 1]), ascending and
  /// <= j. Orders and analyses it (once); the values are then written through values().
  /// Throws articula::Error when the pattern is malformed or CHOLMOD fails.
  void analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex);

  int size() const { return n_; }
  /// Stored entries of the upper triangle.
  int nonZeros() const;
  /// Entries of the factor L (after analyze: its symbolic size).
  long factorNonZeros() const;

  /// The matrix values in the pattern's order (nonZeros() entries), written by the caller.
  Eigen::Map<Eigen::VectorXd> values();

  /// Numeric factorisation of the current values. False when the matrix is not positive
  /// definite (or not finite); the previous factorisation is then no longer usable.
  bool factorize();

  /// x <- A^-1 x with the last successful factorisation.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int n_ = 0;
};

}  // namespace articula
