// `articula track`: the feed-forward + feedback study of seed 002 chapter 7 on a problem file with
// a `tracking` section (optimize/tracking.hpp, docs/optimal-control.md).
#pragma once

#include "cli_args.hpp"

namespace articula::cli {

/// Runs the study at the parameters of --start (else the problem's initial ones), prints the
/// integral squared errors of the architectures and writes OUT/tracking.csv and tracking.json.
int trackCommand(const Command& c);

}  // namespace articula::cli
