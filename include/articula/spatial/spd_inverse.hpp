// The inverse of a 6x6 symmetric positive-definite matrix (an articulated inertia) by Cholesky,
// written out: Eigen's LLT solves for the six columns through its generic triangular solver,
// which at this size costs several times the arithmetic (perf, bench_distributed).
#pragma once

#include <cmath>

#include "articula/spatial/spatial.hpp"

namespace articula {

/// inverse = A^-1 from A's lower triangle. Returns false, leaving inverse unspecified, when a
/// pivot is not positive and finite (A not positive definite, or not finite).
inline bool invertSpd6(const Mat6& A, Mat6& inverse) {
  double L[6][6] = {};  // A = L L^T
  for (int j = 0; j < 6; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= L[j][k] * L[j][k];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    L[j][j] = std::sqrt(d);
    const double r = 1.0 / L[j][j];
    for (int i = j + 1; i < 6; ++i) {
      double x = A(i, j);
      for (int k = 0; k < j; ++k) x -= L[i][k] * L[j][k];
      L[i][j] = x * r;
    }
  }
  double M[6][6] = {};  // L^-1, lower triangular
  for (int j = 0; j < 6; ++j) {
    M[j][j] = 1.0 / L[j][j];
    for (int i = j + 1; i < 6; ++i) {
      double x = 0.0;
      for (int k = j; k < i; ++k) x -= L[i][k] * M[k][j];
      M[i][j] = x / L[i][i];
    }
  }
  for (int i = 0; i < 6; ++i)  // A^-1 = L^-T L^-1
    for (int j = 0; j <= i; ++j) {
      double x = 0.0;
      for (int k = i; k < 6; ++k) x += M[k][i] * M[k][j];
      inverse(i, j) = inverse(j, i) = x;
    }
  return true;
}

}  // namespace articula
