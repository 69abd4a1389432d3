// Which MPI rank does what in the distributed formulation (docs/distributed.md, "Across MPI
// ranks"): a function of the hierarchy and the rank count only, the same on every rank.
//
// The subsystems go to the ranks in contiguous blocks, subsystem s to rank floor(s P / N) (N
// subsystems, P ranks), so neighbours along a chain share a rank and a rank's subsystems fill
// whole subtrees of the hierarchy where P divides N. A hierarchy node belongs to the rank of its
// first subsystem: its first child is always local, and only an interface that comes up from a
// child on another rank travels (one message up with D and R, one down with its handle forces).
//
// After the forces come down, each rank has the accelerations of its own bodies and joints. The
// joint accelerations of all subsystems are then gathered onto every rank (every rank integrates
// the whole state). A link joint whose two bodies live on different ranks is solved after that
// gather on every rank, from the two bodies' accelerations, which their ranks add to the gather.
#pragma once

#include <vector>

#include "articula/dynamics/rank_traffic.hpp"
#include "articula/dynamics/subsystem_hierarchy.hpp"

namespace articula {

struct RankPlan {
  int ranks = 1;
  std::vector<int> subsystemRank;  ///< per subsystem
  std::vector<int> nodeRank;       ///< per hierarchy node: the rank that forms its interface
  std::vector<int> nodeParent;     ///< per hierarchy node: its parent node (-1: the root)
  /// Per rank, what it adds to the gather, in this order: the velocity coordinates of these joints
  /// (body indices), then 6 doubles (the acceleration) per body of gatheredBodies.
  std::vector<std::vector<int>> gatheredJoints, gatheredBodies;
  std::vector<int> counts, offsets;  ///< per rank: doubles in the gather, and where they start
  std::vector<int> accelerationAt;   ///< per body: where the gather holds its acceleration (-1: nowhere)
  std::vector<int> crossLinks;       ///< links (indices) of joints between ranks, solved after the gather
  RankTraffic traffic;

  /// True when node n's interface comes up from another rank than its parent's.
  bool remoteChild(int n) const {
    const int p = nodeParent[static_cast<std::size_t>(n)];
    return p >= 0 && nodeRank[static_cast<std::size_t>(p)] != nodeRank[static_cast<std::size_t>(n)];
  }
};

/// The plan for `ranks` processes. Throws articula::Error when ranks < 1 or there are more ranks
/// than subsystems (naming both counts).
RankPlan makeRankPlan(const Model& model, const SubsystemHierarchy& hierarchy, int ranks);

}  // namespace articula
