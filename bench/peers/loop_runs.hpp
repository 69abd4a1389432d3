// The closed-loop part of the peers program (loop_runs.cpp); built with Articula only.
#pragma once

namespace peers {

/// Prints the physics check and the table of 10 s runs of the linkages; false when the
/// engines' initial states disagree.
bool runLinkages(bool quick);

}  // namespace peers
