// Private to src/linalg: a left-looking simplicial Cholesky factorisation L L^T of a symmetric
// positive definite matrix whose pattern (and ordering) is fixed, with everything that depends
// only on the pattern worked out once: the pattern of L (from the elimination tree), where each
// entry of the matrix lands in L's columns, and for every column j the positions of the row
// L(j, 0:j-1) in the earlier columns, so that a factorisation is the arithmetic alone.
//
// CHOLMOD's simplicial factorisation (cholmod_rowfac) walks the elimination tree for every row of
// every factorisation to find that row's pattern; on the small matrices for which CHOLMOD chooses
// its simplicial method (the hybrid formulation's tangents of a few tens of coordinates) that
// walk costs more than the arithmetic. SparseCholesky uses this class exactly where CHOLMOD's own
// analysis chooses the simplicial method, and CHOLMOD's supernodal factorisation otherwise.
#pragma once

#include <vector>

namespace articula {

class SimplicialCholesky {
 public:
  /// Symbolic analysis (allocates) of the upper triangle of an n x n matrix, already in its
  /// fill-reducing order, in compressed columns (rows ascending and <= the column); the value of
  /// the pattern's entry p is read from factorize()'s array at valueIndex[p].
  void analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex,
               const std::vector<int>& valueIndex);

  /// Numeric factorisation of the matrix whose upper-triangle values are `values` (see
  /// analyze()). False when a pivot is not positive or not finite. Never allocates.
  bool factorize(const double* values);

  /// x <- A^-1 x (n entries) with the last successful factorisation. Never allocates.
  void solveInPlace(double* x) const;

  /// Entries of L, diagonal included.
  long factorNonZeros() const { return static_cast<long>(row_.size()); }

 private:
  int n_ = 0;
  // L by columns, the diagonal first in each: rows row_[start_[j] .. start_[j + 1]), values value_.
  std::vector<int> start_, row_;
  std::vector<double> value_;
  // Column j of the matrix's lower triangle (its upper triangle's row j): for each entry its row
  // in L's column j and its index in factorize()'s values.
  std::vector<int> sourceStart_, sourceRow_, sourceValue_;
  // For column j, the position in L of each L(j, k), k < j (the columns that update column j),
  // and the end of that column k.
  std::vector<int> updateStart_, updatePosition_, updateEnd_;
  std::vector<double> work_;  ///< dense column accumulator, zero between columns
};

}  // namespace articula
