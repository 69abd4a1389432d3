#include "dart_rod_constraint.hpp"

#include <dart/dynamics/Skeleton.hpp>

#include <limits>
#include <stdexcept>

namespace peers {

DartRodConstraint::DartRodConstraint(dart::dynamics::BodyNode* bodyA, const Eigen::Vector3d& pointA,
                                     dart::dynamics::BodyNode* bodyB, const Eigen::Vector3d& pointB, double length)
    : DynamicJointConstraint(bodyA, bodyB), pointA_(pointA), pointB_(pointB), length_(length) {
  // One Skeleton: applyUnitImpulse() then needs one impulse test (the ball joint's self case).
  if (bodyA->getSkeleton() != bodyB->getSkeleton()) throw std::invalid_argument("DartRodConstraint: two skeletons");
  mDim = 1;
}

void DartRodConstraint::update() {
  const Eigen::Isometry3d &TA = mBodyNode1->getWorldTransform(), &TB = mBodyNode2->getWorldTransform();
  const Eigen::Vector3d d = TB * pointB_ - TA * pointA_;
  const double distance = d.norm();
  const Eigen::Vector3d n = d / distance;
  // n . (velocity of the point) = n . R (v + w x p) = (R^T n) . v + (p x R^T n) . w
  const Eigen::Vector3d nA = TA.linear().transpose() * n, nB = TB.linear().transpose() * n;
  rowA_ << pointA_.cross(nA), nA;
  rowB_ << pointB_.cross(nB), nB;
  error_ = distance - length_;
}

void DartRodConstraint::getInformation(dart::constraint::ConstraintInfo* info) {
  // As BallJointConstraint: the unknown is the impulse along the row, unbounded; b is the change
  // of rowA.VA - rowB.VB (= -d(length)/dt) that leaves it at ERP/dt * error.
  info->lo[0] = -std::numeric_limits<double>::infinity();
  info->hi[0] = std::numeric_limits<double>::infinity();
  info->x[0] = oldImpulse_;
  const double u = rowA_.dot(mBodyNode1->getSpatialVelocity()) - rowB_.dot(mBodyNode2->getSpatialVelocity());
  info->b[0] = -u + mErrorReductionParameter * info->invTimeStep * error_;
}

void DartRodConstraint::applyUnitImpulse(std::size_t /*index*/) {
  dart::dynamics::Skeleton* skeleton = mBodyNode1->getSkeleton().get();
  skeleton->clearConstraintImpulses();
  skeleton->updateBiasImpulse(mBodyNode1, rowA_, mBodyNode2, -rowB_);
  skeleton->updateVelocityChange();
}

void DartRodConstraint::getVelocityChange(double* vel, bool withCfm) {
  vel[0] = 0;
  if (mBodyNode1->getSkeleton()->isImpulseApplied())
    vel[0] = rowA_.dot(mBodyNode1->getBodyVelocityChange()) - rowB_.dot(mBodyNode2->getBodyVelocityChange());
  if (withCfm) vel[0] += vel[0] * mConstraintForceMixing;  // as BallJointConstraint
}

void DartRodConstraint::excite() { mBodyNode1->getSkeleton()->setImpulseApplied(true); }

void DartRodConstraint::unexcite() { mBodyNode1->getSkeleton()->setImpulseApplied(false); }

void DartRodConstraint::applyImpulse(double* lambda) {
  oldImpulse_ = lambda[0];
  mBodyNode1->addConstraintImpulse(rowA_ * lambda[0]);
  mBodyNode2->addConstraintImpulse(-rowB_ * lambda[0]);
}

bool DartRodConstraint::isActive() const { return mBodyNode1->isReactive() || mBodyNode2->isReactive(); }

dart::dynamics::SkeletonPtr DartRodConstraint::getRootSkeleton() const {
  return mBodyNode1->getSkeleton()->mUnionRootSkeleton.lock();
}

}  // namespace peers
