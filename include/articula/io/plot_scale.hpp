// Axis scales for plots: the range shown and its tick values.
#pragma once

#include <string>
#include <vector>

namespace articula {

struct AxisScale {
  double lo = 0.0, hi = 1.0;  ///< the range shown (for a log scale: powers of ten)
  std::vector<double> ticks;  ///< from lo to hi
  bool log = false;
  double step = 1.0;  ///< between ticks: the value step (linear) or the decades (log)

  /// Position of `value` on the axis from 0 (lo) to 1 (hi); log scales take log10(value).
  double fraction(double value) const;
  /// The tick's text, with as many digits as the step needs ("0.2", "1.5e-9", "2000", "1e-12").
  std::string label(double tick) const;
};

/// A linear scale with "nice" ticks (1, 2 or 5 times a power of ten) and about `ticks` of them,
/// the range widened to the outer ticks. Needs finite lo <= hi; an empty range (a constant) is
/// widened around its value.
AxisScale linearScale(double lo, double hi, int ticks = 6);
/// A log10 scale over whole decades covering [lo, hi] (0 < lo <= hi, finite), a tick every
/// decade or every few decades so that there are at most about `ticks`.
AxisScale logScale(double lo, double hi, int ticks = 8);

}  // namespace articula
