// The hybrid formulation of seed 001 section 3: relative (joint) coordinates with the
// semi-recursive mass matrix and forces, loops closed by the index-3 augmented Lagrangian
//   M zdd + Phi_z^T alpha Phi + Phi_z^T lambda* = Q,   lambda*_{i+1} = lambda*_i + alpha Phi_{i+1}
// (eq. (1)-(2)), solved with a structural integrator by Newton-Raphson on the positions with the
// approximate tangent matrix (eq. (26)), followed by the mass-damping-stiffness-orthogonal
// projections of velocities and accelerations (eq. (35)-(36)) that reuse its factorisation.
//
// Positions are advanced on the configuration space: the unknown of the Newton iteration is the
// increment dz of the step in velocity coordinates, q_{n+1} = q_n (+) dz (the exponential map for
// quaternion joints), so every joint type is handled; for scalar coordinates dz = z_{n+1} - z_n and
// the difference equations are exactly seed 001 eq. (21)-(24) and (39)-(42).
#pragma once

#include <Eigen/LU>
#include <memory>

#include "articula/dynamics/force_derivatives.hpp"
#include "articula/dynamics/joint_space_tangent.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/dynamics/spring_damper_tangent.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/parallel/thread_team.hpp"

namespace articula {

struct AugmentedLagrangianOptions {
  /// Penalty factor alpha. 0 (default): automatic, alpha = 1e4 * max diag M(q0) / (beta h^2)
  /// (the global formulation takes the largest body mass for max diag M:
  /// NaturalCoordinates::penaltyMassScale), so that the constraint block of the tangent matrix
  /// outweighs the inertia by about 1e4 whatever the step: each multiplier update (and each
  /// projection pass) then shrinks the constraint error about 1e4-fold, while alpha times the
  /// round-off of the constraint functions stays far below the constraint forces (a ratio of 1e7
  /// already made the multipliers noisy).
  double penalty = 0.0;
  /// Convergence of the Newton iteration: the correction it makes to the acceleration-like
  /// variable, |delta a|_inf <= newtonTolerance * (1 + |qdd|_inf) (relative, in m/s^2 or rad/s^2).
  double newtonTolerance = 1e-10;
  double constraintTolerance = 1e-10;  ///< |Phi|_inf at convergence (m or rad)
  double projectionTolerance = 1e-11;  ///< |J v - nu|_inf and |J a - gamma|_inf after projection
  int maxIterations = 30;
  /// K and C of the tangent matrix: the analytic spring-damper terms (seed 001 eq. (28)-(34),
  /// symmetric: Cholesky), or finite differences of all forces (seed 004 eq. (52)-(53), general:
  /// LU), in parallel and grouped by topology as `derivatives` says. With the analytic terms and
  /// derivatives.threads >= 2, every residual evaluation computes K and C on a second thread
  /// while the first evaluates the forces, M, Q and the constraints (seed 004 Fig. 3's task
  /// parallelism): the iteration that converges discards them.
  bool finiteDifferenceTangent = false;
  ForceDerivativeOptions derivatives;
};

class HybridFormulation final : public Index3Problem {
 public:
  HybridFormulation(const Model& model, const AugmentedLagrangianOptions& options = {});

  int velocityCount() const override { return model_.nv; }
  void start(double t0, const Eigen::VectorXd& x0, Eigen::Ref<const Eigen::VectorXd> a0,
             const StructuralParameters& parameters) override;
  NewtonReport step(double t, double h, const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> qdd,
                    Eigen::VectorXd& xNew, Eigen::VectorXd& fNew) override;
  void save(ArchiveWriter& out) const override;
  void restore(ArchiveReader& in) override;

  /// The augmented-Lagrangian multipliers lambda* after the last step (constraint rows).
  const Eigen::VectorXd& multipliers() const { return lambda_; }

 private:
  /// M, Q, Phi and Phi_z at (t, q, v), in ws_ and the members below; with tangentTeam_, K
  /// and C too, on a second thread.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// Forces, M, Q, Phi and Phi_z at (t, q, v) once ws_ holds the kinematics.
  void evaluateResidualTerms(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// Iterated penalty projection of y onto J y = target with the factorised tangent matrix, until
  /// |J y - target|_inf <= projectionTolerance or kMaxProjectionIterations passes.
  void project(Eigen::VectorXd& y, const Eigen::VectorXd& target, double weight);
  /// Evaluates K and C at (t, q_, v_), the state of the last evaluate() (which, with
  /// tangentTeam_, has computed them already), then forms and factorises
  /// the tangent matrix M + dampingWeight C + stiffnessWeight K + constraintWeight Phi_z^T Phi_z
  /// (sparse Cholesky, or dense LU with finite-difference K and C); false when that fails.
  bool factorizeTangent(double t, double constraintWeight, double stiffnessWeight, double dampingWeight);
  void solveTangent(Eigen::VectorXd& x);

  const Model& model_;
  AugmentedLagrangianOptions options_;
  StructuralParameters p_;
  Workspace ws_;
  SemiRecursiveDynamics dynamics_;
  SpringDamperTangent springs_;
  std::unique_ptr<ForceDerivatives> derivatives_;  ///< with finiteDifferenceTangent only
  ConstraintEvaluator constraints_;
  JointSpaceTangent tangent_;                ///< symmetric case (analytic K and C)
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;  ///< finite-difference K and C
  Eigen::MatrixXd M_, K_, C_, T_;
  Eigen::VectorXd Q_, lambda_, lambdaSaved_;
  Eigen::VectorXd accelerationLike_;  ///< a_n of the Arnold-Bruls form (structural.hpp)
  Eigen::VectorXd dz_, q_, v_, a_, qdd_, vHat_, aHat_, r_, e_, luRhs_;
  double massScale_ = 1.0;
  /// Where K and C are computed by every evaluate() beside the residual terms (options' comment):
  /// a team of two, one for each (parallel/thread_team.hpp says why not an OpenMP region); null
  /// otherwise.
  std::unique_ptr<parallel::ThreadTeam> tangentTeam_;
};

}  // namespace articula
