// Solves P x = b for a symmetric positive semidefinite P with dependent rows (seed 003: "exclude
// the dependent rows"), private to the distributed formulation. P = G d G^T is singular exactly
// when constraint rows are redundant (a planar loop closed by a spatial revolute joint has two
// per loop); the system is then compatible and every solution gives the same accelerations,
// because d G^T n vanishes for n in the null space of P.
//
// The solver scales P to unit diagonal (rows in rad and in m weigh alike) and factorises it by
// the outer-product LDL^T with symmetric pivoting on the largest remaining diagonal entry of the
// Schur complement (Eigen's LDLT pivots on the diagonal as it was before the updates, which does
// not reveal the rank: it met dependent rows with pivots of 1e-10 in the middle of the
// factorisation on the N-four-bar). For a semidefinite matrix this keeps |L| <= 1 and leaves the
// dependent rows to the end, with Schur complements at rounding level; the
// factorisation stops once the largest remaining pivot is below kRelativePivot times the first,
// which makes it a generalised inverse. No allocation after construction; the solves use buffers
// of the solver, so one solver serves one thread.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <utility>

namespace articula::detail {

class SemidefiniteSolver {
 public:
  /// A dependent row's remaining pivot after scaling is rounding noise: measured up to 3e-12 on
  /// the N-four-bar (the interface matrices are about the world origin, which costs digits on
  /// bodies metres away from it); 1e-10 stays a factor 30 above that. An independent row is
  /// dropped only when its direction lies within about 1e-5 rad (the square root) of the others'
  /// span, that is, within 1e-5 of a singular configuration.
  static constexpr double kRelativePivot = 1e-10;

  /// n: the order of P; columns: the most right-hand sides solveColumnsInPlace takes at once.
  SemidefiniteSolver(int n, int columns) : scale_(n), L_(n, n), d_(n), perm_(n), tmp_(n), tmpColumns_(n, columns) {}

  /// Returns false when P has a non-finite entry.
  bool compute(const Eigen::MatrixXd& P) {
    const Eigen::Index n = P.rows();
    for (Eigen::Index i = 0; i < n; ++i) scale_[i] = P(i, i) > 0.0 ? 1.0 / std::sqrt(P(i, i)) : 1.0;
    L_ = scale_.asDiagonal() * P * scale_.asDiagonal();
    if (!L_.allFinite()) return false;
    for (Eigen::Index i = 0; i < n; ++i) perm_[i] = static_cast<int>(i);
    rank_ = 0;
    double cutoff = 0.0;
    for (Eigen::Index k = 0; k < n; ++k) {
      Eigen::Index p = k;
      for (Eigen::Index i = k + 1; i < n; ++i)
        if (L_(i, i) > L_(p, p)) p = i;
      if (k == 0) cutoff = kRelativePivot * std::max(L_(p, p), 0.0);
      if (!(L_(p, p) > cutoff)) break;  // the rest is dependent
      if (p != k) {
        // Symmetric swap of rows and columns k, p (and of the computed part of L's rows).
        L_.row(k).swap(L_.row(p));
        L_.col(k).swap(L_.col(p));
        std::swap(perm_[k], perm_[p]);
      }
      const double dk = L_(k, k);
      d_[k] = dk;
      const Eigen::Index m = n - k - 1;
      L_.col(k).tail(m) /= dk;
      for (Eigen::Index j = k + 1; j < n; ++j)  // Schur complement, both triangles (the swaps need them)
        L_.col(j).tail(m) -= (dk * L_(j, k)) * L_.col(k).tail(m);
      ++rank_;
    }
    return true;
  }

  /// b <- a solution of P x = b, the dependent rows' components set to zero.
  template <class Vector>
  void solveInPlace(Vector&& b) const {
    const Eigen::Index n = scale_.size(), r = rank_;
    if (n == 0) return;
    // Plain loops over L's columns: n is a few link rows, where Eigen's segment expressions
    // cost more in set-up than in arithmetic.
    double* t = tmp_.data();
    const double* L = L_.data();  // column-major, leading dimension n
    for (Eigen::Index i = 0; i < n; ++i) t[i] = scale_[perm_[i]] * b[perm_[i]];
    for (Eigen::Index k = 0; k < r; ++k) {
      const double* Lk = L + k * n;
      for (Eigen::Index i = k + 1; i < n; ++i) t[i] -= t[k] * Lk[i];
    }
    for (Eigen::Index k = 0; k < n; ++k) t[k] = k < r ? t[k] / d_[k] : 0.0;
    for (Eigen::Index k = r - 1; k >= 0; --k) {
      const double* Lk = L + k * n;
      double sum = 0.0;
      for (Eigen::Index i = k + 1; i < n; ++i) sum += Lk[i] * t[i];
      t[k] -= sum;
    }
    for (Eigen::Index i = 0; i < n; ++i) b[perm_[i]] = scale_[perm_[i]] * t[i];
  }
  /// Every column of B (at most `columns` of them) <- a solution of P x = b, as solveInPlace, by
  /// operations on whole rows: one pass over L for all the columns instead of one per column.
  void solveColumnsInPlace(Eigen::Ref<Eigen::MatrixXd> B) const {
    const Eigen::Index n = scale_.size(), r = rank_;
    if (n == 0 || B.cols() == 0) return;  // (the root keeps no handle: Z has no column)
    auto T = tmpColumns_.leftCols(B.cols());
    for (Eigen::Index i = 0; i < n; ++i) T.row(i) = scale_[perm_[i]] * B.row(perm_[i]);
    for (Eigen::Index k = 0; k < r; ++k)
      for (Eigen::Index i = k + 1; i < n; ++i) T.row(i) -= L_(i, k) * T.row(k);
    for (Eigen::Index k = 0; k < n; ++k) {
      if (k < r)
        T.row(k) /= d_[k];
      else
        T.row(k).setZero();
    }
    for (Eigen::Index k = r - 1; k >= 0; --k)
      for (Eigen::Index i = k + 1; i < n; ++i) T.row(k) -= L_(i, k) * T.row(i);
    for (Eigen::Index i = 0; i < n; ++i) B.row(perm_[i]) = scale_[perm_[i]] * T.row(i);
  }
  int rank() const { return rank_; }

 private:
  Eigen::VectorXd scale_;
  Eigen::MatrixXd L_;
  Eigen::VectorXd d_;
  Eigen::VectorXi perm_;
  mutable Eigen::VectorXd tmp_;
  mutable Eigen::MatrixXd tmpColumns_;
  int rank_ = 0;
};

}  // namespace articula::detail
