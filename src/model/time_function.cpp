#include "articula/model/time_function.hpp"

#include "articula/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

namespace articula {

TimeFunction TimeFunction::constant(double c) {
  TimeFunction f;
  f.kind_ = Kind::Constant;
  f.a_ = {c};
  return f;
}

void TimeFunction::setConstant(double c) {
  if (kind_ != Kind::Constant) throw Error("setConstant: the time function is not a constant");
  a_[0] = c;
}

TimeFunction TimeFunction::polynomial(std::vector<double> coefficients) {
  TimeFunction f;
  f.kind_ = Kind::Polynomial;
  f.a_ = std::move(coefficients);
  return f;
}

TimeFunction TimeFunction::sine(double amplitude, double frequency, double phase, double offset) {
  TimeFunction f;
  f.kind_ = Kind::Sine;
  f.a_ = {amplitude, 2.0 * std::numbers::pi * frequency, phase, offset};
  return f;
}

TimeFunction TimeFunction::smoothStep(double t0, double v0, double t1, double v1) {
  TimeFunction f;
  f.kind_ = Kind::SmoothStep;
  f.a_ = {t0, v0, t1, v1};
  return f;
}

TimeFunction TimeFunction::table(std::vector<double> times, std::vector<double> values) {
  TimeFunction f;
  f.kind_ = Kind::Table;
  f.a_ = std::move(times);
  f.b_ = std::move(values);
  return f;
}

TimeFunction TimeFunction::slalom(double amplitude, double frequency, double start, double cycles) {
  if (!(frequency > 0.0) || !std::isfinite(2.0 * std::numbers::pi * frequency))
    throw Error("slalom: the frequency must be positive and finite");
  if (!(cycles >= 1.0) || !std::isfinite(cycles)) throw Error("slalom: at least one cycle (cycles >= 1)");
  TimeFunction f;
  f.kind_ = Kind::Slalom;
  f.a_ = {amplitude, frequency, start, cycles};  // as given, so that yaml() writes them back exactly
  return f;
}

TimeFunction TimeFunction::sineWithDwell(double amplitude, double frequency, double start, double dwell) {
  if (!(frequency > 0.0) || !std::isfinite(2.0 * std::numbers::pi * frequency))
    throw Error("sine_with_dwell: the frequency must be positive and finite");
  if (!(dwell >= 0.0) || !std::isfinite(dwell)) throw Error("sine_with_dwell: the dwell must be zero or positive");
  TimeFunction f;
  f.kind_ = Kind::SineWithDwell;
  f.a_ = {amplitude, frequency, start, dwell};
  return f;
}

namespace {
// Quintic s(x) = 10x^3 - 15x^4 + 6x^5 on x in [0, 1] and its first two derivatives.
void quintic(double x, double& s, double& ds, double& dds) {
  const double x2 = x * x, x3 = x2 * x;
  s = x3 * (10.0 - 15.0 * x + 6.0 * x2);
  ds = 30.0 * x2 * (1.0 - 2.0 * x + x2);
  dds = 60.0 * x * (1.0 - 3.0 * x + 2.0 * x2);
}

// A value and its first two time derivatives.
struct Jet {
  double f = 0.0, df = 0.0, ddf = 0.0;
};

// The slalom {A, f, start, cycles}: A w(t) sin(omega (t - start)), w the quintic fade in over the
// first half period and out over the last (for one cycle the two meet at the middle).
Jet slalomJet(const std::vector<double>& a, double t) {
  const double A = a[0], omega = 2.0 * std::numbers::pi * a[1], tau = t - a[2], duration = a[3] / a[1];
  if (tau <= 0.0 || tau >= duration) return {};
  const double half = std::numbers::pi / omega;
  double w = 1.0, dw = 0.0, ddw = 0.0;
  if (tau < half) {
    quintic(tau / half, w, dw, ddw);
  } else if (tau > duration - half) {
    quintic((duration - tau) / half, w, dw, ddw);
    dw = -dw;  // d/dt of s((duration - tau) / half): the chain rule's sign; ddw keeps its sign
  }
  dw /= half;
  ddw /= half * half;
  const double g = std::sin(omega * tau), dg = omega * std::cos(omega * tau), ddg = -omega * omega * g;
  return {A * w * g, A * (dw * g + w * dg), A * (ddw * g + 2.0 * dw * dg + w * ddg)};
}

// The sine with dwell {A, f, start, dwell}: the sine to its negative peak at 3/4 of the period T,
// -A for the dwell, then the sine's last quarter period shifted by the dwell.
Jet sineWithDwellJet(const std::vector<double>& a, double t) {
  const double A = a[0], omega = 2.0 * std::numbers::pi * a[1], dwell = a[3];
  const double peak = 1.5 * std::numbers::pi / omega;  // 3 T / 4
  double tau = t - a[2];
  if (tau <= 0.0 || tau >= 2.0 * std::numbers::pi / omega + dwell) return {};
  if (tau >= peak && tau <= peak + dwell) return {-A, 0.0, 0.0};
  if (tau > peak) tau -= dwell;
  const double g = std::sin(omega * tau);
  return {A * g, A * omega * std::cos(omega * tau), -A * omega * omega * g};
}
}  // namespace

double TimeFunction::value(double t) const {
  switch (kind_) {
    case Kind::Constant:
      return a_[0];
    case Kind::Polynomial: {
      double v = 0.0;
      for (auto it = a_.rbegin(); it != a_.rend(); ++it) v = v * t + *it;
      return v;
    }
    case Kind::Sine:
      return a_[3] + a_[0] * std::sin(a_[1] * t + a_[2]);
    case Kind::SmoothStep: {
      if (t <= a_[0]) return a_[1];
      if (t >= a_[2]) return a_[3];
      double s, ds, dds;
      quintic((t - a_[0]) / (a_[2] - a_[0]), s, ds, dds);
      return a_[1] + (a_[3] - a_[1]) * s;
    }
    case Kind::Table: {
      if (t <= a_.front()) return b_.front();
      if (t >= a_.back()) return b_.back();
      const auto k = static_cast<std::size_t>(std::upper_bound(a_.begin(), a_.end(), t) - a_.begin());
      const double w = (t - a_[k - 1]) / (a_[k] - a_[k - 1]);
      return (1.0 - w) * b_[k - 1] + w * b_[k];
    }
    case Kind::Slalom:
      return slalomJet(a_, t).f;
    case Kind::SineWithDwell:
      return sineWithDwellJet(a_, t).f;
  }
  return 0.0;
}

double TimeFunction::derivative(double t) const {
  switch (kind_) {
    case Kind::Constant:
      return 0.0;
    case Kind::Polynomial: {
      double v = 0.0;
      for (std::size_t k = a_.size(); k-- > 1;) v = v * t + static_cast<double>(k) * a_[k];
      return v;
    }
    case Kind::Sine:
      return a_[0] * a_[1] * std::cos(a_[1] * t + a_[2]);
    case Kind::SmoothStep: {
      if (t <= a_[0] || t >= a_[2]) return 0.0;
      double s, ds, dds;
      const double span = a_[2] - a_[0];
      quintic((t - a_[0]) / span, s, ds, dds);
      return (a_[3] - a_[1]) * ds / span;
    }
    case Kind::Table: {
      if (t <= a_.front() || t >= a_.back()) return 0.0;
      const auto k = static_cast<std::size_t>(std::upper_bound(a_.begin(), a_.end(), t) - a_.begin());
      return (b_[k] - b_[k - 1]) / (a_[k] - a_[k - 1]);
    }
    case Kind::Slalom:
      return slalomJet(a_, t).df;
    case Kind::SineWithDwell:
      return sineWithDwellJet(a_, t).df;
  }
  return 0.0;
}

double TimeFunction::secondDerivative(double t) const {
  switch (kind_) {
    case Kind::Constant:
    case Kind::Table:  // piecewise linear: zero almost everywhere
      return 0.0;
    case Kind::Polynomial: {
      double v = 0.0;
      for (std::size_t k = a_.size(); k-- > 2;) v = v * t + static_cast<double>(k * (k - 1)) * a_[k];
      return v;
    }
    case Kind::Sine:
      return -a_[0] * a_[1] * a_[1] * std::sin(a_[1] * t + a_[2]);
    case Kind::SmoothStep: {
      if (t <= a_[0] || t >= a_[2]) return 0.0;
      double s, ds, dds;
      const double span = a_[2] - a_[0];
      quintic((t - a_[0]) / span, s, ds, dds);
      return (a_[3] - a_[1]) * dds / (span * span);
    }
    case Kind::Slalom:
      return slalomJet(a_, t).ddf;
    case Kind::SineWithDwell:
      return sineWithDwellJet(a_, t).ddf;
  }
  return 0.0;
}

std::string TimeFunction::yaml() const {
  std::ostringstream s;
  s.precision(17);
  auto list = [&](const std::vector<double>& v) {
    s << '[';
    for (std::size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
    s << ']';
  };
  switch (kind_) {
    case Kind::Constant:
      s << a_[0];
      break;
    case Kind::Polynomial:
      s << "{type: polynomial, coefficients: ";
      list(a_);
      s << '}';
      break;
    case Kind::Sine:
      s << "{type: sine, amplitude: " << a_[0] << ", frequency: " << a_[1] / (2.0 * std::numbers::pi) << ", phase: " << a_[2]
        << ", offset: " << a_[3] << '}';
      break;
    case Kind::SmoothStep:
      s << "{type: smooth_step, t0: " << a_[0] << ", v0: " << a_[1] << ", t1: " << a_[2] << ", v1: " << a_[3] << '}';
      break;
    case Kind::Table:
      s << "{type: table, time: ";
      list(a_);
      s << ", value: ";
      list(b_);
      s << '}';
      break;
    case Kind::Slalom:
      s << "{type: slalom, amplitude: " << a_[0] << ", frequency: " << a_[1] << ", start: " << a_[2]
        << ", cycles: " << a_[3] << '}';
      break;
    case Kind::SineWithDwell:
      s << "{type: sine_with_dwell, amplitude: " << a_[0] << ", frequency: " << a_[1] << ", start: " << a_[2]
        << ", dwell: " << a_[3] << '}';
      break;
  }
  return s.str();
}

}  // namespace articula
