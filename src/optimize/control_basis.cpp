#include "articula/optimize/control_basis.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

namespace {

// The natural cubic spline's knot second derivatives m = S b: interior rows
//   h_{i-1} m_{i-1} + 2 (h_{i-1} + h_i) m_i + h_i m_{i+1} = 6 ((b_{i+1} - b_i)/h_i - (b_i - b_{i-1})/h_{i-1}),
// m_0 = m_{K-1} = 0. Solved column by column (b = e_j) by the Thomas algorithm: the matrix is
// tridiagonal and diagonally dominant, so no pivoting is needed.
Eigen::MatrixXd naturalSplineOperator(const std::vector<double>& t) {
  const int K = static_cast<int>(t.size());
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(K, K);
  const int n = K - 2;  // interior unknowns m_1 .. m_{K-2}
  if (n <= 0) return S;
  std::vector<double> lower(n), diag(n), upper(n), cPrime(n), rhs(n);
  for (int r = 0; r < n; ++r) {
    const int i = r + 1;
    const double hl = t[i] - t[i - 1], hr = t[i + 1] - t[i];
    lower[r] = hl;
    diag[r] = 2.0 * (hl + hr);
    upper[r] = hr;
  }
  for (int j = 0; j < K; ++j) {
    for (int r = 0; r < n; ++r) {
      const int i = r + 1;
      const double hl = t[i] - t[i - 1], hr = t[i + 1] - t[i];
      // 6 ((b_{i+1} - b_i)/h_i - (b_i - b_{i-1})/h_{i-1}) with b = e_j
      rhs[r] = 6.0 * (((i + 1 == j) - (i == j)) / hr - ((i == j) - (i - 1 == j)) / hl);
    }
    // forward sweep
    cPrime[0] = upper[0] / diag[0];
    rhs[0] /= diag[0];
    for (int r = 1; r < n; ++r) {
      const double denom = diag[r] - lower[r] * cPrime[r - 1];
      cPrime[r] = upper[r] / denom;
      rhs[r] = (rhs[r] - lower[r] * rhs[r - 1]) / denom;
    }
    for (int r = n - 2; r >= 0; --r) rhs[r] -= cPrime[r] * rhs[r + 1];
    for (int r = 0; r < n; ++r) S(r + 1, j) = rhs[r];
  }
  return S;
}

}  // namespace

std::string_view controlBasisName(ControlBasis::Kind kind) {
  switch (kind) {
    case ControlBasis::Kind::PiecewiseConstant: return "constant";
    case ControlBasis::Kind::PiecewiseLinear: return "linear";
    case ControlBasis::Kind::CubicSpline: return "spline";
  }
  return "?";
}

ControlBasis::ControlBasis(Kind kind, std::vector<double> knots) : kind_(kind), knots_(std::move(knots)) {
  const std::size_t least = kind_ == Kind::PiecewiseConstant ? 1 : 2;
  if (knots_.size() < least)
    throw Error("a " + std::string(controlBasisName(kind_)) + " control needs at least " + std::to_string(least) +
                " knot time" + (least > 1 ? "s" : ""));
  for (std::size_t k = 0; k < knots_.size(); ++k) {
    if (!std::isfinite(knots_[k])) throw Error("control knot time " + std::to_string(k) + " is not a finite number");
    if (k > 0 && !(knots_[k] > knots_[k - 1]))
      throw Error("control knot times must increase strictly; time " + std::to_string(k) + " (" +
                  std::to_string(knots_[k]) + ") does not exceed the one before");
  }
  if (kind_ == Kind::CubicSpline) secondDerivatives_ = naturalSplineOperator(knots_);
}

int ControlBasis::interval(double t) const {
  const auto it = std::upper_bound(knots_.begin(), knots_.end(), t);
  const int k = static_cast<int>(it - knots_.begin()) - 1;
  return std::clamp(k, 0, size() - 1);
}

void ControlBasis::addWeights(double t, double scale, Eigen::Ref<Eigen::VectorXd> g) const {
  const int K = size();
  if (kind_ == Kind::PiecewiseConstant) {
    g[interval(t)] += scale;
    return;
  }
  // Linear and spline: held constant outside the grid.
  if (t <= knots_.front()) {
    g[0] += scale;
    return;
  }
  if (t >= knots_.back()) {
    g[K - 1] += scale;
    return;
  }
  const int i = std::min(interval(t), K - 2);
  const double h = knots_[i + 1] - knots_[i];
  const double B = (t - knots_[i]) / h, A = 1.0 - B;
  g[i] += scale * A;
  g[i + 1] += scale * B;
  if (kind_ == Kind::CubicSpline) {
    // u = A b_i + B b_{i+1} + ((A^3 - A) m_i + (B^3 - B) m_{i+1}) h^2 / 6 with m = S b.
    const double ci = (A * A * A - A) * h * h / 6.0, cj = (B * B * B - B) * h * h / 6.0;
    g += (scale * ci) * secondDerivatives_.row(i).transpose() + (scale * cj) * secondDerivatives_.row(i + 1).transpose();
  }
}

double ControlBasis::value(double t, const Eigen::Ref<const Eigen::VectorXd>& b) const {
  const int K = size();
  if (kind_ == Kind::PiecewiseConstant) return b[interval(t)];
  if (t <= knots_.front()) return b[0];
  if (t >= knots_.back()) return b[K - 1];
  const int i = std::min(interval(t), K - 2);
  const double h = knots_[i + 1] - knots_[i];
  const double B = (t - knots_[i]) / h, A = 1.0 - B;
  double u = A * b[i] + B * b[i + 1];
  if (kind_ == Kind::CubicSpline) {
    const double mi = secondDerivatives_.row(i).dot(b), mj = secondDerivatives_.row(i + 1).dot(b);
    u += ((A * A * A - A) * mi + (B * B * B - B) * mj) * h * h / 6.0;
  }
  return u;
}

}  // namespace articula
