// What the distributed formulation sends between MPI ranks in one evaluation (docs/distributed.md,
// "Communication volume"): per hierarchy level the interfaces (D, R) that go up to a combining
// node on another rank and the handle forces that come back, one message each way per such edge;
// then one all-gather that gives every rank the joint accelerations of all subsystems.
#pragma once

#include <vector>

namespace articula {

struct RankTraffic {
  struct Level {
    int level = 0;
    long messagesUp = 0, messagesDown = 0;
    long bytesUp = 0, bytesDown = 0;
  };
  int ranks = 1;
  std::vector<Level> levels;  ///< levels >= 1 with at least one message between ranks
  long gatherBytes = 0;       ///< the gathered buffer (every rank's contribution; each rank receives all but its own)

  long messages() const {
    long m = 0;
    for (const Level& l : levels) m += l.messagesUp + l.messagesDown;
    return m;
  }
  long levelBytes() const {
    long b = 0;
    for (const Level& l : levels) b += l.bytesUp + l.bytesDown;
    return b;
  }
};

}  // namespace articula
