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
// results), and sweeps() chains sweeps without that third: each partition goes from one sweep's
// way down straight to the next one's way up, where that way up reads only its own partition's
// results and the crown's (a body's pose, say, written by its joint's node, so that the bodies
// at the partitions' handles, the crown's joints' children, have theirs before the way down).
// The partitions come from splitting the largest subtree until there are
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
    sweeps(Sweep<LeafUp, Up, AtRoots, Down, LeafDown>{leafUp, up, atRoots, down, leafDown});
  }

  /// The five calls of one sweep (above), by reference.
  template <class LeafUp, class Up, class AtRoots, class Down, class LeafDown>
  struct Sweep {
    const LeafUp& leafUp;
    const Up& up;
    const AtRoots& atRoots;
    const Down& down;
    const LeafDown& leafDown;
  };

  /// Sweeps one after the other (objects with the five calls as members leafUp, up, atRoots,
  /// down and leafDown), each partition going from one sweep's way down straight to the next
  /// sweep's way up: two barriers per sweep, none between them. Allowed only where a sweep's way
  /// up, in a partition, reads of the sweeps before it nothing but what their down and leafDown
  /// calls wrote in that partition and what their crown work (atRoots and the crown's up and
  /// down) wrote.
  template <class First, class... Rest>
  void sweeps(const First& first, const Rest&... rest) const {
    const parallel::ThreadTeam::Seat seat = parallel::ThreadTeam::member();
    forOwnPartitions(seat, [&](const Partition& part) { wayUp(first, part); });
    crownThenDown(seat, first, rest...);
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
  // Partition k goes to member k mod members, the same one in every sweep.
  template <class Work>
  void forOwnPartitions(const parallel::ThreadTeam::Seat& seat, const Work& work) const {
    const int members = seat.team != nullptr ? seat.team->size() : 1;
    const int parts = static_cast<int>(partitions_.size());
    for (int k = seat.member; k < parts; k += members) work(partitions_[static_cast<std::size_t>(k)]);
  }
  template <class S>
  static void wayUp(const S& s, const Partition& part) {
    for (int body : part.bodies) s.leafUp(body);
    for (int node : part.nodes) s.up(node);
  }
  template <class S>
  static void wayDown(const S& s, const Partition& part) {
    for (auto it = part.nodes.rbegin(); it != part.nodes.rend(); ++it) s.down(*it);
    for (int body : part.bodies) s.leafDown(body);
  }
  // After the partitions' way up of s: the crown, between two barriers.
  template <class S>
  void crown(const parallel::ThreadTeam::Seat& seat, const S& s) const {
    if (seat.team != nullptr) seat.team->barrier();
    if (seat.member == 0) {
      for (int node : crown_) s.up(node);
      s.atRoots();
      for (auto it = crown_.rbegin(); it != crown_.rend(); ++it) s.down(*it);
    }
    if (seat.team != nullptr) seat.team->barrier();
  }
  // After the partitions' way up of s: its crown and way down, then the next sweeps.
  template <class S>
  void crownThenDown(const parallel::ThreadTeam::Seat& seat, const S& s) const {
    crown(seat, s);
    forOwnPartitions(seat, [&](const Partition& part) { wayDown(s, part); });
  }
  template <class S, class Next, class... Rest>
  void crownThenDown(const parallel::ThreadTeam::Seat& seat, const S& s, const Next& next, const Rest&... rest) const {
    crown(seat, s);
    forOwnPartitions(seat, [&](const Partition& part) {
      wayDown(s, part);
      wayUp(next, part);
    });
    crownThenDown(seat, next, rest...);
  }

  std::vector<Partition> partitions_;
  std::vector<int> crown_;
};

}  // namespace articula
