// The semi-recursive formulation on closed loops by coordinate partitioning: the double velocity
// transformation of seed 004 section 2.1. The loop constraints J v = nu split the relative
// velocities into dependent and independent ones, v = R v_i + (particular part) (eq. (20)-(24));
// the semi-recursive M and Q (seed 001 eq. (14)-(19)) are projected onto the independent ones,
// R^T M R vdot_i = R^T (Q - M c) (eq. (31)-(38)). After each step the dependent positions are
// solved from the independent ones by Newton-Raphson and the dependent velocities follow, so the
// integrator effectively advances the independent coordinates only.
//
// The split is chosen by LU with full pivoting of J (the pivot columns become dependent; the
// pivot rows are the independent equations, so redundant constraint rows are tolerated), and it
// is chosen again whenever the dependent block's conditioning falls below a tenth of what it was
// at selection: near a singular position of the chosen split (a four-bar rocker at its dead
// point, say) the formulation moves on with another set of independent coordinates.
//
// Each evaluation solves with the dependent columns Phi_z^d of J (eq. (31)-(33)) in one of two
// ways behind one small interface (DependentBlock, in the .cpp): dense LU with partial pivoting
// of the square block (independent equations x dependent columns), O(r^3) per evaluation; or, as
// seed 004 section 3.1 does with MA48, a sparse factorisation of the whole rectangular, redundant
// but compatible block (every equation x dependent columns) by SuiteSparseQR. Its pattern,
// derived once per model from the topology (a loop's rows involve only the joints on the root
// paths of its two bodies), is analysed once per split and refactorised numerically per
// evaluation. The conditioning watched for re-selection is min |R_kk| / max |R_kk| of SPQR's R,
// or min |U_kk| / max |U_kk| of the dense LU; either is compared with its own value at selection.
#pragma once

#include <Eigen/Cholesky>
#include <memory>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/constraints.hpp"

namespace articula {

class CoordinatePartitioning final : public Formulation {
 public:
  /// How the dependent block is solved (seed 004 eq. (31), (51)).
  enum class DependentSolver {
    Automatic,  ///< dense below kSparseFromDependent dependent coordinates, sparse from there
    Dense,      ///< LU with partial pivoting of the square block of the independent equations
    Sparse,     ///< SPQR of every constraint equation (redundant but compatible), seed 004 section 3.1
  };
  /// Dependent coordinates from which Automatic solves with the sparse QR. Measured with
  /// bench_coordinate_partitioning (one accelerations() on the N-four-bar, r = 2N dependent
  /// coordinates, Release, reference BLAS under SPQR): dense/sparse time 0.46 at r = 4, 0.76 at
  /// r = 20, 0.89 at r = 40, 1.06 at r = 60, 1.34 at r = 80, 1.76 at r = 100. The N-four-bar's
  /// Jacobian is as sparse as loops get (each touches three joints); loops over longer root paths
  /// fill the dependent block and move the break-even point up.
  static constexpr int kSparseFromDependent = 60;

  explicit CoordinatePartitioning(const Model& model, DependentSolver solver = DependentSolver::Automatic);
  ~CoordinatePartitioning() override;
  std::string_view name() const override { return "semi-recursive"; }
  /// Its own workspaces are sized once per split. The dense path allocates nothing per call; the
  /// sparse path does: SPQR its numeric factor and its solve results (linalg/sparse_qr.hpp).
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;
  bool correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) override;

  /// Chooses the split at (t, q) now; `preferredIndependent` (velocity coordinates) are taken as
  /// independent where the Jacobian allows (tests use it to start from a split that will fail).
  void selectPartition(double t, const Eigen::VectorXd& q, const std::vector<int>& preferredIndependent = {});
  const std::vector<int>& independent() const { return independent_; }
  /// How many times the split was chosen again because it had become ill-conditioned.
  long reselections() const { return reselections_; }
  /// Whether the current split is solved by the sparse QR (false before the first selection).
  bool solvesSparse() const;

 private:
  class DependentBlock;
  class DenseBlock;
  class SparseBlock;

  /// Factorises the dependent block of constraints_.J (current for q); when it has become
  /// ill-conditioned, selects a new split instead and returns true (ws_ then holds positions only).
  bool factorizeDependent(double t, const Eigen::VectorXd& q);

  const Model& model_;
  Workspace ws_;
  SemiRecursiveDynamics dynamics_;
  ConstraintEvaluator constraints_;
  DependentSolver solver_;
  std::unique_ptr<DependentBlock> dense_, sparse_;   // the ones solver_ allows
  DependentBlock* block_ = nullptr;                  // the one solving the current split
  std::vector<int> dependent_, independent_, rows_;  // columns and independent equations
  Eigen::MatrixXd rhs_, solution_;                   // [Phi_z^i | gamma] on every equation; (Phi_z^d)^-1 of it
  Eigen::MatrixXd R_, M_, MR_, RtMR_;
  Eigen::LLT<Eigen::MatrixXd> reducedLlt_;
  Eigen::VectorXd Q_, c_, vi_, dq_;
  double conditioningAtSelection_ = 0.0;
  long reselections_ = 0;
  bool selected_ = false;
};

}  // namespace articula
