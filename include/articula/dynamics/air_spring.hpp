// The gas spring of an air spring: polytropic pressure on an effective area (docs/vehicles.md,
// "Air springs").
#pragma once

#include <string>

#include "articula/model/model.hpp"

namespace articula {

struct AirSpringForce {
  double tension = 0.0;  ///< -(p - p_ambient) A: negative, the gas pushes the points apart
  double rate = 0.0;     ///< d tension / dL = n p A^2 / V
};

/// The gas's tension and its rate at length L; throws articula::Error naming `spring` when the
/// gas volume V0 + A (L - L0) is no longer positive (the spring has bottomed out).
AirSpringForce airSpringForce(const AirSpring& a, double L, const std::string& spring);

/// The energy stored in the gas relative to the design length, whose slope by L is the tension:
/// -(integral of p dV from V0 to V) + p_ambient (V - V0).
double airSpringEnergy(const AirSpring& a, double L, const std::string& spring);

}  // namespace articula
