// The chain in DART 6.12: a Skeleton of RevoluteJoint/BodyNode pairs.
// dart/dart.hpp pulls in IkFast, whose header Debian does not ship: include only what is used.
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>

#include "peer.hpp"

namespace peers {

namespace {
using namespace dart::dynamics;

class DartChain final : public PeerChain {
 public:
  DartChain(int n, bool spatial) : skel_(Skeleton::create("chain")), q_(n), v_(n) {
    BodyNode* parent = nullptr;  // nullptr: the first joint attaches to the world
    for (int i = 0; i < n; ++i) {
      RevoluteJoint::Properties jp;
      jp.mName = "joint" + std::to_string(i + 1);
      // The axis is expressed in the joint frame; both joint frames (parent-to-joint and
      // child-to-joint) are unrotated, so this is the axis in the parent and child frames.
      jp.mAxis = Eigen::Vector3d::Unit(axisIndex(i, spatial));
      jp.mT_ParentBodyToJoint = Eigen::Isometry3d::Identity();
      if (i > 0) jp.mT_ParentBodyToJoint.translation() = Eigen::Vector3d(Link::length, 0, 0);
      jp.mT_ChildBodyToJoint = Eigen::Isometry3d::Identity();
      BodyNode* body = skel_->createJointAndBodyNodePair<RevoluteJoint>(
                                parent, jp, BodyNode::AspectProperties("link" + std::to_string(i + 1)))
                           .second;
      body->setMass(Link::mass);
      body->setLocalCOM(Eigen::Vector3d(0.25, 0, 0));
      body->setMomentOfInertia(Link::ixx, Link::iyy, Link::izz, 0, 0, 0);  // DART: about the COM
      parent = body;
    }
    skel_->setGravity(Eigen::Vector3d(0, -9.81, 0));
  }
  std::string engine() const override { return "dart"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    q_ = Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
    v_ = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    // setPositions/setVelocities mark DART's cached kinematics and articulated inertias
    // dirty, so computeForwardDynamics recomputes them (DART's O(N) articulated-body method).
    skel_->setPositions(q_);
    skel_->setVelocities(v_);
    skel_->computeForwardDynamics();
    // Per dof rather than getAccelerations(): an Eigen vector allocated inside libdart and
    // freed here is an allocator mismatch under -fsanitize=address (Eigen then switches from
    // malloc to its own aligned allocator in our code only).
    qddot.resize(static_cast<std::size_t>(q_.size()));
    for (std::size_t i = 0; i < qddot.size(); ++i) qddot[i] = skel_->getAcceleration(i);
  }
  std::string timedCalls() const override { return "Skeleton::setPositions/setVelocities + computeForwardDynamics"; }
  double totalEnergy() override {
    skel_->setPositions(q_);
    skel_->setVelocities(v_);
    // Not computePotentialEnergy(): DART 6.12 takes each body's mass at its frame origin
    // (BodyNode::computePotentialEnergy uses getWorldTransform().translation()), not at the COM.
    return skel_->computeKineticEnergy() - skel_->getMass() * skel_->getGravity().dot(skel_->getCOM());
  }

 private:
  SkeletonPtr skel_;
  Eigen::VectorXd q_, v_;
};
}  // namespace

std::unique_ptr<PeerChain> makeDart(int n, bool spatial) { return std::make_unique<DartChain>(n, spatial); }

}  // namespace peers
