// Scalar functions of time with first and second derivatives, used by force
// elements (time-varying loads) and by prescribed joint motion, including the standard driver
// inputs of vehicle testing (a step steer is a smooth_step; slalom; sine with dwell).
#pragma once

#include <string>
#include <vector>

namespace articula {

class TimeFunction {
 public:
  enum class Kind { Constant, Polynomial, Sine, SmoothStep, Table, Slalom, SineWithDwell };

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
  /// A slalom steer: amplitude sin(2 pi frequency (t - start)) over `cycles` periods (cycles >= 1,
  /// frequency > 0), faded in over the first half period and out over the last by a quintic
  /// window, zero outside: twice continuously differentiable, so it can drive a rheonomic joint.
  static TimeFunction slalom(double amplitude, double frequency, double start, double cycles);
  /// The sine with dwell of ESC testing (NHTSA FMVSS 126, 0.7 Hz and a 0.5 s dwell there):
  /// amplitude sin(2 pi frequency (t - start)) up to its negative peak at three quarters of a
  /// period, held at -amplitude for `dwell` seconds, then the last quarter period back to zero;
  /// zero outside (frequency > 0, dwell >= 0). Continuous; as the test defines it, its slope steps
  /// by 2 pi frequency amplitude at the start and the end, and its second derivative at the
  /// dwell's ends (a prescribed joint driven by it takes velocity steps at the start and the end).
  static TimeFunction sineWithDwell(double amplitude, double frequency, double start, double dwell);

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
