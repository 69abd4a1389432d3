// The tangent matrix of the index-3 augmented Lagrangian in relative (joint) coordinates,
//   T = M + c_C C + c_K K + w Phi_z^T Phi_z          (seed 001 eq. (26)),
// stored and factorised sparse. Its structural pattern is fixed by the topology and built once
// per model: M couples a coordinate with those of its ancestors and descendants (the path
// matrix of seed 001 eq. (9)), a loop-closure row the coordinates on the root paths of its two
// bodies, a point spring-damper those of its two end bodies, a joint spring-damper or a
// prescribed motion only its own coordinate. CHOLMOD orders and analyses that pattern once
// (linalg/sparse_cholesky.hpp); each Newton iteration writes the values and factorises
// numerically. Compared with a dense factorisation this removes the O(n^3) of the
// factorisation and the O(n^2 m) of Phi_z^T Phi_z, which dominated the hybrid formulation on
// mechanisms with many loops. Small systems (at most kDenseOrder coordinates) are stored and
// factorised dense instead: for them CHOLMOD's per-call overhead outweighs the arithmetic (the
// car, 23 coordinates: see docs/benchmarks.md "Car: speed").
#pragma once

#include <vector>

#include "articula/kinematics/constraints.hpp"
#include "articula/linalg/sparse_cholesky.hpp"
#include "articula/model/model.hpp"

namespace articula {

class JointSpaceTangent {
 public:
  /// Builds and analyses the pattern (allocates; once per model).
  explicit JointSpaceTangent(const Model& model);

  /// Writes T = M + dampingWeight C + stiffnessWeight K + constraintWeight J^T J into the factor's
  /// values, reading the upper triangles of M, K and C (nv x nv, symmetric) and J (constraint rows x nv, as
  /// ConstraintEvaluator orders them) inside the pattern only. K and C may be empty (0 x 0) when
  /// the model has no springs or dampers. Never allocates.
  void assemble(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, double stiffnessWeight, const Eigen::MatrixXd& C,
                double dampingWeight, const Eigen::MatrixXd& J, double constraintWeight);
  /// Numeric factorisation; false when T is not positive definite or not finite.
  bool factorize();
  /// x <- T^-1 x with the last successful factorisation.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x);

  /// Whether T is stored and factorised dense (at most kDenseOrder coordinates).
  bool dense() const { return dense_; }
  static constexpr int kDenseOrder = 32;

 private:
  bool dense_;
  SparseCholesky cholesky_;
  Eigen::MatrixXd denseT_;  ///< upper triangle of T (dense storage), then its Cholesky factor U
  std::vector<int> entryRow_, entryColumn_;  ///< (row, column) of each stored entry, row <= column
  // The structural columns of each constraint row and, for each pair (a <= b) of row r's columns
  // in order, the value index pairIndex_[pairStart_[r] + k].
  JacobianPattern support_;
  std::vector<int> pairStart_, pairIndex_;
};

}  // namespace articula
