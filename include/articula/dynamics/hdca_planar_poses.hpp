// The body poses of a planar mechanism (model/planarity.hpp) in the world plane, as a parallel
// prefix over the assembly tree: the planar counterpart of dynamics/tree_kinematics.hpp for the
// planar HDCA kernel, which reads nothing else of the kinematics. A pose is a rotation about z,
// kept as its cosine and sine, and an in-plane origin; composing two is a product of complex
// numbers and one turned vector, with no trigonometry except each joint's own angle.
//
// Up the tree each node gets its joint's child frame in its top body's frame, child(C) =
// rel(A) joint_j, and its bottom body's, rel(C) = child(C) rel(B) when C's bottom is B's
// (compress) and rel(A) when it stays A's (rake); at the roots the top body's pose is its
// joint's; down the tree B's top body gets pose(C's top) child(C). The products differ from a
// serial recursion's order only by round-off, and are the same bits for every thread count.
#pragma once

#include <vector>

#include "articula/dynamics/tree_kinematics.hpp"
#include "articula/dynamics/tree_schedule.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

class PlanarTreePoses {
 public:
  /// Requires a planar model (Workspace::planar.isPlanar).
  PlanarTreePoses(const Model& model, const AssemblyTree& tree);

  /// ws.planar.pose (world plane) at q. A TreeSchedule sweep (call it in a ThreadTeam run).
  void update(Workspace& ws, const Eigen::VectorXd& q, const TreeSchedule& schedule) {
    schedule.sweeps(sweep(ws, q));
  }

  /// The calls of that sweep, for TreeSchedule::sweeps. A body's pose is written by its joint's
  /// node (down) or at the roots, so that the bodies at the partitions' handles have theirs after
  /// the crown.
  PoseSweep<PlanarTreePoses> sweep(Workspace& ws, const Eigen::VectorXd& q) { return {*this, ws, q}; }

 private:
  friend class PoseSweep<PlanarTreePoses>;
  struct Pose {
    double c = 1.0, s = 0.0;  // rotation about z: cos, sin
    double x = 0.0, y = 0.0;  // origin
  };
  static Pose compose(const Pose& a, const Pose& b);
  Pose jointPose(int i, const double* q) const;
  void leafUp(const Workspace& ws, const Eigen::VectorXd& q, int body);
  void up(const Workspace& ws, int node);
  void atRoots(Workspace& ws) const;
  void down(Workspace& ws, int node) const;
  void setPose(Workspace& ws, int body, const Pose& pose) const;
  void setJointRotation(Workspace& ws, std::size_t body, const Pose& pose) const;

  const Model& model_;
  const AssemblyTree& tree_;
  std::vector<PlanarJoint> joints_;  // the model's joints in the plane
  std::vector<Pose> placement_;  // per joint: its frame in the parent body's frame
  bool planarJoints_ = false;    // some joint is planar (setPose writes its frame rotation)
  std::vector<Pose> joint_;      // per body: its frame in its parent's frame at q
  std::vector<Pose> relative_;   // per node: its bottom body's frame in its top body's frame (leaves: identity)
  std::vector<Pose> jointChild_; // per node: its joint's child frame in its top body's frame
};

}  // namespace articula
