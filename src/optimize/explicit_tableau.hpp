// Private to src/optimize: the Butcher tableaus of the explicit fixed-step methods whose discrete
// adjoint the trajectory gradient runs (trajectory_gradient.cpp). The same methods as the
// integrators euler and rk4 (integrate/), written as tableaus because the adjoint needs every
// stage; heun (explicit trapezoidal rule, second order) is added for its low cost.
#pragma once

#include <string_view>

namespace articula::detail {

struct ExplicitTableau {
  int stages = 1;
  double c[4] = {0, 0, 0, 0};
  double a[4][4] = {};  ///< strictly lower triangular
  double b[4] = {0, 0, 0, 0};
};

/// "euler", "heun" or "rk4" (Hairer, Norsett, Wanner I, Table II.1.2 left); throws articula::Error otherwise.
ExplicitTableau explicitTableau(std::string_view name);

}  // namespace articula::detail
