// `articula gradient` and `articula optimize`: sensitivity analysis and optimisation of a problem
// file (docs/optimal-control.md).
#pragma once

#include "cli_args.hpp"

namespace articula::cli {

/// Prints J and dJ/db by each method asked for, with their times and differences.
int gradientCommand(const Command& c);
/// Optimises and writes OUT/parameters.csv, controls.csv, history.csv, optimization.json, the
/// optimal model (optimum.yaml) and its simulation (results.csv, summary.json, animation.html).
int optimizeCommand(const Command& c);

}  // namespace articula::cli
