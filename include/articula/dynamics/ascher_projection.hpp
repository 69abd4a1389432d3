// Constraint stabilisation of the distributed formulation (seed 003 Step 7, after Ascher, Chin,
// Petzold and Reich 1995): after each integration step the state is moved back towards the
// constraint manifold in generalised coordinates by the map
//     z(q, v) = G^T (G G^T)^-1 [g(q); G v - nu],   (q, v) <- (q (-) z_q, v - z_v),
// G = dg/dq at the incoming q, applied twice. G^T (G G^T)^-1 is the minimum-norm solution of
// G x = r; it is computed by a rank-revealing complete orthogonal decomposition of G with the
// reference formulation's relative threshold (1e-10), so that redundant rows (a planar loop closed
// by a spatial revolute joint) are dropped. Positions move along the velocity-space increment
// (quaternion joints stay unit: kinematics/integrateConfiguration).
#pragma once

#include <Eigen/QR>

#include "articula/kinematics/constraints.hpp"

namespace articula {

class AscherProjection {
 public:
  explicit AscherProjection(const Model& model);

  /// One application of z at (t, q, v).
  void apply(double t, Eigen::VectorXd& q, Eigen::VectorXd& v);
  /// The seed's double step, then further applications while |g|_inf > tol (at most 8; they
  /// are counted in extraApplications()). Throws StepRejected when |g|_inf stays above tol.
  void project(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol);
  /// |g(q, t)|_inf.
  double positionError(double t, const Eigen::VectorXd& q);
  /// Applications beyond the double step, summed over all projections so far.
  long extraApplications() const { return extra_; }

 private:
  const Model& model_;
  Workspace ws_;
  ConstraintEvaluator constraints_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  Eigen::VectorXd r_, dq_, dv_;
  long extra_ = 0;
};

}  // namespace articula
