// Parametric example models.
#pragma once

#include "articula/model/builder.hpp"

namespace articula {

/// N-link pendulum chain: link i is a uniform box 0.5 m along its x with a
/// 0.05 m x 0.05 m section and 1 kg, COM at mid-length, frame at its joint; joint 1 a
/// revolute at the origin, joint i > 1 at the distal end of link i-1; axes all z
/// (planar) or cycling z, y, x (spatial); q1 = 0.3 rad, other q = 0.1 rad, at rest;
/// gravity (0, -9.81, 0).
ModelBuilder chainBuilder(int links, bool spatial);
inline Model makeChain(int links, bool spatial) { return chainBuilder(links, spatial).build(); }

}  // namespace articula
