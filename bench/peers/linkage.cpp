// The default whole run of a linkage: advanceTo() from one observation to the next.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "linkage.hpp"

namespace peers {

RunFigures LinkageRun::run(double tEnd, double observe) {
  RunFigures f;
  auto look = [&] {
    const double e = energy();
    if (std::isnan(f.energy0)) f.energy0 = e;
    f.maxClosure = std::max(f.maxClosure, closure());
    f.maxEnergyDrift = std::max(f.maxEnergyDrift, std::abs(e - f.energy0));
  };
  const long n = std::max(1L, std::lround(tEnd / observe));
  const auto t0 = std::chrono::steady_clock::now();
  reset();
  look();
  for (long k = 1; k <= n; ++k) {
    advanceTo(k == n ? tEnd : static_cast<double>(k) * observe);
    look();
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  f.steps = steps();
  f.finalAngles = angles();
  return f;
}

}  // namespace peers
