// Structural integrators over an Index3Problem: the parameters of seed 001 Table 2, and the
// stepping with rejection and retry of steps whose Newton iteration fails.
#include "articula/integrate/structural.hpp"

#include <cmath>
#include <sstream>

#include "explicit_methods.hpp"

namespace articula {

namespace {

void requireRange(std::string_view family, const char* symbol, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi))
    throw Error("integrator '" + std::string(family) + "': its basic parameter " + symbol + " must lie in [" +
                detail::describeNumber(lo) + ", " + detail::describeNumber(hi) + "] (got " + detail::describeNumber(value) + ")");
}

}  // namespace

std::vector<std::string_view> structuralIntegratorNames() {
  return {"trapezoidal", "newmark", "hht", "generalized-alpha"};
}

bool isStructuralIntegrator(std::string_view name) {
  for (std::string_view n : structuralIntegratorNames())
    if (n == name) return true;
  return false;
}

double defaultBasicParameter(std::string_view family) {
  // Mild dissipation for each family; trapezoidal has no parameter (0 is a placeholder).
  if (family == "newmark") return -0.05;
  if (family == "hht") return 0.05;
  if (family == "generalized-alpha") return 0.9;
  return 0.0;
}

StructuralParameters structuralParameters(std::string_view family, double basic) {
  if (!isStructuralIntegrator(family)) throw Error("unknown structural integrator '" + std::string(family) + "'");
  if (std::isnan(basic)) basic = defaultBasicParameter(family);
  StructuralParameters p;  // trapezoidal rule: gamma = 1/2, beta = 1/4, no mixing
  if (family == "newmark") {
    requireRange(family, "xi", basic, -1.0, 0.0);
    p.gamma = (1.0 - 2.0 * basic) / 2.0;
    p.beta = (1.0 - basic) * (1.0 - basic) / 4.0;
  } else if (family == "hht") {
    requireRange(family, "deltaF", basic, 0.0, 1.0 / 3.0);
    p.deltaF = basic;
    p.gamma = (1.0 + 2.0 * basic) / 2.0;
    p.beta = (1.0 + basic) * (1.0 + basic) / 4.0;
  } else if (family == "generalized-alpha") {
    requireRange(family, "rhoInfinity", basic, 0.0, 1.0);
    p.deltaM = (2.0 * basic - 1.0) / (basic + 1.0);
    p.deltaF = basic / (basic + 1.0);
    p.gamma = 0.5 - p.deltaM + p.deltaF;
    p.beta = 0.25 * (1.0 + p.deltaF - p.deltaM) * (1.0 + p.deltaF - p.deltaM);
  }
  return p;
}

namespace {

class StructuralIntegrator final : public Integrator {
 public:
  StructuralIntegrator(std::string family, const StructuralParameters& parameters, const IntegratorOptions& options,
                       Index3Problem& problem)
      : Integrator(options), family_(std::move(family)), parameters_(parameters), problem_(problem) {}

  std::string_view name() const override { return family_; }
  bool adaptive() const override { return false; }

  void interpolate(double t, Eigen::VectorXd& x) const override {
    detail::hermiteInterpolate(tPrev_, t_, xPrev_, x_, fPrev_, f_, t, x);
  }

 private:
  static constexpr int kMaxHalvings = 10;

  void prepare() override {
    fNew_.resize(f_.size());
    nv_ = problem_.velocityCount();
    problem_.start(t_, x_, f_.tail(nv_), parameters_);
  }

  double advance(double remaining) override {
    double h = capStep(options_.dt, remaining);
    for (int halving = 0;; ++halving) {
      const NewtonReport r = problem_.step(t_, h, x_, f_.tail(nv_), xNew_, fNew_);
      stats_.evaluations += r.iterations;
      if (r.converged) return h;
      ++stats_.rejected;
      if (halving == kMaxHalvings) {
        std::ostringstream s;
        s.precision(3);
        s << "the Newton iteration of the " << family_ << " integrator did not converge (" << r.iterations
          << " iterations, last correction " << r.residual << ", constraint error " << r.constraintError << ")";
        s << " even with the step halved " << kMaxHalvings << " times to " << h << " s";
        if (!r.unevaluable.empty()) s << "; the last iterate could not be evaluated: " << r.unevaluable;
        throw SimulationError(t_ + h, stats_.steps + 1, s.str());
      }
      h *= 0.5;
    }
  }

  void finishStep(bool) override { f_.swap(fNew_); }

  void saveMethod(ArchiveWriter& out) const override { problem_.save(out); }
  void restoreMethod(ArchiveReader& in) override { problem_.restore(in); }

  std::string family_;
  StructuralParameters parameters_;
  Index3Problem& problem_;
  Eigen::VectorXd fNew_;
  int nv_ = 0;
};

}  // namespace

std::unique_ptr<Integrator> makeStructuralIntegrator(std::string_view family, double basicParameter,
                                                     const IntegratorOptions& options, Index3Problem& problem) {
  const StructuralParameters parameters = structuralParameters(family, basicParameter);
  if (!(std::isfinite(options.dt) && options.dt > 0.0))
    throw Error("integrator option 'dt' must be a positive finite step for the " + std::string(family) +
                " integrator (got " + detail::describeNumber(options.dt) + ")");
  return std::make_unique<StructuralIntegrator>(std::string(family), parameters, options, problem);
}

}  // namespace articula
