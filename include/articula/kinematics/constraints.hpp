// Loop-closure and prescribed-motion constraints at position, velocity and
// acceleration level: g(q, t) = 0, J(q) v = nu(t), J(q) vdot = gamma(q, v, t).
// Rows are ordered as model.loops (each loop's equations), then model.prescribed.
#pragma once

#include <vector>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

/// Where J can be non-zero, from the topology alone: row r (in ConstraintEvaluator's order) in
/// the columns columns[start[r] .. start[r + 1]), ascending. A loop's rows hold the joints on the
/// root paths of its two bodies (the body Jacobians vanish elsewhere), a prescribed motion's row
/// its own coordinate.
struct JacobianPattern {
  std::vector<int> start, columns;
};
JacobianPattern jacobianPattern(const Model& model);

class ConstraintEvaluator {
 public:
  explicit ConstraintEvaluator(const Model& model);

  int size() const { return static_cast<int>(g.size()); }

  /// g(q, t); requires updatePositions for q in ws.
  void positions(const Workspace& ws, double t, const Eigen::VectorXd& q);
  /// J(q) (size x nv) and nu(t); requires updatePositions.
  void jacobian(const Workspace& ws, double t);
  /// gamma such that J vdot = gamma holds for the true accelerations:
  /// gamma = -(dJ/dt) v + d2f/dt2. Requires updateVelocities for (q, v).
  void accelerationBias(Workspace& ws, double t);

  Eigen::VectorXd g;      ///< position residual
  Eigen::MatrixXd J;      ///< Jacobian
  Eigen::VectorXd nu;     ///< velocity target (non-zero for prescribed motion)
  Eigen::VectorXd gamma;  ///< acceleration right-hand side

 private:
  /// Adds sign times each path coordinate's velocity of the world point p (to P_) and angular
  /// velocity (to W_), for the joints on the path from the root to `body` (from S_).
  void addPathColumns(int body, const Vec3& p, double sign);

  const Model& model_;
  WorldMotionColumns S_;     // the joints' motion subspaces in world coordinates
  Eigen::Matrix3Xd P_, W_;  // relative point and angular velocity per unit coordinate rate (world)
  Eigen::VectorXd zeroV_;
  JacobianPattern pattern_;
};

}  // namespace articula
