// Forward (explicit) Euler: x_{n+1} = x_n + h f(t_n, x_n). First order; one evaluation per step.
#include "explicit_methods.hpp"

namespace articula {

namespace {

class Euler final : public detail::FixedStepIntegrator {
 public:
  explicit Euler(const IntegratorOptions& options) : FixedStepIntegrator(options) {}
  std::string_view name() const override { return "euler"; }

 private:
  void stepFrom(double h) override { xNew_ = x_ + h * f_; }
};

}  // namespace

std::unique_ptr<Integrator> makeEuler(const IntegratorOptions& options) { return std::make_unique<Euler>(options); }

}  // namespace articula
