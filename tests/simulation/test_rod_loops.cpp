// Loops closed by removing rods (seed 004 eq. (25)-(30)): the RSSR with its coupler replaced by
// the distance constraint of its two ends, every formulation that handles closed loops against
// the reference formulation.
#include <gtest/gtest.h>

#include "articula/model/generators.hpp"
#include "index3_support.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
using namespace articula::test_models;

// Reference: rk45 at 1e-12. The semi-recursive formulation (coordinate partitioning) with RK4
// at h = 1e-3: fourth order, measured 3.5e-11, bound 1e-9; the index-3 formulations with the
// trapezoidal rule at h = 1e-3: second order, measured 1.1e-5 (hybrid) and 2.1e-5 (global),
// bound 1e3 h^2 as in the other index-3 tests.
TEST(RodLoops, EveryFormulationAgreesOnTheRssrClosedByARod) {
  const Model model = makeRssr(0.0, true);
  ASSERT_EQ(model.nv, 2);
  ASSERT_EQ(model.constraintCount(), 1);
  constexpr double h = 1e-3, tEnd = 2.0;
  const Eigen::VectorXd reference = referencePositions(model, tEnd);
  SimulationOptions partitioning = structural("semi-recursive", "rk4", h, tEnd);
  EXPECT_LT(positionError(model, partitioning, reference), 1e-9);
  for (const char* formulation : {"hybrid", "global"})
    EXPECT_LT(positionError(model, structural(formulation, "trapezoidal", h, tEnd), reference), 1e3 * h * h)
        << formulation;
}

}  // namespace ARTICULA_TEST_FILE
