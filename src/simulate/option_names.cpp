#include "articula/simulate/option_names.hpp"

#include <string>

#include "articula/core/error.hpp"

namespace articula {

std::string_view stabilizationName(Stabilization stabilization) {
  switch (stabilization) {
    case Stabilization::None: return "none";
    case Stabilization::Baumgarte: return "baumgarte";
    case Stabilization::Projection: return "projection";
  }
  return "?";
}

Stabilization stabilizationFromName(std::string_view name) {
  for (Stabilization s : {Stabilization::Projection, Stabilization::Baumgarte, Stabilization::None})
    if (name == stabilizationName(s)) return s;
  throw Error("unknown stabilization '" + std::string(name) + "' (valid: projection, baumgarte, none)");
}

std::string_view tangentName(bool finiteDifference) { return finiteDifference ? "finite-difference" : "analytic"; }

bool finiteDifferenceTangentFromName(std::string_view name) {
  for (bool finiteDifference : {false, true})
    if (name == tangentName(finiteDifference)) return finiteDifference;
  throw Error("unknown tangent '" + std::string(name) + "' (valid: analytic, finite-difference)");
}

}  // namespace articula
