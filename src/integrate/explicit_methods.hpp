// Private to src/integrate: the factories of the concrete methods, the base the two explicit
// fixed-step methods share, and the Hermite dense output they share with the structural ones.
#pragma once

#include <sstream>
#include <string>

#include "articula/integrate/integrator.hpp"

namespace articula {

std::unique_ptr<Integrator> makeEuler(const IntegratorOptions& options);  // euler.cpp
std::unique_ptr<Integrator> makeHeun(const IntegratorOptions& options);   // heun.cpp
std::unique_ptr<Integrator> makeRk4(const IntegratorOptions& options);    // rk4.cpp
std::unique_ptr<Integrator> makeRk45(const IntegratorOptions& options);   // rk45.cpp

namespace detail {

/// A number as option messages print it (six significant digits).
inline std::string describeNumber(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

/// Dense output shared by the fixed-step methods: the cubic Hermite interpolant through both ends
/// of the last step and their derivatives (x and f at tPrev and t), exact at the end point.
inline void hermiteInterpolate(double tPrev, double tEnd, const Eigen::VectorXd& xPrev, const Eigen::VectorXd& xEnd,
                               const Eigen::VectorXd& fPrev, const Eigen::VectorXd& fEnd, double t, Eigen::VectorXd& x) {
  const double h = tEnd - tPrev;
  if (!(h > 0.0) || t == tEnd) {  // no step taken yet, or the end point: return it bit for bit
    x = xEnd;
    return;
  }
  const double s = (t - tPrev) / h, s2 = s * s, s3 = s2 * s;
  // Hermite basis: value weights h00, h01 and slope weights h10, h11 (scaled by h below).
  const double h00 = 2 * s3 - 3 * s2 + 1, h01 = 3 * s2 - 2 * s3;
  const double h10 = s3 - 2 * s2 + s, h11 = s3 - s2;
  x = h00 * xPrev + h01 * xEnd + (h10 * h) * fPrev + (h11 * h) * fEnd;
}

/// Fixed step options.dt (the last step shortened to land on tEnd). Dense output is the cubic
/// Hermite interpolant through both ends of the step and their derivatives: third order, which
/// is below RK4's fourth but needs no extra evaluation, because f at the end of a step is needed
/// anyway as the first stage of the next one.
class FixedStepIntegrator : public Integrator {
 public:
  explicit FixedStepIntegrator(const IntegratorOptions& options) : Integrator(options) {}
  bool adaptive() const override { return false; }

  void interpolate(double t, Eigen::VectorXd& x) const override {
    hermiteInterpolate(tPrev_, t_, xPrev_, x_, fPrev_, f_, t, x);
  }

 protected:
  double advance(double remaining) final {
    const double h = capStep(options_.dt, remaining);
    stepFrom(h);
    return h;
  }
  /// f at the end of the step: always needed (next first stage, dense output). Evaluated after
  /// afterStep, so a corrected state is accounted for at no extra cost.
  void finishStep(bool) final { evaluate(t_, x_, f_); }
  /// The method: xNew_ = x_ advanced by h, given f_ = f(t_, x_).
  virtual void stepFrom(double h) = 0;
};

}  // namespace detail
}  // namespace articula
