// Solves P x = b for a symmetric positive semidefinite P with dependent rows (seed 003: "exclude
// the dependent rows"), private to the distributed formulation. P = G d G^T is singular exactly
// when constraint rows are redundant (a planar loop closed by a spatial revolute joint has two);
// the system is then compatible and every solution gives the same accelerations, because d G^T n
// vanishes for n in the null space of P. The solver scales P to unit diagonal (rows in rad and
// in m weigh alike), factorises it by LDL^T with diagonal pivoting (Eigen picks the largest
// remaining diagonal entry, which for a semidefinite matrix bounds |L| by 1 and pushes the
// dependent rows to the end with pivots at rounding level) and drops the pivots below
// kRelativePivot times the largest, which turns the factorisation into a generalised inverse.
#pragma once

#include <Eigen/Cholesky>

namespace articula::detail {

class SemidefiniteSolver {
 public:
  /// A dependent row's pivot after scaling is rounding noise, a few n eps (1e-15 for the sizes
  /// here); 1e-12 stays three orders above it. An independent row is dropped only when its
  /// direction lies within about 1e-6 rad (sqrt of the threshold) of the others' span, that is,
  /// within 1e-6 of a singular configuration, where the multipliers are meaningless anyway.
  static constexpr double kRelativePivot = 1e-12;

  explicit SemidefiniteSolver(int n) : scale_(n), scaled_(n, n), ldlt_(n) {}

  /// Returns false when P has a non-finite entry.
  bool compute(const Eigen::MatrixXd& P) {
    const Eigen::Index n = P.rows();
    for (Eigen::Index i = 0; i < n; ++i) scale_[i] = P(i, i) > 0.0 ? 1.0 / std::sqrt(P(i, i)) : 1.0;
    scaled_ = scale_.asDiagonal() * P * scale_.asDiagonal();
    if (!scaled_.allFinite()) return false;
    rank_ = 0;
    if (n == 0) return true;
    ldlt_.compute(scaled_);
    const auto& d = ldlt_.vectorD();
    cutoff_ = kRelativePivot * std::max(d.maxCoeff(), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) rank_ += d[i] > cutoff_ ? 1 : 0;
    return true;
  }
  /// b <- a solution of P x = b (the dependent rows' components are set to zero).
  template <class Vector>
  void solveInPlace(Vector&& b) const {
    const Eigen::Index n = scale_.size();
    if (n == 0) return;
    b.array() *= scale_.array();
    const auto& tr = ldlt_.transpositionsP();
    for (Eigen::Index i = 0; i < n; ++i) std::swap(b[i], b[tr.coeff(i)]);
    ldlt_.matrixL().solveInPlace(b);
    const auto& d = ldlt_.vectorD();
    for (Eigen::Index i = 0; i < n; ++i) b[i] = d[i] > cutoff_ ? b[i] / d[i] : 0.0;
    ldlt_.matrixU().solveInPlace(b);
    for (Eigen::Index i = n - 1; i >= 0; --i) std::swap(b[i], b[tr.coeff(i)]);
    b.array() *= scale_.array();
  }
  int rank() const { return rank_; }

 private:
  Eigen::VectorXd scale_;
  Eigen::MatrixXd scaled_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  double cutoff_ = 0.0;
  int rank_ = 0;
};

}  // namespace articula::detail
