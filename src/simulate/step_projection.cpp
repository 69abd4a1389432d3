#include "articula/simulate/step_projection.hpp"

#include <cstdio>

#include "articula/integrate/ode.hpp"

namespace articula {

double projectPositionsAfterStep(ConstraintProjector& projector, double t, Eigen::VectorXd& q, double tolerance) {
  const double error = projector.projectPositions(t, q, tolerance);
  constexpr double kFailureFactor = 1e3;  // room for round-off above the tolerance
  if (!(error <= kFailureFactor * tolerance)) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "the position projection did not converge (constraint error %.3g, tolerance %.3g)",
                  error, tolerance);
    throw StepRejected(msg);
  }
  return error;
}

}  // namespace articula
