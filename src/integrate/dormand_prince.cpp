// Adaptive Dormand-Prince 5(4) with FSAL and the fourth-order continuous extension.
// Coefficients: J. R. Dormand and P. J. Prince, "A family of embedded Runge-Kutta
// formulae", J. Comput. Appl. Math. 6 (1980); dense output and step-size control after
// Hairer, Norsett and Wanner, "Solving Ordinary Differential Equations I", sections II.4-II.6.
#include <algorithm>
#include <cmath>
#include <limits>

#include "articula/core/error.hpp"
#include "explicit_methods.hpp"

namespace articula {

namespace {

constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176, a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784, a76 = 11.0 / 84;
// Fifth-order weights minus the embedded fourth-order ones.
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                 e7 = -1.0 / 40;
// Continuous extension.
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                 d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                 d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

class DormandPrince final : public Integrator {
 public:
  explicit DormandPrince(const IntegratorOptions& o) { options_ = o; }
  std::string_view name() const override { return "rk45"; }
  bool adaptive() const override { return true; }

  void interpolate(double t, Eigen::VectorXd& x) const override {
    const double h = t_ - tPrev_;
    if (h <= 0.0) {
      x = x_;
      return;
    }
    const double s = (t - tPrev_) / h, s1 = 1.0 - s;
    x = r1_ + s * (r2_ + s1 * (r3_ + s * (r4_ + s1 * r5_)));
  }

 private:
  void prepare() override {
    const auto n = x_.size();
    for (auto* v : {&k2_, &k3_, &k4_, &k5_, &k6_, &k7_, &y_, &err_, &r1_, &r2_, &r3_, &r4_, &r5_}) v->resize(n);
    h_ = options_.dt;
  }

  // Largest scaled error component: every component's local error stays within its own
  // tolerance atol + rtol |x_i| (the stricter of the usual norms; MATLAB's ode45 uses it too).
  double errorNorm() const {
    double worst = 0.0;
    for (Eigen::Index i = 0; i < x_.size(); ++i) {
      const double sc = options_.atol + options_.rtol * std::max(std::abs(x_[i]), std::abs(xNew_[i]));
      worst = std::max(worst, std::abs(err_[i]) / sc);
    }
    return std::isfinite(err_.sum()) ? worst : std::numeric_limits<double>::quiet_NaN();
  }

  // Hairer-Wanner's starting step: balances the first derivative and a crude second derivative.
  double initialStep() {
    const auto scaledNorm = [&](const Eigen::VectorXd& v) {
      double sum = 0.0;
      for (Eigen::Index i = 0; i < v.size(); ++i) {
        const double e = v[i] / (options_.atol + options_.rtol * std::abs(x_[i]));
        sum += e * e;
      }
      return std::sqrt(sum / static_cast<double>(std::max<Eigen::Index>(1, v.size())));
    };
    const double dx = scaledNorm(x_), df = scaledNorm(fStart_);
    double h0 = (dx < 1e-5 || df < 1e-5) ? 1e-6 : 0.01 * dx / df;
    y_ = x_ + h0 * fStart_;
    evaluate(t_ + h0, y_, k2_);
    k3_ = (k2_ - fStart_) / h0;
    const double ddf = scaledNorm(k3_);
    const double m = std::max(df, ddf);
    const double h1 = m <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / m, 1.0 / 5.0);
    return std::min(100.0 * h0, h1);
  }

  double advance(double remaining, double) override {
    if (!(h_ > 0.0)) h_ = initialStep();
    bool rejectedBefore = false;
    for (;;) {
      if (h_ < options_.dtMin)
        throw SimulationError(t_, stats_.steps,
                              "rk45: the step size fell below dtMin = " + std::to_string(options_.dtMin) +
                                  " s without meeting the tolerance (the derivative is non-finite or the problem is too stiff here)");
      h_ = std::min(h_, options_.dtMax);
      const double h = std::min(h_, remaining);
      const Eigen::VectorXd& k1 = fStart_;
      y_ = x_ + h * a21 * k1;
      evaluate(t_ + c2 * h, y_, k2_);
      y_ = x_ + h * (a31 * k1 + a32 * k2_);
      evaluate(t_ + c3 * h, y_, k3_);
      y_ = x_ + h * (a41 * k1 + a42 * k2_ + a43 * k3_);
      evaluate(t_ + c4 * h, y_, k4_);
      y_ = x_ + h * (a51 * k1 + a52 * k2_ + a53 * k3_ + a54 * k4_);
      evaluate(t_ + c5 * h, y_, k5_);
      y_ = x_ + h * (a61 * k1 + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_);
      evaluate(t_ + h, y_, k6_);
      xNew_ = x_ + h * (a71 * k1 + a73 * k3_ + a74 * k4_ + a75 * k5_ + a76 * k6_);
      evaluate(t_ + h, xNew_, k7_);
      err_ = h * (e1 * k1 + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7_);
      const double err = errorNorm();
      if (std::isfinite(err) && err <= 1.0) {
        // Continuous extension coefficients (before the system may correct xNew_).
        r1_ = x_;
        r2_ = xNew_ - x_;
        r3_ = h * k1 - r2_;
        r4_ = r2_ - h * k7_ - r3_;
        r5_ = h * (d1 * k1 + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7_);
        double factor = err > 0.0 ? 0.9 * std::pow(err, -0.2) : 5.0;
        factor = std::clamp(factor, 0.2, rejectedBefore ? 1.0 : 5.0);
        if (h == h_) h_ = h * factor;  // a step shortened to reach tEnd does not set the next size
        return h;
      }
      ++stats_.rejected;
      rejectedBefore = true;
      h_ = h * (std::isfinite(err) ? std::max(0.2, 0.9 * std::pow(err, -0.2)) : 0.2);
    }
  }

  void finishStep(bool stateChanged) override {
    if (stateChanged) {
      evaluate(t_, x_, fStart_);  // FSAL stage no longer matches the corrected state
      r2_ = x_ - r1_;             // keep the interpolant exact at the corrected end point
    } else {
      fStart_.swap(k7_);
    }
  }

  double h_ = 0.0;  // proposed next step
  Eigen::VectorXd k2_, k3_, k4_, k5_, k6_, k7_, y_, err_, r1_, r2_, r3_, r4_, r5_;
};

}  // namespace

std::unique_ptr<Integrator> makeRk45(const IntegratorOptions& o) { return std::make_unique<DormandPrince>(o); }

}  // namespace articula
