// A distance constraint for DART 6.12, which has none: two points, one on each of two bodies of
// one Skeleton, held a given length apart (the car's tie rods). Built as DART builds its
// BallJointConstraint (dart/constraint/BallJointConstraint.cpp): one velocity-level row of the
// constraint solver's LCP, unbounded, whose right-hand side drives the rate of the length error
// to -ERP/dt times the error, with the global ERP and CFM of DART's dynamic joint constraints. The
// car's alternative in DART, a rod body on a universal joint, would add the rod's inertia.
#pragma once

#include <dart/constraint/DynamicJointConstraint.hpp>
#include <dart/dynamics/BodyNode.hpp>

namespace peers {

class DartRodConstraint final : public dart::constraint::DynamicJointConstraint {
 public:
  /// pointA and pointB in the frames of bodyA and bodyB (both of one Skeleton).
  DartRodConstraint(dart::dynamics::BodyNode* bodyA, const Eigen::Vector3d& pointA, dart::dynamics::BodyNode* bodyB,
                    const Eigen::Vector3d& pointB, double length);

 protected:
  void update() override;
  void getInformation(dart::constraint::ConstraintInfo* info) override;
  void applyUnitImpulse(std::size_t index) override;
  void getVelocityChange(double* vel, bool withCfm) override;
  void excite() override;
  void unexcite() override;
  void applyImpulse(double* lambda) override;
  bool isActive() const override;
  dart::dynamics::SkeletonPtr getRootSkeleton() const override;

 private:
  Eigen::Vector3d pointA_, pointB_;
  double length_;
  /// The row for each body's spatial velocity (angular, linear; body coordinates): the velocity
  /// of its point along the unit vector from A's point to B's.
  Eigen::Vector6d rowA_ = Eigen::Vector6d::Zero(), rowB_ = Eigen::Vector6d::Zero();
  double error_ = 0;      ///< current length - length
  double oldImpulse_ = 0;  ///< the last step's impulse: the LCP's warm start
};

}  // namespace peers
