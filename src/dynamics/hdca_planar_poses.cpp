#include "articula/dynamics/hdca_planar_poses.hpp"

#include <cmath>

#include "articula/core/error.hpp"

namespace articula {

PlanarTreePoses::PlanarTreePoses(const Model& model, const AssemblyTree& tree)
    : model_(model),
      tree_(tree),
      joints_(static_cast<std::size_t>(model.bodyCount()) + 1),
      placement_(joints_.size()),
      joint_(joints_.size()),
      relative_(tree.nodes().size()),
      jointChild_(tree.nodes().size()) {
  if (!describePlanar(model, joints_)) throw Error("PlanarTreePoses: model '" + model.name + "' is not planar");
  for (std::size_t i = 1; i < joints_.size(); ++i) {
    planarJoints_ = planarJoints_ || model.joints[i].type == JointType::Planar;
    const PlanarJoint& pj = joints_[i];
    placement_[i] = Pose{std::cos(pj.placementAngle), std::sin(pj.placementAngle), pj.placementOrigin.x(),
                         pj.placementOrigin.y()};
  }
}

// b's frame given in a's, in a's base: a b.
PlanarTreePoses::Pose PlanarTreePoses::compose(const Pose& a, const Pose& b) {
  return Pose{a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s, a.x + a.c * b.x - a.s * b.y, a.y + a.s * b.x + a.c * b.y};
}

// Body i's frame in its parent's at its joint's coordinates (as placeBody of aba_planar.cpp).
[[gnu::always_inline]] inline PlanarTreePoses::Pose PlanarTreePoses::jointPose(int i, const double* q) const {
  const auto idx = static_cast<std::size_t>(i);
  const PlanarJoint& pj = joints_[idx];
  switch (model_.joints[idx].type) {
    case JointType::Revolute: {
      const double angle = pj.placementAngle + pj.axisSign * q[0];
      return Pose{std::cos(angle), std::sin(angle), pj.placementOrigin.x(), pj.placementOrigin.y()};
    }
    case JointType::Prismatic:
      return compose(placement_[idx], Pose{1.0, 0.0, pj.direction.x() * q[0], pj.direction.y() * q[0]});
    case JointType::Planar:
      return compose(placement_[idx], Pose{std::cos(q[2]), std::sin(q[2]), q[0], q[1]});
    default:  // fixed
      return placement_[idx];
  }
}

void PlanarTreePoses::leafUp(const Workspace& /*ws*/, const Eigen::VectorXd& q, int i) {
  joint_[static_cast<std::size_t>(i)] =
      jointPose(i, q.data() + model_.joints[static_cast<std::size_t>(i)].iq);
}

// A leaf's relative pose is the identity (constructor): no product with it.
void PlanarTreePoses::up(const Workspace& /*ws*/, int k) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(k)];
  const Pose& A = relative_[static_cast<std::size_t>(n.first)];
  const Pose& joint = joint_[static_cast<std::size_t>(n.joint)];
  Pose& child = jointChild_[static_cast<std::size_t>(k)];
  child = tree_.isLeaf(n.first) ? joint : compose(A, joint);
  if (n.rake)
    relative_[static_cast<std::size_t>(k)] = A;
  else
    relative_[static_cast<std::size_t>(k)] =
        tree_.isLeaf(n.second) ? child : compose(child, relative_[static_cast<std::size_t>(n.second)]);
}

void PlanarTreePoses::atRoots(Workspace& ws) const {
  for (int root : tree_.roots()) {
    const int top = tree_.nodes()[static_cast<std::size_t>(root)].top;
    setPose(ws, top, joint_[static_cast<std::size_t>(top)]);
  }
}

void PlanarTreePoses::down(Workspace& ws, int k) const {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(k)];
  const PlanarPose& top = ws.planar.pose[static_cast<std::size_t>(n.top)];
  setPose(ws, n.joint, compose(Pose{top.cos, top.sin, top.p.x(), top.p.y()}, jointChild_[static_cast<std::size_t>(k)]));
}

// The body's pose, and a planar joint's frame rotation with it (setJointRotation).
void PlanarTreePoses::setPose(Workspace& ws, int body, const Pose& w) const {
  const auto idx = static_cast<std::size_t>(body);
  PlanarPose& pose = ws.planar.pose[idx];
  pose.cos = w.c;
  pose.sin = w.s;
  pose.p = Vec2(w.x, w.y);
  if (planarJoints_ && model_.joints[idx].type == JointType::Planar) setJointRotation(ws, idx, w);
}

// The child's rotation turned back by the joint's own (joint_ = placement q-motion; rotations
// commute in the plane): it reads only the body's own data, where the parent's pose times the
// placement would read another partition's body (TreeSchedule::sweeps).
void PlanarTreePoses::setJointRotation(Workspace& ws, std::size_t idx, const Pose& w) const {
  const Pose& joint = joint_[idx];
  const Pose& placement = placement_[idx];
  const double c = w.c * joint.c + w.s * joint.s, s = w.s * joint.c - w.c * joint.s;  // w / joint
  ws.planar.jointRotation[idx] = Vec2(c * placement.c - s * placement.s, s * placement.c + c * placement.s);
}

}  // namespace articula
