// Text reports of the articula tool.
#pragma once

#include <ostream>
#include <string>

#include "articula/simulate/simulation.hpp"

namespace articula::cli {

/// Bodies, joints, coordinates, loops, force elements and mobility of a model.
void printModelInfo(std::ostream& out, const Model& model);
/// Runs the initial assembly of a constrained model; throws ModelError when it fails.
AssemblyResult checkAssembly(const Model& model);
/// A few lines after a successful run: where the files are and the accuracy figures.
void printRunReport(std::ostream& out, const Model& model, const SimulationResult& r, const std::string& outDir,
                    const std::string& htmlPath);

}  // namespace articula::cli
