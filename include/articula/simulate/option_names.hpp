// Names of the run options that are enumerations in SimulationOptions, as the command line,
// summary.json and the Python bindings spell them. (Formulations and integrators are named by
// strings already: dynamics/formulation.hpp, integrate/integrator.hpp.)
#pragma once

#include <string_view>

#include "articula/simulate/system.hpp"

namespace articula {

/// "projection", "baumgarte" or "none".
std::string_view stabilizationName(Stabilization stabilization);
/// The inverse of stabilizationName; throws articula::Error for any other name (the message lists the valid ones).
Stabilization stabilizationFromName(std::string_view name);

/// The tangent matrix of the structural integrators: "analytic" (spring-damper terms) or
/// "finite-difference" (all forces): AugmentedLagrangianOptions::finiteDifferenceTangent.
std::string_view tangentName(bool finiteDifference);
/// True for "finite-difference", false for "analytic"; throws articula::Error for any other name.
bool finiteDifferenceTangentFromName(std::string_view name);

}  // namespace articula
