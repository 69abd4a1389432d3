// The classical fourth-order Runge-Kutta method (Kutta 1901; Hairer, Norsett, Wanner, "Solving
// Ordinary Differential Equations I", section II.1, Table 1.2 left). Four evaluations per step:
// stages 2-4 here, and f at the step's end, which doubles as stage 1 of the next step.
#include "explicit_methods.hpp"

namespace articula {

namespace {

class Rk4 final : public detail::FixedStepIntegrator {
 public:
  explicit Rk4(const IntegratorOptions& options) : FixedStepIntegrator(options) {}
  std::string_view name() const override { return "rk4"; }

 private:
  void prepare() override {
    for (Eigen::VectorXd* v : {&k2_, &k3_, &k4_, &y_}) v->resize(x_.size());
  }

  void stepFrom(double h) override {
    const Eigen::VectorXd& k1 = f_;
    const double half = 0.5 * h;
    y_ = x_ + half * k1;
    evaluate(t_ + half, y_, k2_);
    y_ = x_ + half * k2_;
    evaluate(t_ + half, y_, k3_);
    y_ = x_ + h * k3_;
    evaluate(t_ + h, y_, k4_);
    xNew_ = x_ + (h / 6.0) * (k1 + 2.0 * k2_ + 2.0 * k3_ + k4_);
  }

  Eigen::VectorXd k2_, k3_, k4_, y_;  // stages and the stage argument
};

}  // namespace

std::unique_ptr<Integrator> makeRk4(const IntegratorOptions& options) { return std::make_unique<Rk4>(options); }

}  // namespace articula
