// The step of a central difference in one variable.
#pragma once

#include <algorithm>
#include <cmath>

namespace articula {

/// Step for a variable of size `value`: cbrt(eps) balances the truncation error (h^2) against the
/// round-off (eps / h); relative to the value's size, absolute below 1.
inline double centralDifferenceStep(double value) { return 6.0555e-6 * std::max(1.0, std::abs(value)); }

}  // namespace articula
