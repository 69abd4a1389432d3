// The car of car.hpp in DART 6.12: one Skeleton of BodyNodes on FreeJoint, RevoluteJoint,
// BallJoint and PrismaticJoint at Articula's joint frames, with their mass, COM and central
// inertia. The ball loops are constraint::BallJointConstraint; DART has no distance constraint, so
// the tie rods are DartRodConstraint (dart_rod_constraint.hpp), built as DART builds its ball
// constraint. The steering rack's locked travel is a WeldJoint at that travel (carLockedFrame),
// which holds it exactly. The struts and tyres (carLoads: Articula's tyre element through
// Car::tyre) are external forces set before each World::step, which clears them after it. DART
// integrates by semi-implicit Euler: the forces and the unconstrained accelerations at the step's
// start, then the loops solved for impulses as a velocity-level LCP with DART's error reduction
// (ERP, CFM at DART's defaults), then the positions with the new velocities; so it gives no
// constrained accelerations for the physics check. The initial state is Articula's assembled
// one in DART's joint coordinates (carJointMotion).
#include <dart/constraint/BallJointConstraint.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/dynamics/BallJoint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/PrismaticJoint.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "car.hpp"
#include "dart_rod_constraint.hpp"

namespace peers {

// Named, not anonymous: a unity build puts this file next to dart_linkage.cpp.
namespace dart_car {
using namespace dart::dynamics;

Eigen::Vector3d vec(const Vec3d& v) { return {v[0], v[1], v[2]}; }
Vec3d arr(const Eigen::Vector3d& v) { return {v[0], v[1], v[2]}; }
Eigen::Matrix3d mat(const Mat3d& a) {
  Eigen::Matrix3d m;
  m << a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8];
  return m;
}
Eigen::Isometry3d transform(const CarPose& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = mat(p.rotation);
  T.translation() = vec(p.origin);
  return T;
}

CarPose poseOf(const BodyNode* b) {
  const Eigen::Isometry3d& T = b->getWorldTransform();
  CarPose p;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.rotation[static_cast<std::size_t>(3 * i + j)] = T.linear()(i, j);
  p.origin = arr(T.translation());
  p.omega = arr(b->getAngularVelocity());   // world
  p.velocity = arr(b->getLinearVelocity());  // of the body origin, world
  return p;
}

class DartCar final : public CarRun {
 public:
  /// erp: DART's error reduction parameter for this run's loops, 0 for DART's default.
  DartCar(const Car& car, double dt, double erp) : car_(car), dt_(dt), erp_(erp), world_(dart::simulation::World::create()) {
    skel_ = Skeleton::create("car");
    for (std::size_t i = 0; i < car.bodies.size(); ++i) {
      const CarBody& b = car.bodies[i];
      BodyNode* parent = b.parent < 0 ? nullptr : bodies_[static_cast<std::size_t>(b.parent)];
      const CarLock* lock = carLockOf(car, static_cast<int>(i));
      const CarPose frame = lock ? carLockedFrame(b, lock->position) : CarPose{b.jointRotation, b.jointOrigin, {}, {}};
      BodyNode* body = nullptr;
      if (lock)
        body = add<WeldJoint>(parent, b, frame, {});
      else if (b.joint == CarJoint::Free)
        body = add<FreeJoint>(parent, b, frame, {});
      else if (b.joint == CarJoint::Spherical)
        body = add<BallJoint>(parent, b, frame, {});
      else if (b.joint == CarJoint::Revolute)
        body = add<RevoluteJoint>(parent, b, frame, [&](RevoluteJoint::Properties& p) { p.mAxis = vec(b.axis); });
      else
        body = add<PrismaticJoint>(parent, b, frame, [&](PrismaticJoint::Properties& p) { p.mAxis = vec(b.axis); });
      body->setMass(b.mass);
      body->setLocalCOM(vec(b.com));
      const Mat3d& I = b.inertia;  // about the COM, body axes
      body->setMomentOfInertia(I[0], I[4], I[8], I[1], I[2], I[5]);
      bodies_.push_back(body);
    }
    world_->setGravity(vec(car.gravity));
    world_->setTimeStep(dt);
    world_->addSkeleton(skel_);
    // BallJointConstraint keeps each end in its body's frame from the world point given here: the
    // loop's point on body A at the assembled state.
    reset();
    for (const CarLoop& l : car.loops) {
      BodyNode *a = bodies_[static_cast<std::size_t>(l.bodyA)], *b = bodies_[static_cast<std::size_t>(l.bodyB)];
      if (l.distance)
        world_->getConstraintSolver()->addConstraint(
            std::make_shared<DartRodConstraint>(a, vec(l.pointA), b, vec(l.pointB), l.length));
      else
        world_->getConstraintSolver()->addConstraint(
            std::make_shared<dart::constraint::BallJointConstraint>(a, b, a->getWorldTransform() * vec(l.pointA)));
    }
  }
  std::string engine() const override { return "dart"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "World::step dt=" << dt_ << " (semi-implicit Euler), ";
    if (erp_ > 0)
      s << "ERP " << erp_;
    else
      s << "default ERP " << dart::constraint::DynamicJointConstraint::getErrorReductionParameter();
    s << ", CFM " << dart::constraint::DynamicJointConstraint::getConstraintForceMixing();
    return s.str();
  }
  CarFigures run(double tEnd, double sample) override {
    requireStepDividesSample("dart", dt_, sample);  // DART's steps are fixed
    const Erp erp(erp_);
    long steps = 0;
    CarFigures f = sampleCarRun(car_, tEnd, sample,
                                {[&] { reset(); },
                                 [&](double t) {
                                   while (world_->getTime() < t - 0.5 * dt_) {
                                     carLoads(car_, poses(), loads_);
                                     for (const CarLoad& l : loads_) {
                                       BodyNode* b = bodies_[static_cast<std::size_t>(l.body)];
                                       b->addExtForce(vec(l.force), vec(l.point), false, false);  // world force at a world point
                                       b->addExtTorque(vec(l.moment), false);
                                     }
                                     world_->step();  // clears the external forces
                                     ++steps;
                                   }
                                   if (!skel_->getPositions().allFinite())
                                     throw std::runtime_error("dart: the state diverged by t = " +
                                                              std::to_string(world_->getTime()));
                                 },
                                 [&] { return poses(); }});
    f.steps = steps;
    return f;
  }
  Initial initial() override {
    reset();
    Initial init;
    init.poses = poses();
    for (std::size_t k = 0; k < car_.tyreBodies.size(); ++k)
      init.tyreLoads.push_back(car_.tyre(static_cast<int>(k), poses_[static_cast<std::size_t>(car_.tyreBodies[k])]).fz);
    // Potential from the COM, not computePotentialEnergy() (see dart_chain.cpp).
    init.energy = skel_->computeKineticEnergy() - skel_->getMass() * skel_->getGravity().dot(skel_->getCOM()) +
                  carElasticEnergy(car_, poses_);
    return init;
  }

