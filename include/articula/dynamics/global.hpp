// The global formulation of seed 001 section 2 (its ref. 3): natural coordinates
// (dynamics/natural_coordinates.hpp: a point and three unit vectors per body) with the index-3
// augmented Lagrangian
//   M xdd + Phi_x^T alpha Phi + Phi_x^T lambda* = Q,   lambda*_{i+1} = lambda*_i + alpha Phi_{i+1}
// (eq. (1)-(2) in natural coordinates x), every joint of the tree and every loop closure a
// constraint, stepped by a structural integrator in the Arnold-Bruls form exactly as the hybrid
// formulation is (integrate/structural.hpp): Newton-Raphson on the positions with the tangent
// matrix M + mix [gamma h C + beta h^2 (K + Phi_x^T alpha Phi_x)] (eq. (26)), then the
// mass-damping-stiffness-orthogonal projections of velocities and accelerations (eq. (35)-(36))
// with the same factorisation. K and C are, as AugmentedLagrangianOptions::finiteDifferenceTangent
// says, either
//  - analytic: the springs and dampers as in seed 001 eq. (31), (34), the second derivatives of the
//    spring coordinates neglected, with the slopes of their tension (bump stops, damping curves,
//    air springs, friction), and the tyres' radial spring-damper and slip forces linearised at
//    zero slip (NaturalCoordinates::TangentRows, the terms SpringDamperTangent gives the hybrid
//    formulation); the tangent matrix is symmetric (positive definite while the slopes are
//    positive) and factorised by CHOLMOD
//    (linalg/sparse_cholesky.hpp), its upper triangle stored; or
//  - finite differences of all applied forces, K = -dQ/dx and C = -dQ/dx-dot (seed 004 eq.
//    (52)-(53); dynamics/natural_force_derivatives.hpp: columns grouped by the force elements'
//    structure, in parallel, the same bits for every thread count); the tangent matrix is then
//    unsymmetric, stored whole (the pattern of M, Phi_x^T Phi_x and K, C) and factorised by KLU
//    (linalg/sparse_lu.hpp).
//
// M is constant and the tangent matrix sparse: its pattern is built once per model, ordered and
// analysed once; each Newton iteration refills the values and factorises numerically (CHOLMOD's
// numeric factorisation; KLU's refactorisation in the pivot order its first factorisation chose).
// Memory: step() allocates nothing itself; CHOLMOD may, inside cholmod_factorize and
// cholmod_solve2 (with a simplicial factor, as for the four-bar, counting malloc showed none at
// all over 990 steps); KLU only when it chooses pivots (the first factorisation of a run, after a
// failure, or when kept pivots have become poor: SparseLu::kRepivotRatio), and the finite
// differences never (the four-bar with a spring-damper: no malloc at all over 950 steps, with 1 or 2
// threads); the allocation tests cover both tangents (they count operator new, not malloc).
//
// The integrator speaks joint coordinates x = [q; v]: the formulation keeps its natural state
// (positions, velocities, accelerations, the acceleration-like variable, the multipliers) between
// steps and returns xNew and fNew = [qdot; vdot] mapped to joint coordinates exactly (relative
// poses, twists and accelerations of the tree joints). A step given a state other than the one it
// returned last (a different x) starts from that state mapped to natural coordinates, with the
// acceleration-like variable reset to the given accelerations. With the finite-difference tangent
// the LU pivot order is part of that memory too (it decides the last bits of every solve): restart
// files keep the values that chose it, so that a resumed run continues bit for bit.
#pragma once

#include <memory>

#include "articula/dynamics/hybrid.hpp"
#include "articula/dynamics/natural_coordinates.hpp"
#include "articula/dynamics/natural_force_derivatives.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/linalg/sparse_cholesky.hpp"
#include "articula/linalg/sparse_lu.hpp"

namespace articula {

class GlobalFormulation final : public Index3Problem {
 public:
  /// Throws articula::Error for what natural coordinates do not support (NaturalCoordinates).
  GlobalFormulation(const Model& model, const AugmentedLagrangianOptions& options = {});

