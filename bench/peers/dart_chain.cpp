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
  DartChain(int n, bool spatial) : skel_(Skeleton::create("chain")) {
    BodyNode* parent = nullptr;
    for (int i = 0; i < n; ++i) {
      RevoluteJoint::Properties jp;
      jp.mName = "joint" + std::to_string(i + 1);
      jp.mAxis = Eigen::Vector3d::Unit(axisIndex(i, spatial));
      jp.mT_ParentBodyToJoint = Eigen::Isometry3d::Identity();
      if (i > 0) jp.mT_ParentBodyToJoint.translation() = Eigen::Vector3d(Link::length, 0, 0);
      auto pair = skel_->createJointAndBodyNodePair<RevoluteJoint>(
          parent, jp, BodyNode::AspectProperties("link" + std::to_string(i + 1)));
      BodyNode* body = pair.second;
      body->setMass(Link::mass);
      body->setLocalCOM(Eigen::Vector3d(0.25, 0, 0));
      body->setMomentOfInertia(Link::ixx, Link::iyy, Link::izz, 0, 0, 0);  // about the COM
      parent = body;
    }
    skel_->setGravity(Eigen::Vector3d(0, -9.81, 0));
    q_.resize(n);
    v_.resize(n);
  }
  std::string engine() const override { return "dart"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    for (std::size_t i = 0; i < q.size(); ++i) {
      q_[static_cast<Eigen::Index>(i)] = q[i];
      v_[static_cast<Eigen::Index>(i)] = v[i];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    skel_->setPositions(q_);
    skel_->setVelocities(v_);
    skel_->computeForwardDynamics();
    const Eigen::VectorXd a = skel_->getAccelerations();
    qddot.assign(a.data(), a.data() + a.size());
  }
  std::string timedCalls() const override { return "Skeleton::setPositions/setVelocities + computeForwardDynamics"; }

 private:
  SkeletonPtr skel_;
  Eigen::VectorXd q_, v_;
};
}  // namespace

std::unique_ptr<PeerChain> makeDart(int n, bool spatial) { return std::make_unique<DartChain>(n, spatial); }

}  // namespace peers
