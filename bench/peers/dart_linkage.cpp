// The linkages in DART 6.12: one Skeleton (one tree per ground-attached body) of
// RevoluteJoint/BodyNode pairs, each loop a constraint::BallJointConstraint, stepped by
// simulation::World::step (semi-implicit Euler, the loop solved as a velocity-level LCP with
// DART's error reduction), all settings DART's defaults.
#include <dart/constraint/BallJointConstraint.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/simulation/World.hpp>

#include <sstream>

#include "linkage.hpp"

namespace peers {

namespace {
using namespace dart::dynamics;

Eigen::Vector3d vec(const Vec3d& v) { return {v[0], v[1], v[2]}; }

class DartLinkage final : public LinkageRun {
 public:
  DartLinkage(const Linkage& l, double dt) : linkage_(l), dt_(dt), world_(dart::simulation::World::create()) {
    skel_ = Skeleton::create(l.name);
    for (const LinkageBody& b : l.bodies) {
      RevoluteJoint::Properties jp;
      jp.mName = b.name;
      jp.mAxis = Eigen::Vector3d::UnitZ();
      jp.mT_ParentBodyToJoint = Eigen::Isometry3d::Identity();
      jp.mT_ParentBodyToJoint.translation() = vec(b.joint);
      jp.mT_ChildBodyToJoint = Eigen::Isometry3d::Identity();
      BodyNode* parent = b.parent < 0 ? nullptr : bodies_[static_cast<std::size_t>(b.parent)];
      BodyNode* body =
          skel_->createJointAndBodyNodePair<RevoluteJoint>(parent, jp, BodyNode::AspectProperties(b.name)).second;
      body->setMass(b.mass);
      body->setLocalCOM(vec(b.com));
      body->setMomentOfInertia(b.inertia[0], b.inertia[1], b.inertia[2], 0, 0, 0);  // about the COM
      bodies_.push_back(body);
    }
    world_->setGravity(vec(l.gravity));
    world_->setTimeStep(dt);
    world_->addSkeleton(skel_);
    reset();
    // The constraint keeps each end in its body's frame, from the world position given at
    // construction: the end on body A at the assembled configuration.
    for (const LinkageLoop& c : l.loops) {
      BodyNode* a = bodies_[static_cast<std::size_t>(c.bodyA)];
      BodyNode* b = bodies_[static_cast<std::size_t>(c.bodyB)];
      ends_.push_back({a, b, vec(c.pointA), vec(c.pointB)});
      world_->getConstraintSolver()->addConstraint(
          std::make_shared<dart::constraint::BallJointConstraint>(a, b, a->getWorldTransform() * vec(c.pointA)));
    }
  }
  std::string engine() const override { return "dart"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "World::step dt=" << dt_ << " (semi-implicit Euler), BallJointConstraint, default ERP "
      << dart::constraint::DynamicJointConstraint::getErrorReductionParameter() << ", CFM "
      << dart::constraint::DynamicJointConstraint::getConstraintForceMixing();
    return s.str();
  }
  Initial initial() override {
    reset();
    Initial init;
    // No constrained accelerations: DART solves loops for impulses inside World::step only.
    for (BodyNode* b : bodies_) {
      init.q.push_back(b->getParentJoint()->getPosition(0));
      init.v.push_back(b->getParentJoint()->getVelocity(0));
    }
    init.closure = closure();
    init.energy = energy();
    return init;
  }

 protected:
  void reset() override {
    world_->reset();  // time and frame count
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      bodies_[i]->getParentJoint()->setPosition(0, linkage_.bodies[i].q0);
      bodies_[i]->getParentJoint()->setVelocity(0, linkage_.bodies[i].v0);
    }
    steps_ = 0;
  }
  void advanceTo(double t) override {
    while (world_->getTime() < t - 0.5 * dt_) {
      world_->step();
      ++steps_;
    }
  }
  long steps() const override { return steps_; }
  std::vector<double> angles() override {
    std::vector<double> q;
    for (BodyNode* b : bodies_) q.push_back(b->getParentJoint()->getPosition(0));
    return q;
  }
  double closure() override {
    double worst = 0;
    for (const Ends& e : ends_)
      worst = std::max(worst, (e.a->getWorldTransform() * e.pa - e.b->getWorldTransform() * e.pb).norm());
    return worst;
  }
  double energy() override {
    // Potential from the COM, not computePotentialEnergy() (see dart_chain.cpp).
    return skel_->computeKineticEnergy() - skel_->getMass() * skel_->getGravity().dot(skel_->getCOM());
  }

 private:
  struct Ends {
    BodyNode *a, *b;
    Eigen::Vector3d pa, pb;
  };
  Linkage linkage_;
  double dt_;
  dart::simulation::WorldPtr world_;
  SkeletonPtr skel_;
  std::vector<BodyNode*> bodies_;
  std::vector<Ends> ends_;
  long steps_ = 0;
};
}  // namespace

LinkageRuns makeDartLinkages(const Linkage& linkage) {
  LinkageRuns runs;
  runs.push_back(std::make_unique<DartLinkage>(linkage, 1e-3));
  return runs;
}

}  // namespace peers
