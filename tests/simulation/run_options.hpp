// Options of a test run: a formulation and an integrator, error-controlled (rk45, with
// `toleranceOrStep` the relative tolerance and a hundredth of it the absolute one) or fixed-step
// (`toleranceOrStep` the step).
#pragma once

#include <string>

#include "articula/simulate/simulation.hpp"

namespace articula::test_models {

inline SimulationOptions runOptions(const std::string& formulation, const std::string& integrator,
                                    double toleranceOrStep, double tEnd) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.tEnd = tEnd;
  if (integrator == "rk45") {
    o.integratorOptions.rtol = toleranceOrStep;
    o.integratorOptions.atol = toleranceOrStep * 1e-2;
  } else {
    o.integratorOptions.dt = toleranceOrStep;
  }
  return o;
}

}  // namespace articula::test_models
