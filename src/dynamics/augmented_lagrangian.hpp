// Private to src/dynamics: what the hybrid and global index-3
// augmented-Lagrangian formulations share about their Newton iteration (the
// penalty, when it has converged) and projections.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

#include "articula/dynamics/hybrid.hpp"
#include "articula/integrate/structural.hpp"

namespace articula::augmented_lagrangian {

// The constraint block of the tangent matrix outweighs the inertia about this
// much (see AugmentedLagrangianOptions::penalty).
constexpr double kPenaltyRatio = 1e4;
// Penalty projections shrink the violation about kPenaltyRatio-fold each; a few
// suffice away from singular positions.
constexpr int kMaxProjectionIterations = 20;
// Corrections of the increment below this many ulps of the positions are
// round-off.
constexpr double kRoundoffUlps = 16.0;
// A correction that no longer halves within this factor of that floor is the
// noise of a badly conditioned tangent (many loops near a singular position).
constexpr double kStagnationFactor = 1e3;
// A correction larger than this fraction of the one before converges linearly: the iteration of
// the multipliers in a direction the constraint Jacobian nearly loses (a singular position).
constexpr double kSlowContraction = 0.5;
// Each such iteration raises the step's penalty this much, up to kMaxPenaltyRaise times alpha: a
// penalty ratio of 1e8, where alpha times the rounding of the constraint functions (1e-16
// relative) still stays far below the constraint forces.
constexpr double kPenaltyRaiseFactor = 10.0;
constexpr double kMaxPenaltyRaise = 1e4;
// Only once the positions are this close to the constraints (times the constraint tolerance):
// before that a slow iteration is Newton's own on a strongly nonlinear step (large steps), and a
// stiffer tangent makes it diverge instead (the four-bar at dt = 0.1 s did).
constexpr double kPenaltyRaiseBelow = 100.0;

/// The Newmark difference equations of one step in its increment dz, written in the
/// acceleration-like variable a (seed 001 eq. (39)-(42)): v_{n+1} = gamma/(beta h) dz + vHat and
/// a_{n+1} = 1/(beta h^2) dz + aHat; and the predictor dz = h v_n + h^2/2 a_n (a stays a_n).
inline void newmarkStep(const StructuralParameters& p, double h, Eigen::Ref<const Eigen::VectorXd> vn,
                        const Eigen::VectorXd& an, Eigen::VectorXd& vHat, Eigen::VectorXd& aHat, Eigen::VectorXd& dz) {
  const double g = p.gamma, b = p.beta;
  vHat = -(g / b - 1.0) * vn - h * (g / (2.0 * b) - 1.0) * an;
  aHat = -(1.0 / (b * h)) * vn - (1.0 / (2.0 * b) - 1.0) * an;
  dz = h * vn + (0.5 * h * h) * an;
}

inline double infNorm(Eigen::Ref<const Eigen::VectorXd> x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

/// alpha: the option, or automatic (1e4 max diag M / (beta h^2)).
inline double penalty(const AugmentedLagrangianOptions &options, double massScale, double beta, double h) {
  return options.penalty > 0.0 ? options.penalty : kPenaltyRatio * massScale / (beta * h * h);
}

/// The convergence test of one step's Newton iteration. The increment dz
/// determines the accelerations (a = dz / (beta h^2) + ...), so the iteration
/// must converge in them, or their errors, carried from step to step, would
/// grow as the step shrinks; below that, positions limit: the constraints are
/// evaluated at q_n (+) dz, rounded to a few ulps of q.
class NewtonConvergence {
 public:
  NewtonConvergence(const AugmentedLagrangianOptions &options, double beta, double h, double positionSize)
      : options_(options),
        betaH2_(beta * h * h),
        roundoffFloor_(kRoundoffUlps * std::numeric_limits<double>::epsilon() * (1.0 + positionSize)) {}

  /// Records the size of the correction just applied to the increment.
  void corrected(double incrementCorrection) {
    previous_ = increment_;
    increment_ = incrementCorrection;
  }
  /// Whether the last correction shrank by less than kSlowContraction.
  bool slow() const { return increment_ > kSlowContraction * previous_; }
  /// Size of the last correction of the acceleration-like variable.
  double accelerationCorrection() const { return increment_ / betaH2_; }
  /// Whether the iterate reached after the last correction is converged, given
  /// its accelerations' size and constraint error.
  bool converged(double accelerationSize, double constraintError) const {
    const bool stagnant = increment_ <= kStagnationFactor * roundoffFloor_ && slow();
    return (accelerationCorrection() <= options_.newtonTolerance * (1.0 + accelerationSize) ||
            increment_ <= roundoffFloor_ || stagnant) &&
           constraintError <= options_.constraintTolerance;
  }

 private:
  const AugmentedLagrangianOptions &options_;
  double betaH2_, roundoffFloor_;
  double increment_ = INFINITY, previous_ = INFINITY;
};

/// The penalty of one step. Each Newton iteration updates the multipliers by alpha Phi
/// (seed 001 eq. (2)), which removes the constraint error in a direction where the Jacobian has
/// singular value s (relative to the inertia) at a rate of about 1 / (1 + kPenaltyRatio s^2) per
/// iteration. Near a singular position s is small and that rate nears 1 (0.99 at s = 1e-3: IFToMM
/// A02's flat positions needed thousands of iterations), so after an iteration whose correction
/// did not shrink by kSlowContraction, with the constraint error already within
/// kPenaltyRaiseBelow times its tolerance, the penalty is raised tenfold for the rest of the step
/// (the tangent, seed 001 eq. (26), is factorised anew each iteration anyway). The total force
/// alpha Phi + lambda stays consistent: lambda is updated with the penalty of the solve that
/// produced Phi.
class StepPenalty {
 public:
  StepPenalty(double alpha, const AugmentedLagrangianOptions &options) : alpha_(alpha), options_(options) {}
  double value() const { return alpha_ * raise_; }
  /// After the convergence test of an iteration, before its residual is formed.
  void update(const NewtonConvergence &convergence, double constraintError) {
    if (convergence.slow() && constraintError <= kPenaltyRaiseBelow * options_.constraintTolerance)
      raise_ = std::min(raise_ * kPenaltyRaiseFactor, kMaxPenaltyRaise);
  }

 private:
  double alpha_, raise_ = 1.0;
  const AugmentedLagrangianOptions &options_;
};

}  // namespace articula::augmented_lagrangian
