// `articula view`: the animation page of a run rebuilt from what it wrote (results.csv and the
// model named in summary.json), e.g. after a run with --no-html or with a newer viewer.
#pragma once

#include "cli_args.hpp"

namespace articula::cli {

/// Writes the page; throws articula::Error when the results, the summary or the model cannot be
/// read or do not fit each other (the message says which column or file).
int viewCommand(const Command& c);

}  // namespace articula::cli
