// The relative threshold below which the rank-revealing decompositions of constraint Jacobians
// (the reference formulation's weighted solve, the distributed formulation's projection, the
// coordinate partitioning's selection, the singularity monitor) treat a direction as dependent:
// far above rounding (1e-16) yet far below any physically meaningful conditioning of a mechanism
// away from a singular pose.
#pragma once

namespace articula {

inline constexpr double kConstraintRankThreshold = 1e-10;

}  // namespace articula
