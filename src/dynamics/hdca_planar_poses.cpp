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
      jointChild_(tree.nodes().size()),
      world_(joints_.size()) {
  if (!describePlanar(model, joints_)) throw Error("PlanarTreePoses: model '" + model.name + "' is not planar");
  for (std::size_t i = 1; i < joints_.size(); ++i) {
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

void PlanarTreePoses::update(Workspace& ws, const Eigen::VectorXd& q, const TreeSchedule& schedule) {
  const std::vector<AssemblyNode>& nodes = tree_.nodes();
  schedule.sweep(
      [&](int i) {
        joint_[static_cast<std::size_t>(i)] = jointPose(i, q.data() + model_.joints[static_cast<std::size_t>(i)].iq);
      },
      [&](int k) {  // a leaf's relative pose is the identity (constructor): no product with it
        const AssemblyNode& n = nodes[static_cast<std::size_t>(k)];
        const Pose& A = relative_[static_cast<std::size_t>(n.first)];
        const Pose& joint = joint_[static_cast<std::size_t>(n.joint)];
        Pose& child = jointChild_[static_cast<std::size_t>(k)];
        child = tree_.isLeaf(n.first) ? joint : compose(A, joint);
        if (n.rake)
          relative_[static_cast<std::size_t>(k)] = A;
        else
          relative_[static_cast<std::size_t>(k)] =
              tree_.isLeaf(n.second) ? child : compose(child, relative_[static_cast<std::size_t>(n.second)]);
      },
      [&] {
        for (int root : tree_.roots()) {
          const auto top = static_cast<std::size_t>(nodes[static_cast<std::size_t>(root)].top);
          world_[top] = joint_[top];
        }
      },
      [&](int k) {
        const AssemblyNode& n = nodes[static_cast<std::size_t>(k)];
        world_[static_cast<std::size_t>(n.joint)] =
            compose(world_[static_cast<std::size_t>(n.top)], jointChild_[static_cast<std::size_t>(k)]);
      },
      [&](int i) {
        const auto idx = static_cast<std::size_t>(i);
        const Pose& w = world_[idx];
        PlanarPose& pose = ws.planar.pose[idx];
        pose.cos = w.c;
        pose.sin = w.s;
        pose.p = Vec2(w.x, w.y);
      });
}

}  // namespace articula
