// Scalar functions of time with first and second derivatives, used by force
// elements (time-varying loads) and by prescribed joint motion.
#pragma once

#include <string>
#include <vector>

namespace articula {

class TimeFunction {
 public:
  enum class Kind { Constant, Polynomial, Sine, SmoothStep, Table };

  /// f(t) = c.
  static TimeFunction constant(double c);
  /// f(t) = sum_k coefficients[k] * t^k.
  static TimeFunction polynomial(std::vector<double> coefficients);
  /// f(t) = offset + amplitude * sin(2 pi frequency t + phase).
  static TimeFunction sine(double amplitude, double frequency, double phase = 0.0, double offset = 0.0);
  /// Quintic blend from v0 at t0 to v1 at t1 with zero slope and curvature at both ends.
  static TimeFunction smoothStep(double t0, double v0, double t1, double v1);
  /// Piecewise-linear interpolation of (times, values), held constant outside; times strictly increasing.
  static TimeFunction table(std::vector<double> times, std::vector<double> values);

  Kind kind() const { return kind_; }
  /// Sets the value of a constant function without allocating (a control input that an
  /// optimisation writes before each evaluation, optimize/trajectory_gradient.hpp). Throws
  /// articula::Error when the function is not a constant.
  void setConstant(double c);
  double value(double t) const;
  double derivative(double t) const;
  double secondDerivative(double t) const;

  /// The function in the model-file syntax (docs/model-format.md), e.g. "{type: sine, ...}".
  std::string yaml() const;

 private:
  Kind kind_ = Kind::Constant;
  std::vector<double> a_;  // parameters, meaning depends on kind_
  std::vector<double> b_;  // table values
};

}  // namespace articula
