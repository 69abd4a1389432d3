// How the threads share a sweep over an assembly tree (thesis chapter 6; the schedule, not the
// arithmetic): leaves-to-roots work on every internal node, something at the roots, then
// roots-to-leaves work, with every node's operations the same on any thread, so results do not
// depend on the thread count.
//
// Synchronising after every tier costs two barriers per tier and sweep, which on a few cores
// costs more than the nodes of a small tier (and, when the cores are shared with other work,
// far more). Instead the tree is cut into disjoint subtrees, the partitions, each handled by one
// thread from its leaves to its top without synchronisation; the few nodes above them (the
// crown) are handled by one thread in between:
//   partitions in parallel: leaves, then nodes up | crown up, the roots, crown down |
//   partitions in parallel: nodes down, then leaves.
// A sweep thus costs two barriers whatever the depth (and a third where what follows reads its
// results). The partitions come from splitting the largest subtree until there are
// kPartitionsPerThread per thread, largest first; each thread keeps the same partitions from
// sweep to sweep (static schedule), so their data stay in its cache. The crown's serial share is
// about kPartitionsPerThread * threads nodes.
#pragma once

#include <vector>

#include "articula/dynamics/assembly_tree.hpp"
#include "articula/parallel/thread_team.hpp"

namespace articula {

class TreeSchedule {
 public:
  static constexpr int kPartitionsPerThread = 2;

  TreeSchedule(const AssemblyTree& tree, int threads);

  /// Calls leafUp(body) for every body and up(node) for every internal node, children before
  /// parents, then atRoots(), then down(node) for every internal node and leafDown(body) for every
  /// body, parents before children. Inside a ThreadTeam's run the calls are shared among its
  /// members (every member must call this); outside of one the calling thread makes them all.
  /// A member may leave before the others are done with their partitions: the run's end, or
  /// ThreadTeam::synchronize() before a sweep that reads them, waits for all.
  template <class LeafUp, class Up, class AtRoots, class Down, class LeafDown>
  void sweep(const LeafUp& leafUp, const Up& up, const AtRoots& atRoots, const Down& down,
             const LeafDown& leafDown) const {
    const parallel::ThreadTeam::Seat seat = parallel::ThreadTeam::member();
    const int members = seat.team != nullptr ? seat.team->size() : 1;
    const int parts = static_cast<int>(partitions_.size());
    // Partition k goes to member k mod members, the same one in every sweep.
    for (int k = seat.member; k < parts; k += members) {
      const Partition& part = partitions_[static_cast<std::size_t>(k)];
      for (int body : part.bodies) leafUp(body);
      for (int node : part.nodes) up(node);
    }
    if (seat.team != nullptr) seat.team->barrier();
    if (seat.member == 0) {
      for (int node : crown_) up(node);
      atRoots();
      for (auto it = crown_.rbegin(); it != crown_.rend(); ++it) down(*it);
    }
    if (seat.team != nullptr) seat.team->barrier();
    for (int k = seat.member; k < parts; k += members) {
      const Partition& part = partitions_[static_cast<std::size_t>(k)];
      for (auto it = part.nodes.rbegin(); it != part.nodes.rend(); ++it) down(*it);
      for (int body : part.bodies) leafDown(body);
    }
  }

  struct Partition {
    std::vector<int> bodies;  ///< the leaves, by body index
    std::vector<int> nodes;   ///< the internal nodes, ascending (children first)
  };
  /// The partitions, largest first; every body is in exactly one.
  const std::vector<Partition>& partitions() const { return partitions_; }
  /// The internal nodes above the partitions, ascending.
  const std::vector<int>& crown() const { return crown_; }

 private:
  std::vector<Partition> partitions_;
  std::vector<int> crown_;
};

}  // namespace articula
