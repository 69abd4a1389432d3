// The body poses of a tree as a parallel prefix over its assembly tree, so that the position
// kinematics of the divide-and-conquer algorithms is shared among threads like the rest of an
// evaluation (thesis chapter 6: the serial recursion X0_i = Xup_i X0_parent(i) would otherwise
// set an O(n) floor under the O(log n) critical path).
//
// Up the tree each node gets the transform from its top body's frame to its joint's child's,
// child(C) = Xup_j rel(A), and to its bottom body's, rel(C) = rel(B) child(C) when C's bottom is
// B's (compress) and rel(A) when it stays A's (rake); at the roots X0 = Xup; down the tree B's
// top body gets child(C) X0(A's top) (three products per join, one fewer than with rel(A)
// alone). A leaf's rel is the identity, so a join whose A is a leaf copies Xup_j for child(C),
// and rel(C) is formed only where some join reads it (on the serial tree, none: two products
// per body instead of four). Every body is the top of its leaf, so every pose is set. The
// products differ from the serial recursion's order, so the poses agree with updatePositions to
// round-off, and are the same bits for every thread count.
#pragma once

#include <vector>

#include "articula/dynamics/tree_schedule.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

/// The calls of a pose sweep for TreeSchedule::sweeps, at a workspace and coordinates: Poses's
/// leafUp(ws, q, body), up(ws, node), atRoots(ws) and down(ws, node) (TreePositions,
/// PlanarTreePoses).
template <class Poses>
class PoseSweep {
 public:
  PoseSweep(Poses& poses, Workspace& ws, const Eigen::VectorXd& q) : poses_(poses), ws_(ws), q_(q) {}
  void leafUp(int body) const { poses_.leafUp(ws_, q_, body); }
  void up(int node) const { poses_.up(ws_, node); }
  void atRoots() const { poses_.atRoots(ws_); }
  void down(int node) const { poses_.down(ws_, node); }
  void leafDown(int /*body*/) const {}

 private:
  Poses& poses_;
  Workspace& ws_;
  const Eigen::VectorXd& q_;
};

class TreePositions {
 public:
  TreePositions(const Model& model, const AssemblyTree& tree);

  /// ws.joint, ws.Xup and ws.X0 at q, as updatePositions gives them. A TreeSchedule sweep (call
  /// it in a ThreadTeam run).
  void update(Workspace& ws, const Eigen::VectorXd& q, const TreeSchedule& schedule) { schedule.sweeps(sweep(ws, q)); }

  /// The calls of that sweep, for TreeSchedule::sweeps. A body's X0 is written by its joint's
  /// node (down) or at the roots, so that the bodies at the partitions' handles have theirs after
  /// the crown.
  PoseSweep<TreePositions> sweep(Workspace& ws, const Eigen::VectorXd& q) { return {*this, ws, q}; }

 private:
  friend class PoseSweep<TreePositions>;
  void leafUp(Workspace& ws, const Eigen::VectorXd& q, int body) const;
  void up(const Workspace& ws, int node);
  void atRoots(Workspace& ws) const;
  void down(Workspace& ws, int node) const;

  const Model& model_;
  const AssemblyTree& tree_;
  std::vector<Transform> relative_;    // per internal node: from its top body's frame to its bottom body's
  std::vector<Transform> jointChild_;  // per node whose A is no leaf: from its top body's frame to its joint's child's
  std::vector<char> relativeRead_;     // per node: a join above reads its relative_
};

}  // namespace articula
