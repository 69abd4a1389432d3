// The run summary (summary.json): what ran, how long it took, how accurate it was,
// and the error when it failed.
#pragma once

#include <string>

#include "articula/simulate/simulation.hpp"

namespace articula {

/// Writes the summary atomically (to path.tmp, then renamed). Throws articula::Error naming the path.
void writeSummaryJson(const std::string& path, const Model& model, const std::string& modelPath,
                      const SimulationOptions& options, const SimulationResult& result);

/// JSON string literal with escapes.
std::string jsonString(const std::string& s);

}  // namespace articula
