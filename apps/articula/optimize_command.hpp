// `articula gradient` and `articula optimize` (and what `articula track` shares with them): sensitivity analysis and optimisation of a problem
// file (docs/optimal-control.md).
#pragma once

#include <fstream>
#include <string>

#include "cli_args.hpp"

namespace articula::cli {

/// Prints J and dJ/db by each method asked for, with their times and differences.
int gradientCommand(const Command& c);
/// Optimises and writes OUT/parameters.csv, controls.csv, history.csv, optimization.json, the
/// optimal model (optimum.yaml) and its simulation (results.csv, summary.json, animation.html).
int optimizeCommand(const Command& c);

/// A warm start: the `value` column of a parameters.csv written by an earlier optimize run, in the
/// problem's parameter order (the names must match). Throws articula::Error naming the line.
Eigen::VectorXd readStartParameters(const std::string& path, const OptimalControlProblem& p);
/// A result file opened for writing with full precision; throws articula::Error when it cannot be.
std::ofstream openOutput(const std::string& path);

}  // namespace articula::cli
