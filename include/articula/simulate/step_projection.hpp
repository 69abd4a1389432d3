// The position projection that ends an accepted step of a system with loop closures, shared by
// the ODE systems in [q; v] (simulate/system.hpp) and [q; p] (simulate/hamiltonian_system.hpp).
#pragma once

#include "articula/dynamics/reference.hpp"

namespace articula {

/// Projects q onto g(q, t) = 0 to `tolerance` and returns the residual |g|_inf. Throws
/// StepRejected when the Newton projection ends far above its tolerance (it diverged or
/// stalled: the step went too far from the constraint manifold).
double projectPositionsAfterStep(ConstraintProjector& projector, double t, Eigen::VectorXd& q, double tolerance);

}  // namespace articula
