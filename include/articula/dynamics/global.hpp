// The global formulation of seed 001 section 2 (its ref. 3): natural coordinates
// (dynamics/natural_coordinates.hpp: a point and three unit vectors per body) with the index-3
// augmented Lagrangian
//   M xdd + Phi_x^T alpha Phi + Phi_x^T lambda* = Q,   lambda*_{i+1} = lambda*_i + alpha Phi_{i+1}
// (eq. (1)-(2) in natural coordinates x), every joint of the tree and every loop closure a
// constraint, stepped by a structural integrator in the Arnold-Bruls form exactly as the hybrid
// formulation is (integrate/structural.hpp): Newton-Raphson on the positions with the tangent
// matrix M + mix [gamma h C + beta h^2 (K + Phi_x^T alpha Phi_x)] (eq. (26); K and C of the
// springs and dampers as in seed 001 eq. (31), (34), the second derivatives of the spring
// coordinates neglected), then the mass-damping-stiffness-orthogonal projections of velocities and
// accelerations (eq. (35)-(36)) with the same factorisation.
//
// M is constant and the tangent matrix sparse: its pattern (M's blocks, the pairs of coordinates
// that a constraint row or a spring couples) is built once per model, ordered and analysed once
// by CHOLMOD (linalg/sparse_cholesky.hpp); each Newton iteration refills the values and
// factorises numerically. Memory: step() allocates nothing itself; CHOLMOD may, inside
// cholmod_factorize and cholmod_solve2 (with a simplicial factor, as for the four-bar, counting
// malloc showed none at all over 990 steps). The allocation tests do not cover this formulation.
//
// The integrator speaks joint coordinates x = [q; v]: the formulation keeps its natural state
// (positions, velocities, accelerations, the acceleration-like variable, the multipliers) between
// steps and returns xNew and fNew = [qdot; vdot] mapped to joint coordinates exactly (relative
// poses, twists and accelerations of the tree joints). A step given a state other than the one it
// returned last (a different x) starts from that state mapped to natural coordinates, with the
// acceleration-like variable reset to the given accelerations.
#pragma once

#include "articula/dynamics/hybrid.hpp"
#include "articula/dynamics/natural_coordinates.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/linalg/sparse_cholesky.hpp"

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
  /// Stored entries of the tangent matrix's upper triangle, and of its Cholesky factor.
  int tangentNonZeros() const { return cholesky_.nonZeros(); }
  long factorNonZeros() const { return cholesky_.factorNonZeros(); }

 private:
  void buildTangentPattern();
  /// Q, Phi, Phi_x, nu and the spring gradients at (t, xq_, xv_).
  void evaluate(double t);
  /// Writes M + mix [gamma h C + beta h^2 (K + Phi_x^T alpha Phi_x)] into the factor's values.
  void assembleTangent(double constraintWeight, double stiffnessWeight, double dampingWeight);
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
  SparseRows J_, springs_;
  SparseCholesky cholesky_;
  // Tangent pattern: M's entries (constant values) and, for every row of J_ and springs_, the
  // value index of each product pair of its entries (upper triangle).
  Eigen::VectorXd massValues_;
  std::vector<int> constraintPairStart_, constraintPairIndex_, springPairStart_, springPairIndex_;
  // Memory between steps (saved in restart files).
  Eigen::VectorXd X_, Xd_, Xdd_, accelerationLike_, lambda_, jointState_;
  // Buffers.
  Eigen::VectorXd lambdaSaved_, dz_, xq_, xv_, xa_, xqdd_, vHat_, aHat_, r_, e_, Q_, phi_, nu_, gamma_;
  Eigen::VectorXd q_, v_, a_, qNew_, vNew_, vdotNew_;
  double massScale_ = 1.0;
};

}  // namespace articula
