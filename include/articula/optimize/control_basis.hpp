// A control input u(t) written as a linear combination of basis functions on a time grid,
// u(t) = sum_k b_k phi_k(t), so that an optimiser works on the finite vector b.
//  - piecewise constant: u = b_k on [t_k, t_k+1) (the last value holds from the last knot on);
//  - piecewise linear:   u interpolates b_k at t_k linearly;
//  - cubic spline:       u is the natural cubic spline through (t_k, b_k) (zero second
//                        derivative at both ends), twice continuously differentiable.
// Outside [t_0, t_K-1] the input holds its end value. Because u is linear in b, du/db_k =
// phi_k(t) does not depend on b: gradients with respect to the coefficients apply the chain rule
// through the basis by weights(), which the thesis (seed 002, eq. (4.16)) leaves out.
#pragma once

#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace articula {

class ControlBasis {
 public:
  enum class Kind { PiecewiseConstant, PiecewiseLinear, CubicSpline };

  /// Throws articula::Error unless the knot times are strictly increasing and there are at least
  /// two of them (one for piecewise constant).
  ControlBasis(Kind kind, std::vector<double> knots);

  Kind kind() const { return kind_; }
  int size() const { return static_cast<int>(knots_.size()); }  ///< number of coefficients
  const std::vector<double>& knots() const { return knots_; }

  /// u(t) for the coefficients b (size()).
  double value(double t, const Eigen::Ref<const Eigen::VectorXd>& b) const;
  /// g += scale phi(t), where u(t) = phi(t) . b (g of size()): touches only the one or two
  /// coefficients that act at t for piecewise bases, every one for splines. Never allocates.
  void addWeights(double t, double scale, Eigen::Ref<Eigen::VectorXd> g) const;

 private:
  int interval(double t) const;  ///< k with t_k <= t < t_k+1, clamped to the grid

  Kind kind_;
  std::vector<double> knots_;
  // Cubic spline: the knot second derivatives are m = S b (natural end conditions); S is dense,
  // size() x size(), computed once from the knots.
  Eigen::MatrixXd secondDerivatives_;
};

std::string_view controlBasisName(ControlBasis::Kind kind);

}  // namespace articula
