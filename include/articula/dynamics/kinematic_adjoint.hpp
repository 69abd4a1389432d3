// The kinematic quantities a cost term reads (points, body rotations, velocities) and the
// gradients of their weighted values in a formulation's own coordinates, at the state that the
// formulation's adjoint product was last prepared for. The cost terms of an optimal control
// problem (optimize/cost_evaluator) are written once against this interface and differentiated
// in joint coordinates (ForwardDynamicsAdjoint) or in absolute coordinates
// (AbsoluteHamiltonianSystem) alike.
#pragma once

#include <Eigen/Core>

#include "articula/spatial/spatial.hpp"

namespace articula {

class KinematicAdjoint {
 public:
  virtual ~KinematicAdjoint() = default;
  /// The world position of point p (body coordinates) of `body`, and qbar += d(f . r)/dq for f
  /// fixed in world axes.
  virtual Vec3 pointPosition(int body, const Vec3& p) const = 0;
  virtual void addPointForce(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar) const = 0;
  /// The world velocity of point p of `body`, and the gradient of f . v_P (f fixed in world axes)
  /// in the position coordinates (qbar) and the velocity coordinates (vbar).
  virtual Vec3 pointVelocity(int body, const Vec3& p) const = 0;
  virtual void addPointVelocityGradient(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar,
                                        Eigen::Ref<Eigen::VectorXd> vbar) const = 0;
  /// The body's rotation (body to world) and angular velocity (world axes); the gradient of
  /// g . omega (g fixed in world axes), and the gradient in q of g . (R a) for a body-fixed a.
  virtual Mat3 bodyRotation(int body) const = 0;
  virtual Vec3 angularVelocity(int body) const = 0;
  virtual void addAngularVelocityGradient(int body, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar,
                                          Eigen::Ref<Eigen::VectorXd> vbar) const = 0;
  virtual void addBodyVectorGradient(int body, const Vec3& a, const Vec3& g,
                                     Eigen::Ref<Eigen::VectorXd> qbar) const = 0;
};

}  // namespace articula
