// `articula sweep`: an ensemble of simulations of one model (docs/sweep.md).
#pragma once

#include "cli_args.hpp"

namespace articula::cli {

/// Runs the sweep; under mpirun every rank runs it and only rank 0 reports. Returns the exit
/// status: 0 every case ran, 1 some case failed, 2 a bad command line, model, table or directory.
int sweepCommand(const Command& c);

}  // namespace articula::cli
