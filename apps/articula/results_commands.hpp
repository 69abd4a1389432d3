// `articula plot` and `articula report`: views of the results a simulate run wrote.
#pragma once

#include "cli_args.hpp"

namespace articula::cli {

/// Writes the SVG line plot the command asks for; warns on stderr about non-finite values.
/// Throws articula::Error for missing or malformed results and unknown columns.
int plotCommand(const Command& c);
/// Writes the HTML report of the run (needs results.csv and summary.json).
int reportCommand(const Command& c);

}  // namespace articula::cli
