// Heun's method, the explicit trapezoidal rule: the second-order Runge-Kutta method with stages
// at both ends of the step (Hairer, Norsett, Wanner, "Solving Ordinary Differential Equations I",
// section II.1, eq. (1.7)). Two evaluations per step: the one at the predicted end here, and f
// at the step's end, which doubles as stage 1 of the next step. Seed 003 runs its example with a
// second-order Runge-Kutta method at a fixed step.
#include "explicit_methods.hpp"

namespace articula {

namespace {

class Heun final : public detail::FixedStepIntegrator {
 public:
  explicit Heun(const IntegratorOptions& options) : FixedStepIntegrator(options) {}
  std::string_view name() const override { return "heun"; }

 private:
  void prepare() override {
    k2_.resize(x_.size());
    y_.resize(x_.size());
  }

  void stepFrom(double h) override {
    const Eigen::VectorXd& k1 = f_;
    y_ = x_ + h * k1;
    evaluate(t_ + h, y_, k2_);
    xNew_ = x_ + (0.5 * h) * (k1 + k2_);
  }

  Eigen::VectorXd k2_, y_;
};

}  // namespace

std::unique_ptr<Integrator> makeHeun(const IntegratorOptions& options) { return std::make_unique<Heun>(options); }

}  // namespace articula
