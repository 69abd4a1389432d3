#include "articula/integrate/integrator.hpp"

#include <cmath>
#include <string>

#include "articula/core/error.hpp"
#include "explicit_methods.hpp"

namespace articula {

void Integrator::initialize(OdeSystem& system, double t0, const Eigen::VectorXd& x0) {
  system_ = &system;
  const int n = system.size();
  if (x0.size() != n) throw Error("initial state has " + std::to_string(x0.size()) + " entries, the system " + std::to_string(n));
  t_ = tPrev_ = t0;
  x_ = x0;
  xPrev_ = x0;
  xNew_.resize(n);
  fStart_.resize(n);
  fPrev_.resize(n);
  stats_ = IntegratorStats();
  prepare();
  evaluate(t_, x_, fStart_);
  fPrev_ = fStart_;
}

double Integrator::step(double tEnd) {
  const double remaining = tEnd - t_;
  if (!(remaining > 0.0)) return t_;
  const double h = advance(remaining, tEnd);
  tPrev_ = t_;
  // Land exactly on tEnd when the step was meant to reach it.
  t_ = (h >= remaining * (1.0 - 1e-12)) ? tEnd : t_ + h;
  xPrev_.swap(x_);
  x_.swap(xNew_);
  fPrev_ = fStart_;
  const bool changed = system_->afterStep(t_, x_);
  ++stats_.steps;
  finishStep(changed);
  return t_;
}

std::vector<std::string_view> integratorNames() { return {"euler", "rk4", "rk45"}; }

std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorOptions& o) {
  auto positiveFinite = [](double x) { return std::isfinite(x) && x > 0.0; };
  const bool isAdaptive = name == "rk45";
  if (isAdaptive) {
    if (!positiveFinite(o.rtol)) throw Error("integrator option rtol must be a positive number");
    if (!positiveFinite(o.atol)) throw Error("integrator option atol must be a positive number");
    if (!(std::isfinite(o.dt) && o.dt >= 0.0)) throw Error("integrator option dt must be zero (automatic) or positive for rk45");
  } else if (!positiveFinite(o.dt)) {
    throw Error("integrator option dt must be a positive number for a fixed-step integrator");
  }
  if (!positiveFinite(o.dtMin) || !(o.dtMax > o.dtMin)) throw Error("integrator options need 0 < dtMin < dtMax");
  if (name == "euler") return makeEuler(o);
  if (name == "rk4") return makeRk4(o);
  if (isAdaptive) return makeRk45(o);
  std::string valid;
  for (auto n : integratorNames()) valid += (valid.empty() ? "" : ", ") + std::string(n);
  throw Error("unknown integrator '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace articula
