// The closed-loop reference formulation: joint coordinates of the spanning tree,
// loop-closure and prescribed-motion constraints with Lagrange multipliers
// (index-1 form):  H vdot + C = tau + J^T lambda,  J vdot = gamma.
// Dense and deliberately simple: it is the oracle the fast formulations are checked against.
//
// Every constrained solve goes through the mass-weighted minimum-norm solution of
// B y = r with B = J L^-T (H = L L^T), computed with a rank-revealing complete
// orthogonal decomposition. This tolerates redundant constraint equations (a planar
// loop closed by a spatial revolute constraint, say): they get zero multipliers.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "articula/dynamics/formulation.hpp"
#include "articula/kinematics/constraints.hpp"

namespace articula {

class ConstrainedSolver {
 public:
  explicit ConstrainedSolver(const Model& model);

  /// Factorises H(q) and the weighted Jacobian at (t, q); positions and g are updated too.
  void factorize(double t, const Eigen::VectorXd& q);
  /// x <- H^-1 x (after factorize).
  void solveMass(Eigen::VectorXd& x) const;
  /// Mass-weighted minimum-norm dv with J dv = r (after factorize).
  void weightedSolve(const Eigen::VectorXd& r, Eigen::VectorXd& dv);
  /// Least-norm multipliers with J^T lambda = f, for f in the range of J^T (after factorize):
  /// lambda = (B^T)^+ L^-1 f. Redundant constraint rows get zero multipliers.
  void multipliers(const Eigen::VectorXd& f, Eigen::VectorXd& lambda);
  /// Numerical rank of J at the last factorisation.
  int rank() const { return cod_.rank(); }

  const Model& model;
  Workspace ws;
  ConstraintEvaluator constraints;
  Eigen::MatrixXd H;  ///< joint-space inertia at the last factorize() (sized on first use)

 private:
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::MatrixXd B_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  Eigen::VectorXd y_;
};

class ReferenceFormulation final : public Formulation {
 public:
  ReferenceFormulation(const Model& model, const FormulationOptions& options);
  std::string_view name() const override { return "reference"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;

 private:
  FormulationOptions options_;
  ConstrainedSolver solver_;
  Eigen::VectorXd C_, rhs_, dv_;
};

/// Projection onto the constraint manifold, used after integration steps and for
/// the initial assembly.
class ConstraintProjector {
 public:
  explicit ConstraintProjector(const Model& model);

  /// Newton iterations with mass-weighted minimum-norm corrections until |g|_inf <= tol.
  /// Returns the final |g|_inf (the caller decides whether it is acceptable).
  double projectPositions(double t, Eigen::VectorXd& q, double tol = 1e-12, int maxIterations = 20);
  /// Mass-orthogonal projection of v onto J v = nu. Returns |J v - nu|_inf after projection.
  double projectVelocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  /// Current position and velocity constraint violations (infinity norms).
  double positionError(double t, const Eigen::VectorXd& q);
  double velocityError(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  int rank() const { return solver_.rank(); }

 private:
  ConstrainedSolver solver_;
  Eigen::VectorXd r_, dv_;
};

struct AssemblyResult {
  double positionError = 0.0;
  double velocityError = 0.0;
  int iterations = 0;
  int constraintRank = 0;
};

/// Initial assembly: brings q onto g(q, t) = 0 by Newton-Raphson with minimum-norm
/// steps that leave the coordinates of joints locked in assembly unchanged, then
/// makes v consistent (J v = nu) by a mass-orthogonal projection.
/// Throws ModelError when the constraints cannot be satisfied from the given guess.
AssemblyResult assemble(const Model& model, double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol = 1e-12);

}  // namespace articula
