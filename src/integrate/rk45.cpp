// Adaptive explicit Runge-Kutta: the Dormand-Prince 5(4) pair, advancing with the fifth-order
// solution (local extrapolation), with FSAL (the last stage is f at the new point, reused as the
// first stage of the next step: 6 evaluations per step) and a fourth-order continuous extension.
//
// Sources:
//  - tableau: J. R. Dormand, P. J. Prince, "A family of embedded Runge-Kutta formulae",
//    J. Comput. Appl. Math. 6 (1980) 19-26; also Hairer, Norsett, Wanner, "Solving Ordinary
//    Differential Equations I" (2nd ed.), section II.5, Table 5.2;
//  - continuous extension: same book, section II.6 (dense output for DOPRI5, the d_i below);
//  - error norm, step-size controller and starting step: same book, section II.4 (the PI
//    controller's exponents are those of Hairer's DOPRI5 code: alpha = 0.2 - 0.75 beta, beta = 0.04).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "articula/core/error.hpp"
#include "explicit_methods.hpp"

namespace articula {

namespace {

// Butcher tableau (c_i, a_ij); row 7 equals the fifth-order weights b_i (FSAL).
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
// Error weights e_i = b_i - bhat_i, with the embedded fourth-order weights
// bhat = (5179/57600, 0, 7571/16695, 393/640, -92097/339200, 187/2100, 1/40).
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
// Continuous extension (coefficients of the fifth dense-output vector).
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                 d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                 d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

// Compile-time consistency checks that catch a mistyped coefficient: row sums equal c_i, the
// weights sum to one, the error weights to zero.
constexpr bool near(double a, double b) { return (a - b) < 1e-13 && (b - a) < 1e-13; }
static_assert(near(a31 + a32, c3) && near(a41 + a42 + a43, c4) && near(a51 + a52 + a53 + a54, c5));
static_assert(near(a61 + a62 + a63 + a64 + a65, 1.0) && near(b1 + b3 + b4 + b5 + b6, 1.0));
static_assert(near(e1 + e3 + e4 + e5 + e6 + e7, 0.0) && near(d1 + d3 + d4 + d5 + d6 + d7, 0.0));

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Step-size controller (HNW II.4): h_new = h * safety * err^-alpha * errPrev^beta, bounded.
constexpr double kSafety = 0.9, kFacMin = 0.2, kFacMax = 5.0;
constexpr double kBeta = 0.04, kAlpha = 0.2 - 0.75 * kBeta;

class DormandPrince final : public Integrator {
 public:
  explicit DormandPrince(const IntegratorOptions& options) : Integrator(options) {}
  std::string_view name() const override { return "rk45"; }
  bool adaptive() const override { return true; }

  // x(tPrev + s h) = x0 + s (x1 - x0 + (1-s) (r3 + s (r4 + (1-s) r5))), with x1 the corrected end
  // state: using it here (rather than the raw step result) keeps the output exact at time()
  // even when afterStep moved the state, blending the correction in linearly over the step.
  void interpolate(double t, Eigen::VectorXd& x) const override {
    const double h = t_ - tPrev_;
    if (!(h > 0.0) || t == t_) {  // no step taken yet, or the end point: return it bit for bit
      x = x_;
      return;
    }
    const double s = (t - tPrev_) / h, s1 = 1.0 - s;
    x = xPrev_ + s * ((x_ - xPrev_) + s1 * (r3_ + s * (r4_ + s1 * r5_)));
  }

 private:
  void prepare() override {
    for (Eigen::VectorXd* v : {&k2_, &k3_, &k4_, &k5_, &k6_, &k7_, &y_, &err_, &r3_, &r4_, &r5_}) v->resize(x_.size());
    h_ = options_.dt > 0.0 ? options_.dt : initialStep();
    errPrev_ = 1e-4;
  }

  // Scaled RMS norm of err_, sc_i = atol + rtol max(|x_i|, |xNew_i|). NaN or Inf when the step
  // produced non-finite values (every stage feeds err_ or the scale through xNew_).
  double errorNorm() const {
    const Eigen::Index n = x_.size();
    if (n == 0) return 0.0;
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double sc = options_.atol + options_.rtol * std::max(std::abs(x_[i]), std::abs(xNew_[i]));
      const double r = err_[i] / sc;
      sum += r * r;
    }
    return std::sqrt(sum / static_cast<double>(n));
  }

