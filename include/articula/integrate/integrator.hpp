// Explicit time integrators for an OdeSystem: forward Euler, classical RK4 and the adaptive
// Dormand-Prince 5(4) pair with dense output.
//
// Memory: every buffer is sized in initialize(); step() and interpolate() never allocate.
// Direction: integration runs forward in time only (tEnd > time()).
#pragma once

#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "articula/core/archive.hpp"
#include "articula/integrate/ode.hpp"

namespace articula {

struct IntegratorOptions {
  double dt = 1e-3;     ///< fixed step; for rk45 the first step (0 = automatic)
  double rtol = 1e-8;   ///< relative tolerance (rk45)
  double atol = 1e-10;  ///< absolute tolerance (rk45)
  double dtMin = 1e-12;  ///< rk45 gives up (SimulationError) when its step must shrink below this
  double dtMax = std::numeric_limits<double>::infinity();  ///< upper bound on rk45's step
};

struct IntegratorStats {
  long steps = 0;        ///< accepted steps
  long rejected = 0;     ///< rejected steps (adaptive only)
  long evaluations = 0;  ///< calls of OdeSystem::derivative
};

/// A one-step method. initialize() and step() are implemented once here (bookkeeping, landing on
/// tEnd, afterStep, statistics); the methods supply the numerical work through the protected hooks.
class Integrator {
 public:
  virtual ~Integrator();
  virtual std::string_view name() const = 0;
  virtual bool adaptive() const = 0;

  /// Binds the system, sizes every buffer, and evaluates f(t0, x0) (plus one more evaluation for
  /// rk45's automatic first step). Throws articula::Error when x0 does not match system.size().
  /// The system must outlive the integrator's use.
  void initialize(OdeSystem& system, double t0, const Eigen::VectorXd& x0);

  /// Advances one accepted step, never beyond tEnd (the last step is shortened, or a step that
  /// would stop a hair short is stretched, so that time() == tEnd exactly), then lets the system
  /// correct the new state (OdeSystem::afterStep, called once per attempt). Returns the new
  /// time. Does nothing when tEnd <= time(). When afterStep rejects the state, an adaptive
  /// method retries with a smaller step; a fixed-step one throws SimulationError.
  double step(double tEnd);

  /// Dense output over the last accepted step: x(t) for t in [time() - lastStepSize(), time()].
  /// Exact (the corrected state) at time(); before the first step it returns the initial state.
  /// x should already have size(); it is resized (allocating) otherwise.
  virtual void interpolate(double t, Eigen::VectorXd& x) const = 0;

  /// Writes what a restart needs: time, state, f(t, x), statistics and the method's memory
  /// (step size and controller history for rk45). Call between steps.
  void save(ArchiveWriter& out) const;
  /// Binds the system like initialize() and takes the saved integrator's place: the steps
  /// that follow are bit-for-bit those the saved integrator would have taken. Throws
  /// articula::Error when the saved state does not fit the system or this method.
  void restore(OdeSystem& system, ArchiveReader& in);

  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return x_; }
  double lastStepSize() const { return t_ - tPrev_; }
  const IntegratorStats& stats() const { return stats_; }

 protected:
  explicit Integrator(const IntegratorOptions& options) : options_(options) {}

  /// Method part of initialize(): size the method's own buffers. x_ and f_ are set.
  virtual void prepare() {}
  /// Computes xNew_ = x(t_ + h) with h <= remaining and returns h. f_ holds f(t_, x_) on entry.
  /// Use capStep() so that a step reaching tEnd returns `remaining` itself.
  virtual double advance(double remaining) = 0;
  /// Called after the new state was accepted and corrected by afterStep (stateChanged tells
  /// whether it was): must leave f_ = f(t_, x_) for the next step and the dense output.
  virtual void finishStep(bool stateChanged) = 0;
  /// After OdeSystem::afterStep rejected a step of size h: an adaptive method shrinks its next
  /// step and returns true (or throws SimulationError below dtMin); a fixed-step one returns false.
  virtual bool shrinkAfterRejection(double /*h*/) { return false; }
  /// The method's own memory across steps, for restart files.
  virtual void saveMethod(ArchiveWriter&) const {}
  virtual void restoreMethod(ArchiveReader&) {}

  /// min(h, remaining), snapped to `remaining` when the step would stop within a relative 1e-10
  /// of it: avoids a useless sliver of a step caused by round-off in the accumulated time.
  static double capStep(double h, double remaining) { return h >= remaining * (1.0 - 1e-10) ? remaining : h; }

  void evaluate(double t, const Eigen::VectorXd& x, Eigen::VectorXd& f) {
    system_->derivative(t, x, f);
    ++stats_.evaluations;
  }

  OdeSystem* system_ = nullptr;
  IntegratorOptions options_;
  double t_ = 0.0, tPrev_ = 0.0;  ///< end and start of the last accepted step
  Eigen::VectorXd x_, xPrev_;     ///< states at t_ and tPrev_
  Eigen::VectorXd xNew_;          ///< result of advance(), swapped into x_
  Eigen::VectorXd f_, fPrev_;     ///< f(t_, x_) and f(tPrev_, xPrev_)
  IntegratorStats stats_;
};

/// Creates "euler", "rk4" or "rk45". Throws articula::Error for an unknown name (the message
/// lists the valid ones) or invalid options (the message names the option).
std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorOptions& options);
/// The names makeIntegrator accepts.
std::vector<std::string_view> integratorNames();

}  // namespace articula