 private:
  // DART's ERP is one global value (DynamicJointConstraint's): set for the run only, so that the
  // other runs and the linkages keep DART's default.
  struct Erp {
    explicit Erp(double erp) : saved(dart::constraint::DynamicJointConstraint::getErrorReductionParameter()) {
      if (erp > 0) dart::constraint::DynamicJointConstraint::setErrorReductionParameter(erp);
    }
    ~Erp() { dart::constraint::DynamicJointConstraint::setErrorReductionParameter(saved); }
    Erp(const Erp&) = delete;
    Erp& operator=(const Erp&) = delete;
    double saved;
  };

  // A body on a joint of type J whose frame in the parent is `frame` (the body frame at zero
  // joint coordinates); `axis` sets the axis of a revolute or prismatic joint.
  template <class J>
  BodyNode* add(BodyNode* parent, const CarBody& b, const CarPose& frame,
                const std::function<void(typename J::Properties&)>& axis) {
    typename J::Properties p;
    p.mName = b.jointName;
    p.mT_ParentBodyToJoint = transform(frame);
    p.mT_ChildBodyToJoint = Eigen::Isometry3d::Identity();
    if (axis) axis(p);
    return skel_->createJointAndBodyNodePair<J>(parent, p, BodyNode::AspectProperties(b.name)).second;
  }

  // Articula's assembled state in DART's joint coordinates, from the motion relative to the joint
  // frame: a FreeJoint's and a BallJoint's rotation as exponential coordinates (and the FreeJoint's
  // translation), their velocities as the angular (and origin) velocity in body axes; a revolute
  // angle or prismatic travel and its rate.
  void reset() {
    world_->reset();  // time, frame count and the recorded states
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      Joint* j = bodies_[i]->getParentJoint();
      if (j->getNumDofs() == 0) continue;  // the locked rack: welded
      const CarBody& b = car_.bodies[i];
      const CarPose m = carJointMotion(car_, static_cast<int>(i));
      const Eigen::Matrix3d R = mat(m.rotation);
      if (b.joint == CarJoint::Free) {
        j->setPositions(FreeJoint::convertToPositions(transform(m)));
        Eigen::Vector6d v;
        v << R.transpose() * vec(m.omega), R.transpose() * vec(m.velocity);
        j->setVelocities(v);
      } else if (b.joint == CarJoint::Spherical) {
        j->setPositions(BallJoint::convertToPositions(R));
        j->setVelocities(R.transpose() * vec(m.omega));
      } else {
        const std::array<double, 2> c = carJointCoordinate(b, m);
        j->setPosition(0, c[0]);
        j->setVelocity(0, c[1]);
      }
    }
  }

  const std::vector<CarPose>& poses() {
    poses_.clear();
    for (const BodyNode* b : bodies_) poses_.push_back(poseOf(b));
    return poses_;
  }

  const Car& car_;
  double dt_, erp_;
  dart::simulation::WorldPtr world_;
  SkeletonPtr skel_;
  std::vector<BodyNode*> bodies_;  ///< per car body
  std::vector<CarPose> poses_;
  std::vector<CarLoad> loads_;
};

}  // namespace dart_car

CarRuns makeDartCarRuns(const Car& car) {
  CarRuns runs;
  for (double dt : {1e-2, 5e-3, 2e-3, 1e-3, 2.5e-4}) runs.push_back(std::make_unique<dart_car::DartCar>(car, dt, 0));
  for (double dt : {1e-2, 1e-3}) runs.push_back(std::make_unique<dart_car::DartCar>(car, dt, 0.2));
  return runs;
}

}  // namespace peers
