// Fixed-step explicit methods: forward Euler and the classical fourth-order Runge-Kutta.
// Dense output is the cubic Hermite interpolant through both step ends and their
// derivatives; the end derivative doubles as the first stage of the next step.
#include "explicit_methods.hpp"

namespace articula {

namespace {

class FixedStep : public Integrator {
 public:
  explicit FixedStep(const IntegratorOptions& o) { options_ = o; }
  bool adaptive() const override { return false; }

  void interpolate(double t, Eigen::VectorXd& x) const override {
    const double h = t_ - tPrev_;
    if (h <= 0.0) {
      x = x_;
      return;
    }
    const double s = (t - tPrev_) / h, s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    x = h00 * xPrev_ + (h10 * h) * fPrev_ + h01 * x_ + (h11 * h) * fStart_;
  }

 protected:
  double advance(double remaining, double) override {
    const double h = std::min(options_.dt, remaining);
    stage(h);
    return h;
  }
  void finishStep(bool) override { evaluate(t_, x_, fStart_); }
  /// xNew_ = x_ advanced by h, with fStart_ = f(t_, x_).
  virtual void stage(double h) = 0;
};

class Euler final : public FixedStep {
 public:
  using FixedStep::FixedStep;
  std::string_view name() const override { return "euler"; }

 private:
  void stage(double h) override { xNew_ = x_ + h * fStart_; }
};

class Rk4 final : public FixedStep {
 public:
  using FixedStep::FixedStep;
  std::string_view name() const override { return "rk4"; }

 private:
  void prepare() override {
    for (auto* v : {&k2_, &k3_, &k4_, &tmp_}) v->resize(x_.size());
  }
  void stage(double h) override {
    tmp_ = x_ + (0.5 * h) * fStart_;
    evaluate(t_ + 0.5 * h, tmp_, k2_);
    tmp_ = x_ + (0.5 * h) * k2_;
    evaluate(t_ + 0.5 * h, tmp_, k3_);
    tmp_ = x_ + h * k3_;
    evaluate(t_ + h, tmp_, k4_);
    xNew_ = x_ + (h / 6.0) * (fStart_ + 2.0 * (k2_ + k3_) + k4_);
  }
  Eigen::VectorXd k2_, k3_, k4_, tmp_;
};

}  // namespace

std::unique_ptr<Integrator> makeEuler(const IntegratorOptions& o) { return std::make_unique<Euler>(o); }
std::unique_ptr<Integrator> makeRk4(const IntegratorOptions& o) { return std::make_unique<Rk4>(o); }

}  // namespace articula
