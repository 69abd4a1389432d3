// Explicit time integrators for OdeSystem: Euler, classical RK4 and the adaptive
// Dormand-Prince 5(4) pair with dense output. All buffers are sized in initialize();
// step() and interpolate() never allocate.
#pragma once

#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "articula/integrate/ode.hpp"

namespace articula {

struct IntegratorOptions {
  double dt = 1e-3;     ///< fixed step; for rk45 the first step (0 = automatic)
  double rtol = 1e-8;   ///< rk45 relative tolerance
  double atol = 1e-10;  ///< rk45 absolute tolerance
  double dtMin = 1e-12;
  double dtMax = std::numeric_limits<double>::infinity();
};

struct IntegratorStats {
  long steps = 0;        ///< accepted steps
  long rejected = 0;     ///< rejected steps (adaptive only)
  long evaluations = 0;  ///< calls of OdeSystem::derivative
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string_view name() const = 0;
  virtual bool adaptive() const = 0;

  /// Sizes every buffer and evaluates the initial derivative.
  void initialize(OdeSystem& system, double t0, const Eigen::VectorXd& x0);
  /// Advances one accepted step, never beyond tEnd (the last step is shortened to land on
  /// it), then lets the system correct the state (OdeSystem::afterStep). Returns the new time.
  double step(double tEnd);
  /// Dense output: the state at t in [previous time, time()] of the last step.
  virtual void interpolate(double t, Eigen::VectorXd& x) const = 0;

  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return x_; }
  double lastStepSize() const { return t_ - tPrev_; }
  const IntegratorStats& stats() const { return stats_; }

 protected:
  /// Subclass part of initialize (buffers beyond the base ones).
  virtual void prepare() {}
  /// Computes xNew_ over [t_, t_ + h] (h may be reduced by adaptive methods: the step taken
  /// is returned). fStart_ holds f(t_, x_) on entry.
  virtual double advance(double h, double tEnd) = 0;
  /// Called after afterStep; fixed-step methods refresh the end derivative here.
  virtual void finishStep(bool stateChanged) = 0;

  void evaluate(double t, const Eigen::VectorXd& x, Eigen::VectorXd& f) {
    system_->derivative(t, x, f);
    ++stats_.evaluations;
  }

  OdeSystem* system_ = nullptr;
  IntegratorOptions options_;
  double t_ = 0.0, tPrev_ = 0.0;
  Eigen::VectorXd x_, xPrev_, xNew_;
  Eigen::VectorXd fStart_, fPrev_;  ///< f at the current and the previous step start
  IntegratorStats stats_;
};

/// Creates "euler", "rk4" or "rk45". Throws articula::Error for an unknown name
/// (listing the valid ones) or invalid options (naming the option).
std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorOptions& options);
std::vector<std::string_view> integratorNames();

}  // namespace articula
