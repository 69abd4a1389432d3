// The method-independent part of every integrator, and the factory with option validation.
#include "articula/integrate/integrator.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "articula/core/error.hpp"
#include "articula/integrate/structural.hpp"
#include "explicit_methods.hpp"

namespace articula {

Integrator::~Integrator() = default;

void Integrator::initialize(OdeSystem& system, double t0, const Eigen::VectorXd& x0) {
  const int n = system.size();
  if (x0.size() != n)
    throw Error("integrator: the initial state has " + std::to_string(x0.size()) + " entries but the system has " +
                std::to_string(n));
  if (!std::isfinite(t0)) throw Error("integrator: the initial time must be finite");
  system_ = &system;
  t_ = tPrev_ = t0;
  x_ = x0;
  xPrev_ = x0;
  xNew_.resize(n);
  f_.resize(n);
  fPrev_.resize(n);
  stats_ = IntegratorStats();
  evaluate(t_, x_, f_);
  fPrev_ = f_;
  prepare();
}

double Integrator::step(double tEnd) {
  for (;;) {
    const double remaining = tEnd - t_;
    if (!(remaining > 0.0)) return t_;
    const double h = advance(remaining);
    const double tNew = (h == remaining) ? tEnd : t_ + h;  // capStep returns `remaining` itself for the last step
    bool changed = false;
    try {
      changed = system_->afterStep(tNew, xNew_);
    } catch (const StepRejected& e) {
      ++stats_.rejected;
      if (shrinkAfterRejection(h)) continue;
      std::ostringstream s;
      s.precision(3);
      s << e.what() << "; " << name() << " has a fixed step: reduce it (now " << h << " s)";
      throw SimulationError(tNew, stats_.steps + 1, s.str());
    }
    // The step's end becomes the start of the dense-output interval; swaps keep it allocation-free.
    tPrev_ = t_;
    t_ = tNew;
    xPrev_.swap(x_);
    x_.swap(xNew_);
    fPrev_.swap(f_);
    ++stats_.steps;
    finishStep(changed);
    return t_;
  }
}

void Integrator::save(ArchiveWriter& out) const {
  out.put(std::string(name()));
  out.put(t_);
  out.put(x_);
  out.put(f_);
  out.put(static_cast<std::int64_t>(stats_.steps));
  out.put(static_cast<std::int64_t>(stats_.rejected));
  out.put(static_cast<std::int64_t>(stats_.evaluations));
  saveMethod(out);
}

void Integrator::restore(OdeSystem& system, ArchiveReader& in) {
  const std::string method = in.getString();
  if (method != name())
    throw Error(in.label() + ": the run was made with integrator '" + method + "', not '" + std::string(name()) + "'");
  const double t = in.getDouble();
  Eigen::VectorXd x = in.getVector(), f = in.getVector();
  const int n = system.size();
  if (x.size() != n || f.size() != n || !std::isfinite(t))
    throw Error(in.label() + ": the saved state does not fit this model (" + std::to_string(x.size()) + " entries, expected " +
                std::to_string(n) + ")");
  system_ = &system;
  t_ = tPrev_ = t;
  x_ = xPrev_ = x;
  f_ = fPrev_ = f;
  xNew_.resize(n);
  prepare();
  stats_.steps = in.getInt();
  stats_.rejected = in.getInt();
  stats_.evaluations = in.getInt();
  restoreMethod(in);
}

std::vector<std::string_view> integratorNames() { return {"euler", "heun", "rk4", "rk45"}; }

namespace {

[[noreturn]] void badOption(const char* option, const std::string& requirement, double value) {
  throw Error(std::string("integrator option '") + option + "' " + requirement + " (got " + detail::describeNumber(value) + ")");
}

void validate(const IntegratorOptions& o, bool adaptive) {
  const auto positiveFinite = [](double v) { return std::isfinite(v) && v > 0.0; };
  if (adaptive) {
    if (!(std::isfinite(o.dt) && o.dt >= 0.0)) badOption("dt", "must be 0 (automatic) or a positive finite first step", o.dt);
  } else if (!positiveFinite(o.dt)) {
    badOption("dt", "must be a positive finite step for a fixed-step integrator", o.dt);
  }
  if (!positiveFinite(o.rtol)) badOption("rtol", "must be positive and finite", o.rtol);
  if (!positiveFinite(o.atol)) badOption("atol", "must be positive and finite", o.atol);
  if (!positiveFinite(o.dtMin)) badOption("dtMin", "must be positive and finite", o.dtMin);
  // dtMax may be +inf (no bound), but not NaN and not below dtMin.
  if (!(o.dtMax >= o.dtMin)) badOption("dtMax", "must be at least dtMin = " + detail::describeNumber(o.dtMin), o.dtMax);
}

}  // namespace

std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorOptions& options) {
  // Check the name first: an options message for a method that does not exist would mislead.
  if (name == "euler" || name == "heun" || name == "rk4") {
    validate(options, false);
    if (name == "euler") return makeEuler(options);
    return name == "heun" ? makeHeun(options) : makeRk4(options);
  }
  if (name == "rk45") {
    validate(options, true);
    return makeRk45(options);
  }
  if (isStructuralIntegrator(name))
    throw Error("integrator '" + std::string(name) + "' steps an index-3 formulation (makeStructuralIntegrator)");
  std::string valid;
  for (std::string_view n : integratorNames()) valid += (valid.empty() ? "" : ", ") + std::string(n);
  for (std::string_view n : structuralIntegratorNames()) valid += ", " + std::string(n);
  throw Error("unknown integrator '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace articula
