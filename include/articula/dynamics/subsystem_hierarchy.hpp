// The topology of the distributed formulation (seed 003 Step 2-3, docs/distributed.md): the
// subsystems with their handle bodies, the links between them, and the binary hierarchy that
// combines them up to the root.
//
// Level 0 holds one node per subsystem, in the order of their top bodies; level l + 1 pairs the
// nodes 2j and 2j + 1 of level l (an odd last node passes up alone) until one node, the root,
// holds every subsystem. A link is eliminated at the lowest node that holds the subsystems of both
// its bodies: a loop inside one subsystem at that subsystem's level-0 node, a joint or loop
// between two subsystems where their branches meet. Links to the ground are eliminated at the
// root, where the ground's known motion enters (seed 003 eq. (7)). A node keeps as handles the
// bodies of its children's handles that still end a link eliminated higher up.
#pragma once

#include <vector>

#include "articula/dynamics/subsystem_interface.hpp"
#include "articula/model/model.hpp"

namespace articula {

struct SubsystemHierarchy {
  struct Node {
    int level = 0;
    int subsystem = -1;         ///< level 0: its subsystem
    std::vector<int> children;  ///< levels >= 1: node indices on the level below
    std::vector<int> links;     ///< links eliminated here
    std::vector<int> handles;   ///< the node's interface: handles kept for the links above
    /// False when the node passes its only input on unchanged (nothing to eliminate).
    bool combines = false;
  };
  std::vector<std::vector<int>> subsystems;        ///< body indices, ascending, ordered by top body
  std::vector<std::vector<int>> subsystemHandles;  ///< per subsystem: its top body, then its link ends
  std::vector<int> owner;                          ///< per body: its subsystem (-1 for the ground)
  /// The links with their topology filled in (rows evaluated per state elsewhere): first the top
  /// joints of the subsystems (in subsystem order), then the loops (in model order).
  std::vector<InterfaceLink> links;
  std::vector<Node> nodes;  ///< level by level, level 0 first; the root is last
  int levels = 1;

  const Node& root() const { return nodes.back(); }
};

/// The hierarchy over the given partition (checked with checkPartition). Throws articula::Error
/// for an invalid partition.
SubsystemHierarchy buildSubsystemHierarchy(const Model& model, std::vector<std::vector<int>> parts);

/// What passes between hierarchy levels in one evaluation, per level >= 1: the interfaces that
/// come up to that level's combining nodes (D and R, doubles) and their handle forces going back
/// down (Q). Level 0 and the root of a single subsystem exchange nothing.
struct LevelTraffic {
  int level = 0;
  int interfaces = 0;
  long bytesUp = 0, bytesDown = 0;
};
std::vector<LevelTraffic> hierarchyTraffic(const SubsystemHierarchy& hierarchy);

}  // namespace articula