  // HNW II.4 "starting step size": a step that makes an explicit Euler step's increment and the
  // change of f over it small relative to the tolerances. Costs one evaluation.
  double initialStep() {
    const auto norm = [&](const Eigen::VectorXd& v) {
      double sum = 0.0;
      for (Eigen::Index i = 0; i < v.size(); ++i) {
        const double r = v[i] / (options_.atol + options_.rtol * std::abs(x_[i]));
        sum += r * r;
      }
      return v.size() == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(v.size()));
    };
    const double dx = norm(x_), df = norm(f_);
    double h0 = (dx < 1e-5 || df < 1e-5) ? 1e-6 : 0.01 * dx / df;
    h0 = std::min(h0, options_.dtMax);
    y_ = x_ + h0 * f_;
    evaluate(t_ + h0, y_, k2_);
    k3_ = (k2_ - f_) / h0;  // estimate of the second derivative
    const double d2 = norm(k3_);
    const double m = std::max(df, d2);
    const double h1 = m <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / m, 1.0 / 5.0);
    const double h = std::min({100.0 * h0, h1, options_.dtMax});
    return std::isfinite(h) && h > 0.0 ? h : h0;  // non-finite f at the probe: let rejection sort it out
  }

  double advance(double remaining) override {
    bool rejected = false;
    for (;;) {
      const double hWanted = std::min(h_, options_.dtMax);
      const double h = capStep(hWanted, remaining);
      const Eigen::VectorXd& k1 = f_;
      y_ = x_ + (h * a21) * k1;
      evaluate(t_ + c2 * h, y_, k2_);
      y_ = x_ + h * (a31 * k1 + a32 * k2_);
      evaluate(t_ + c3 * h, y_, k3_);
      y_ = x_ + h * (a41 * k1 + a42 * k2_ + a43 * k3_);
      evaluate(t_ + c4 * h, y_, k4_);
      y_ = x_ + h * (a51 * k1 + a52 * k2_ + a53 * k3_ + a54 * k4_);
      evaluate(t_ + c5 * h, y_, k5_);
      y_ = x_ + h * (a61 * k1 + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_);
      evaluate(t_ + h, y_, k6_);
      xNew_ = x_ + h * (b1 * k1 + b3 * k3_ + b4 * k4_ + b5 * k5_ + b6 * k6_);
      evaluate(t_ + h, xNew_, k7_);
      err_ = h * (e1 * k1 + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7_);
      const double err = errorNorm();

      if (err <= 1.0) {  // false for NaN
        // Dense-output vectors, from the raw step result (before afterStep may correct it).
        y_ = xNew_ - x_;
        r3_ = h * k1 - y_;
        r4_ = y_ - h * k7_ - r3_;
        r5_ = h * (d1 * k1 + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7_);
        // PI controller; no growth right after a rejection (it would likely be rejected again).
        double fac = err > 0.0 ? kSafety * std::pow(err, -kAlpha) * std::pow(errPrev_, kBeta) : kFacMax;
        fac = std::clamp(fac, kFacMin, rejected ? 1.0 : kFacMax);
        errPrev_ = std::max(err, 1e-4);
        // A step shortened to land on tEnd does not tell how large the next may be: keep the
        // proposal unless this step's error asks for more.
        h_ = (h < hWanted) ? std::max(hWanted, h * fac) : h * fac;
        return h;
      }

      ++stats_.rejected;
      rejected = true;
      h_ = h * (std::isfinite(err) ? std::max(kFacMin, kSafety * std::pow(err, -kAlpha)) : kFacMin);
      if (h_ < options_.dtMin) {
        const std::string why = std::isfinite(err)
                                    ? "the error estimate is " + shortNumber(err) +
                                          " times the tolerance (a singularity, or a problem too stiff for an explicit method?)"
                                    : "the derivative or the state is not finite there";
        throw SimulationError(t_, stats_.steps + 1,
                              "rk45: step size fell below dtMin = " + shortNumber(options_.dtMin) + " s; " + why);
      }
    }
  }

  void finishStep(bool stateChanged) override {
    if (stateChanged)
      evaluate(t_, x_, f_);  // the FSAL stage belongs to the uncorrected state: re-evaluate
    else
      f_.swap(k7_);  // FSAL: f(t_, x_) is the last stage
  }

  bool shrinkAfterRejection(double h) override {
    h_ = 0.25 * h;
    if (h_ < options_.dtMin)
      throw SimulationError(t_, stats_.steps + 1,
                            "rk45: step size fell below dtMin = " + shortNumber(options_.dtMin) +
                                " s; the state after each step could not be corrected (projection did not converge)");
    return true;
  }

  void saveMethod(ArchiveWriter& out) const override {
    out.put(h_);
    out.put(errPrev_);
  }
  void restoreMethod(ArchiveReader& in) override {
    h_ = in.getDouble();
    errPrev_ = in.getDouble();
  }

  double h_ = 0.0;        // proposed size of the next step
  double errPrev_ = 1e-4;  // error of the last accepted step (PI controller memory)
  Eigen::VectorXd k2_, k3_, k4_, k5_, k6_, k7_;  // stages (k1 is f_)
  Eigen::VectorXd y_, err_;                      // stage argument / scratch, error estimate
  Eigen::VectorXd r3_, r4_, r5_;                 // continuous extension of the last step
};

}  // namespace

std::unique_ptr<Integrator> makeRk45(const IntegratorOptions& options) {
  return std::make_unique<DormandPrince>(options);
}

}  // namespace articula
