#include "articula/io/plot_scale.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace articula {

namespace {

/// The smallest of 1, 2, 5 and 10 times a power of ten that is >= x (x > 0).
double niceStep(double x) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
  for (const double m : {1.0, 2.0, 5.0})
    if (x <= m * magnitude * (1.0 + 1e-9)) return m * magnitude;
  return 10.0 * magnitude;
}

/// Shortest general form with `digits` significant digits, exponent without '+' or leading zeros.
std::string formatNumber(double x, int digits) {
  std::array<char, 40> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::general, digits);
  std::string s(buf.data(), r.ptr);
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = exponent[0] == '-';
  exponent.erase(0, exponent.find_first_not_of("+-0"));
  return s.substr(0, e + 1) + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
}

}  // namespace

double AxisScale::fraction(double value) const {
  if (log) return (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  return (value - lo) / (hi - lo);
}

std::string AxisScale::label(double tick) const {
  if (log) return formatNumber(tick, 1);
  if (std::abs(tick) < step * 1e-6) return "0";  // k * step rounds to 1e-17 instead of 0
  const double largest = std::max(std::abs(lo), std::abs(hi));
  const int stepDecade = static_cast<int>(std::floor(std::log10(step)));
  if (step >= 1e-4 && largest < 1e6) {
    // Plain decimals, as many as a 1, 2 or 5 step needs: 0.25 is no tick, 0.2 and 0.5 are.
    std::array<char, 40> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), tick, std::chars_format::fixed, std::max(0, -stepDecade));
    return std::string(buf.data(), r.ptr);
  }
  // Enough significant digits to tell ticks `step` apart at the largest magnitude shown.
  const int digits = static_cast<int>(std::floor(std::log10(largest))) - stepDecade + 1;
  return formatNumber(tick, std::clamp(digits, 1, 17));
}

AxisScale linearScale(double lo, double hi, int ticks) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo <= hi) || ticks < 2)
    throw std::invalid_argument("linearScale: needs finite lo <= hi and at least 2 ticks");
  // A range too narrow for distinct ticks in double precision is a constant: show +-10 % around it.
  const double middle = lo / 2 + hi / 2;
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {
    const double half = middle != 0.0 ? 0.1 * std::abs(middle) : 1.0;
    lo = middle - half;
    hi = middle + half;
  }
  AxisScale s;
  s.step = niceStep(hi / (ticks - 1) - lo / (ticks - 1));  // no overflow for ranges near DBL_MAX
  // Ticks are k * step for whole k; the tolerance keeps a range end that is a tick from
  // gaining one more tick by round-off (0.3 / 0.1 = 2.9999999999999996).
  const double first = std::floor(lo / s.step + 1e-9), last = std::ceil(hi / s.step - 1e-9);
  for (double k = first; k <= last; ++k) s.ticks.push_back(k * s.step);
  s.lo = s.ticks.front();
  s.hi = s.ticks.back();
  return s;
}

AxisScale logScale(double lo, double hi, int ticks) {
  if (!(lo > 0.0 && std::isfinite(hi) && lo <= hi) || ticks < 2)
    throw std::invalid_argument("logScale: needs 0 < lo <= hi, finite, and at least 2 ticks");
  const double firstDecade = std::floor(std::log10(lo));
  double lastDecade = std::ceil(std::log10(hi));
  if (lastDecade == firstDecade) ++lastDecade;
  AxisScale s;
  s.log = true;
  s.step = std::ceil((lastDecade - firstDecade) / (ticks - 1));
  lastDecade = firstDecade + s.step * std::ceil((lastDecade - firstDecade) / s.step);
  for (double d = firstDecade; d <= lastDecade; d += s.step) s.ticks.push_back(std::pow(10.0, d));
  s.lo = s.ticks.front();
  s.hi = s.ticks.back();
  return s;
}

}  // namespace articula
