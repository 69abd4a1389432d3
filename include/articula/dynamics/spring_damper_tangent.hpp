// Analytic stiffness and damping matrices of the model's springs and dampers in joint
// coordinates (seed 001 eq. (28)-(34)): K = -dQ/dq and C = -dQ/dv restricted to the linear
// spring-dampers, with the second derivatives of the spring length neglected as in the seed,
// and the joint limits and joint friction (diagonal terms of their active state), and the tyres
// (radial spring-damper and slip forces linearised at zero slip).
// Other forces (loads, gravity, velocity products) contribute nothing: the tangent matrix of
// the structural integrators is approximate by design.
#pragma once

#include "articula/kinematics/workspace.hpp"

namespace articula {

class SpringDamperTangent {
 public:
  explicit SpringDamperTangent(const Model& model);

  /// True when the model has springs, dampers, limits or friction (K and C are zero otherwise).
  bool active() const { return active_; }
  /// K and C (nv x nv, overwritten) at the state (q, v). Requires updatePositions for q in ws
  /// (updateVelocities when the model has tyres).
  /// Never allocates.
  void evaluate(const Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::Ref<Eigen::MatrixXd> K,
                Eigen::Ref<Eigen::MatrixXd> C);

 private:
  const Model& model_;
  bool active_;
  Eigen::MatrixXd PA_, PB_;  // 3 x nv point Jacobians of the two ends of a point spring
  Eigen::RowVectorXd sz_;    // gradient of the spring length, seed 001 eq. (29)
};

}  // namespace articula