  int velocityCount() const override { return model_.nv; }
  void start(double t0, const Eigen::VectorXd& x0, Eigen::Ref<const Eigen::VectorXd> a0,
             const StructuralParameters& parameters) override;
  NewtonReport step(double t, double h, const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> qdd,
                    Eigen::VectorXd& xNew, Eigen::VectorXd& fNew) override;
  void save(ArchiveWriter& out) const override;
  void restore(ArchiveReader& in) override;

  const NaturalCoordinates& coordinates() const { return natural_; }
  /// Natural positions, velocities and accelerations after the last step (or start()).
  const Eigen::VectorXd& positions() const { return X_; }
  const Eigen::VectorXd& velocities() const { return Xd_; }
  const Eigen::VectorXd& accelerations() const { return Xdd_; }
  /// The augmented-Lagrangian multipliers lambda* after the last step (constraint rows).
  const Eigen::VectorXd& multipliers() const { return lambda_; }
  /// Stored entries of the tangent matrix (its upper triangle with the analytic tangent, every
  /// entry with the finite-difference one), and of its factors (Cholesky's L; KLU's L and U).
  int tangentNonZeros() const { return derivatives_ ? lu_.nonZeros() : cholesky_.nonZeros(); }
  long factorNonZeros() const { return derivatives_ ? lu_.factorNonZeros() : cholesky_.factorNonZeros(); }

 private:
  void buildTangentPattern();
  /// Q, Phi, Phi_x, nu and the tangent rows at (t, xq_, xv_).
  void evaluate(double t);
  /// Writes M + mix [gamma h C + beta h^2 (K + Phi_x^T alpha Phi_x)] into the factor's values.
  void assembleTangent(double constraintWeight, double stiffnessWeight, double dampingWeight);
  /// Factorises the assembled tangent matrix (Cholesky, or LU with finite-difference K and C);
  /// false when it fails.
  bool factorizeTangent();
  void solveTangent(Eigen::VectorXd& x);
  /// Iterated penalty projection of y onto J y = target with the factorised tangent matrix, until
  /// |J y - target|_inf <= projectionTolerance (then one pass more) or kMaxProjectionIterations passes.
  void project(Eigen::VectorXd& y, const Eigen::VectorXd& target, double weight);
  /// Natural state from the joint state x and accelerations a, unless it is the one of the memory.
  void synchronise(const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> a);

  const Model& model_;
  AugmentedLagrangianOptions options_;
  StructuralParameters p_;
  NaturalCoordinates natural_;
  Workspace ws_;
  SparseRows J_;
  NaturalCoordinates::TangentRows tangentRows_;  ///< K and C of the analytic tangent (no rows otherwise)
  std::unique_ptr<NaturalForceDerivatives> derivatives_;  ///< with finiteDifferenceTangent only
  SparseCholesky cholesky_;                               // the analytic tangent matrix (upper triangle)
  SparseLu lu_;                                           // the finite-difference one (every entry)
  // Tangent pattern: M's entries (constant values); for every row of J_ and tangentRows_, the value
  // index of each product pair of its entries (upper triangle) and, stored whole, of its mirror
  // image below the diagonal; the value index of each entry of K and C (finite differences).
  Eigen::VectorXd massValues_;
  std::vector<int> constraintPairStart_, constraintPairIndex_, constraintPairMirror_, tangentPairStart_,
      tangentPairIndex_, derivativeIndex_;
  // Memory between steps (saved in restart files).
  Eigen::VectorXd X_, Xd_, Xdd_, accelerationLike_, lambda_, jointState_;
  // Buffers.
  Eigen::VectorXd lambdaSaved_, dz_, xq_, xv_, xa_, xqdd_, vHat_, aHat_, r_, e_, Q_, phi_, nu_, gamma_;
  Eigen::VectorXd q_, v_, a_, qNew_, vNew_, vdotNew_;
  double massScale_ = 1.0;
};

}  // namespace articula
