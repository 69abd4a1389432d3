// Factories of the concrete explicit integrators (private to src/integrate).
#pragma once

#include "articula/integrate/integrator.hpp"

namespace articula {

std::unique_ptr<Integrator> makeEuler(const IntegratorOptions& options);
std::unique_ptr<Integrator> makeRk4(const IntegratorOptions& options);
std::unique_ptr<Integrator> makeRk45(const IntegratorOptions& options);

}  // namespace articula
