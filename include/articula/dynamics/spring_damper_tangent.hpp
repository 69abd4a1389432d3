// Analytic stiffness and damping matrices of the model's springs and dampers in joint
// coordinates (seed 001 eq. (28)-(34)): K = -dQ/dq and C = -dQ/dv restricted to the linear
// spring-dampers, with the second derivatives of the spring length neglected as in the seed,
// and the joint limits and joint friction (diagonal terms of their active state), and the tyres
// (radial spring-damper and slip forces linearised at zero slip).
// Other forces (loads, gravity, velocity products) contribute nothing: the tangent matrix of
// the structural integrators is approximate by design.
#pragma once

#include <vector>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

class SpringDamperTangent {
 public:
  explicit SpringDamperTangent(const Model& model);

  /// True when the model has springs, dampers, limits or friction (K and C are zero otherwise).
  bool active() const { return active_; }
  /// The upper triangles of K and C (nv x nv, overwritten; the strictly lower triangles are left
  /// zero: both are symmetric, and the tangent matrix reads its upper triangle only) at the
  /// state (q, v). Requires updatePositions for q in ws (updateVelocities when the model has tyres).
  /// Never allocates.
  void evaluate(const Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::Ref<Eigen::MatrixXd> K,
                Eigen::Ref<Eigen::MatrixXd> C);

 private:
  const Model& model_;
  bool active_;
  void addSpringDamper(Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::MatrixXd> C, double k, double c,
                       const int* cols, int n) const;
  void projectPointColumns(const Mat3& axes, const Vec3& p, const int* cols, int n);

  WorldMotionColumns S_;  // the joints' motion subspaces in world coordinates
  // The coordinates each point spring (springStart_) and tyre (tyreStart_) moves with, ascending,
  // and for a spring whether each lies on the root path of its end A, of its end B (or both).
  std::vector<int> columns_, springStart_, tyreStart_;
  std::vector<bool> onA_, onB_;
  // A point's Jacobian along up to three directions (rows) on those coordinates, e.g. eq. (29).
  Eigen::Matrix<double, 3, Eigen::Dynamic> s_;
};

}  // namespace articula
