#include "articula/dynamics/air_spring.hpp"

#include <cmath>

#include "articula/core/error.hpp"

namespace articula {

namespace {
// The gas volume at length L: the effective area sweeps A dL.
double gasVolume(const AirSpring& a, double L, const std::string& spring) {
  const double V = a.volume + a.area * (L - a.length);
  if (!(V > 0.0))
    throw Error("air spring '" + spring + "': bottomed out, its gas volume is " + std::to_string(V) + " m^3 at length " +
                std::to_string(L) + " m (give it a bump stop)");
  return V;
}
}  // namespace

AirSpringForce airSpringForce(const AirSpring& a, double L, const std::string& spring) {
  const double V = gasVolume(a, L, spring);
  const double p = a.pressure * std::pow(a.volume / V, a.exponent);  // p V^n = p0 V0^n
  // dp/dL = -n p A / V, so d tension / dL = -A dp/dL = n p A^2 / V.
  return {-(p - a.ambient) * a.area, a.exponent * p * a.area * a.area / V};
}

double airSpringEnergy(const AirSpring& a, double L, const std::string& spring) {
  const double V = gasVolume(a, L, spring);
  const double n = a.exponent;
  // integral of p0 (V0 / V)^n dV from V0 to V.
  const double work = std::abs(n - 1.0) < 1e-12 ? a.pressure * a.volume * std::log(V / a.volume)
                                                 : a.pressure * a.volume * (std::pow(V / a.volume, 1.0 - n) - 1.0) / (1.0 - n);
  return -work + a.ambient * (V - a.volume);
}

}  // namespace articula
