#include "articula/dynamics/coordinate_partitioning.hpp"

#include <Eigen/LU>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/rank_threshold.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/linalg/sparse_qr.hpp"

namespace articula {

namespace {
// Re-select when the dependent block's reciprocal condition number falls below this fraction of
// its value at selection: early enough that the block is still far from singular when we leave
// it, late enough that a split lasts through ordinary motion.
constexpr double kReselectFraction = 0.1;
constexpr int kMaxNewtonIterations = 20;

// J's structural pattern (jacobianPattern, by rows) in compressed-column form.
void jacobianColumns(const Model& model, std::vector<int>& columnStart, std::vector<int>& rowIndex) {
  const JacobianPattern rows = jacobianPattern(model);
  columnStart.assign(static_cast<std::size_t>(model.nv) + 1, 0);
  for (int c : rows.columns) ++columnStart[static_cast<std::size_t>(c) + 1];
  std::partial_sum(columnStart.begin(), columnStart.end(), columnStart.begin());
  std::vector<int> next(columnStart.begin(), columnStart.end() - 1);
  rowIndex.resize(rows.columns.size());
  for (int r = 0; r + 1 < static_cast<int>(rows.start.size()); ++r)  // rows in order: each column's ascending
    for (int p = rows.start[r]; p < rows.start[r + 1]; ++p)
      rowIndex[static_cast<std::size_t>(next[static_cast<std::size_t>(rows.columns[p])]++)] = r;
}
}  // namespace

// Solves with the dependent columns Phi_z^d of J for one split. Right-hand sides come with a row
// per constraint equation and are compatible (B = Phi_z^d X for some X, up to the constraint
// tolerance); each implementation uses what it needs of them.
class CoordinatePartitioning::DependentBlock {
 public:
  virtual ~DependentBlock() = default;
  /// A new split: its dependent columns and independent equations (the selection's pivot rows);
  /// right-hand sides will have at most `rhsColumns` columns. Sizes every workspace.
  virtual void select(const std::vector<int>& dependent, const std::vector<int>& rows, int rhsColumns) = 0;
  /// Factorises the dependent block of J. Returns an estimate of its reciprocal condition number,
  /// comparable only with this implementation's own values; 0 when singular.
  virtual double factorize(const Eigen::MatrixXd& J) = 0;
  /// X = (Phi_z^d)^-1 B.
  virtual void solve(const Eigen::Ref<const Eigen::MatrixXd>& B, Eigen::Ref<Eigen::MatrixXd> X) = 0;
};

// The square r x r block of the independent equations, by LU with partial pivoting; its
// conditioning is the ratio of its smallest to its largest pivot.
class CoordinatePartitioning::DenseBlock final : public DependentBlock {
 public:
  void select(const std::vector<int>& dependent, const std::vector<int>& rows, int rhsColumns) override {
    dependent_ = &dependent;
    rows_ = &rows;
    const auto r = static_cast<Eigen::Index>(dependent.size());
    Jd_.resize(r, r);
    rhs_.resize(r, rhsColumns);
  }
  double factorize(const Eigen::MatrixXd& J) override {
    const auto r = static_cast<int>(Jd_.rows());
    if (r == 0) return 1.0;
    for (int a = 0; a < r; ++a)
      for (int b = 0; b < r; ++b) Jd_(a, b) = J((*rows_)[a], (*dependent_)[b]);
    lu_.compute(Jd_);
    // min |U_kk| / max |U_kk|: Eigen's rcond() would allocate at every evaluation, and the
    // estimate is only compared with its own value at selection, as the SPQR path's R diagonal is.
    const auto pivots = lu_.matrixLU().diagonal().cwiseAbs();
    const double largest = pivots.maxCoeff();
    return largest > 0.0 ? pivots.minCoeff() / largest : 0.0;
  }
  void solve(const Eigen::Ref<const Eigen::MatrixXd>& B, Eigen::Ref<Eigen::MatrixXd> X) override {
    const auto r = static_cast<int>(Jd_.rows());
    if (r == 0) return;
    auto rhs = rhs_.leftCols(B.cols());
    for (int a = 0; a < r; ++a) rhs.row(a) = B.row((*rows_)[a]);
    X = lu_.solve(rhs);
  }

 private:
  const std::vector<int>* dependent_ = nullptr;
  const std::vector<int>* rows_ = nullptr;
  Eigen::MatrixXd Jd_, rhs_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

// The rectangular m x r block of every equation, redundant rows included, by SPQR on J's
// structural pattern restricted to the dependent columns (seed 004 section 3.1, eq. (51)); its
// conditioning is min |R_kk| / max |R_kk|, and 0 when SPQR finds it rank deficient.
class CoordinatePartitioning::SparseBlock final : public DependentBlock {
 public:
  explicit SparseBlock(const Model& model) : m_(model.constraintCount()) {
    jacobianColumns(model, patternStart_, patternRows_);
  }
  void select(const std::vector<int>& dependent, const std::vector<int>&, int) override {
    dependent_ = &dependent;
    columnStart_.assign(1, 0);
    rowIndex_.clear();
    for (int k : dependent) {
      rowIndex_.insert(rowIndex_.end(), patternRows_.begin() + patternStart_[static_cast<std::size_t>(k)],
                       patternRows_.begin() + patternStart_[static_cast<std::size_t>(k) + 1]);
      columnStart_.push_back(static_cast<int>(rowIndex_.size()));
    }
    qr_.analyze(m_, static_cast<int>(dependent.size()), columnStart_, rowIndex_);
    usable_ = false;
  }
  double factorize(const Eigen::MatrixXd& J) override {
    Eigen::Map<Eigen::VectorXd> values = qr_.values();
    const int r = qr_.cols();
    for (int b = 0; b < r; ++b)
      for (int p = columnStart_[static_cast<std::size_t>(b)]; p < columnStart_[static_cast<std::size_t>(b) + 1]; ++p)
        values[p] = J(rowIndex_[static_cast<std::size_t>(p)], (*dependent_)[static_cast<std::size_t>(b)]);
    usable_ = qr_.factorize();  // false for a non-finite J: the solves then give NaN, as LU's would
    if (!usable_) return std::numeric_limits<double>::quiet_NaN();
    return qr_.rank() < r ? 0.0 : qr_.conditioningEstimate();
  }
  void solve(const Eigen::Ref<const Eigen::MatrixXd>& B, Eigen::Ref<Eigen::MatrixXd> X) override {
    if (usable_)
      qr_.solve(B, X);  // least squares, exact for compatible B (seed 004 eq. (51))
    else
      X.setConstant(std::numeric_limits<double>::quiet_NaN());
  }

 private:
  int m_;
  std::vector<int> patternStart_, patternRows_;  // J's structural pattern, once per model
  std::vector<int> columnStart_, rowIndex_;      // its dependent columns, once per split
  const std::vector<int>* dependent_ = nullptr;
  SparseQr qr_;
  bool usable_ = false;
};

CoordinatePartitioning::CoordinatePartitioning(const Model& model, DependentSolver solver)
    : model_(model),
      ws_(model),
      dynamics_(model),
      constraints_(model),
      solver_(solver),
      M_(model.nv, model.nv),
      Q_(model.nv),
      c_(model.nv),
      dq_(model.nv) {
  if (solver != DependentSolver::Sparse) dense_ = std::make_unique<DenseBlock>();
  if (solver != DependentSolver::Dense) sparse_ = std::make_unique<SparseBlock>(model);
}

CoordinatePartitioning::~CoordinatePartitioning() = default;

bool CoordinatePartitioning::solvesSparse() const { return block_ != nullptr && block_ == sparse_.get(); }

void CoordinatePartitioning::selectPartition(double t, const Eigen::VectorXd& q,
                                             const std::vector<int>& preferredIndependent) {
  updatePositions(model_, ws_, q);
  constraints_.positions(ws_, t, q);
  constraints_.jacobian(ws_, t);
  // Full pivoting picks the best-conditioned dependent columns; preferred independent columns
  // are scaled down so that they are picked last.
  Eigen::MatrixXd J = constraints_.J;
  for (int k : preferredIndependent) J.col(k) *= 1e-6;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  lu.setThreshold(kConstraintRankThreshold);  // the selection's rank, as the reference formulation's
  const int r = static_cast<int>(lu.rank()), n = model_.nv;
  dependent_.assign(static_cast<std::size_t>(r), 0);
  rows_.assign(static_cast<std::size_t>(r), 0);
  std::vector<char> isDependent(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < r; ++k) {
    dependent_[k] = lu.permutationQ().indices()[k];  // (J Q).col(k) = J.col(Q(k))
    isDependent[dependent_[k]] = 1;
  }
  // P sends row i of J to row P(i) of P J: the k-th pivot row is the i with P(i) = k.
  for (int i = 0; i < constraints_.size(); ++i) {
    const int k = lu.permutationP().indices()[i];
    if (k < r) rows_[k] = i;
  }
  independent_.clear();
  for (int k = 0; k < n; ++k)
    if (!isDependent[k]) independent_.push_back(k);
  const int ni = static_cast<int>(independent_.size());
  const bool sparse =
      solver_ == DependentSolver::Sparse || (solver_ == DependentSolver::Automatic && r >= kSparseFromDependent);
  block_ = sparse ? sparse_.get() : dense_.get();
  block_->select(dependent_, rows_, ni + 1);
  rhs_.resize(constraints_.size(), ni + 1);
  solution_.resize(r, ni + 1);
  R_.setZero(n, ni);
  RtMR_.resize(ni, ni);
  MR_.resize(model_.nv, ni);
  vi_.resize(ni);
  selected_ = true;
  conditioningAtSelection_ = 0.0;
  factorizeDependent(t, q);
}

bool CoordinatePartitioning::factorizeDependent(double t, const Eigen::VectorXd& q) {
  const double conditioning = block_->factorize(constraints_.J);
  if (conditioningAtSelection_ == 0.0) {
    // The selection's full-pivoting LU found these columns independent; a block that is
    // singular right away would be solved wrongly with no re-selection ever triggered.
    if (conditioning == 0.0) throw Error("coordinate partitioning: the dependent block is singular at its selection");
    conditioningAtSelection_ = conditioning;
    return false;
  }
  if (!(conditioning < kReselectFraction * conditioningAtSelection_)) return false;
  ++reselections_;
  selectPartition(t, q);  // recomputes J at q and factorises the new dependent block
  return true;
}

void CoordinatePartitioning::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           Eigen::VectorXd& vdot) {
  if (!selected_) selectPartition(t, q);
  updateVelocities(model_, ws_, q, v);
  evaluateForceElements(model_, ws_, t, q, v);
  dynamics_.evaluate(ws_, M_, Q_);  // seed 001 eq. (14)-(19)
  constraints_.jacobian(ws_, t);
  if (factorizeDependent(t, q)) updateVelocities(model_, ws_, q, v);  // a new split left positions only in ws_
  const int r = static_cast<int>(dependent_.size()), ni = static_cast<int>(independent_.size());
  // R = [-(Phi_z^d)^-1 Phi_z^i; I] in the split ordering (seed 004 eq. (31)-(32)); c: the
  // particular acceleration with vdot_i = 0, c_d = (Phi_z^d)^-1 gamma (eq. (33)): one solve with
  // the right-hand sides [Phi_z^i | gamma] (eq. (51)).
  R_.setZero();
  for (int b = 0; b < ni; ++b) R_(independent_[b], b) = 1.0;
  c_.setZero();
  if (r) {
    constraints_.accelerationBias(ws_, t);
    for (int b = 0; b < ni; ++b) rhs_.col(b) = constraints_.J.col(independent_[b]);
    rhs_.col(ni) = constraints_.gamma;
    block_->solve(rhs_, solution_);
    for (int a = 0; a < r; ++a) {
      for (int b = 0; b < ni; ++b) R_(dependent_[a], b) = -solution_(a, b);
      c_[dependent_[a]] = solution_(a, ni);
    }
  }
  // Reduced equations R^T M R vdot_i = R^T (Q - M c), eq. (38).
  MR_.noalias() = M_ * R_;  // in a workspace: the triple product would make a heap temporary
  RtMR_.noalias() = R_.transpose() * MR_;
  Q_.noalias() -= M_ * c_;
  vi_.noalias() = R_.transpose() * Q_;
  reducedLlt_.compute(RtMR_);
  if (reducedLlt_.info() != Eigen::Success)
    throw Error("the reduced mass matrix of the independent coordinates is not positive definite");
  reducedLlt_.solveInPlace(vi_);
  vdot = c_;
  vdot.noalias() += R_ * vi_;
}

bool CoordinatePartitioning::correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  if (!selected_) selectPartition(t, q);
  // Dependent positions from the independent ones: Newton on Phi_z^d dz_d = -g (least squares
  // over the redundant equations on the sparse path, the independent equations on the dense one).
  for (int it = 0;; ++it) {
    updatePositions(model_, ws_, q);
    constraints_.positions(ws_, t, q);
    const double error = constraints_.size() ? constraints_.g.cwiseAbs().maxCoeff() : 0.0;
    if (error <= tol) break;
    if (it == kMaxNewtonIterations || !std::isfinite(error)) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "coordinate partitioning: the dependent positions could not be solved (constraint error %.3g, "
                    "tolerance %.3g)",
                    error, tol);
      throw StepRejected(msg);
    }
    constraints_.jacobian(ws_, t);
    factorizeDependent(t, q);  // may select a new split: workspaces are taken after it
    rhs_.col(0) = -constraints_.g;
    block_->solve(rhs_.col(0), solution_.col(0));
    dq_.setZero();
    for (std::size_t a = 0; a < dependent_.size(); ++a) dq_[dependent_[a]] = solution_(static_cast<Eigen::Index>(a), 0);
    integrateConfiguration(model_, q, dq_);
  }
  // Dependent velocities: Phi_z^d v_d = nu - Phi_z^i v_i (eq. (22), (31)).
  constraints_.jacobian(ws_, t);
  factorizeDependent(t, q);
  rhs_.col(0) = constraints_.nu;
  for (int k : independent_) rhs_.col(0) -= constraints_.J.col(k) * v[k];
  block_->solve(rhs_.col(0), solution_.col(0));
  for (std::size_t a = 0; a < dependent_.size(); ++a) v[dependent_[a]] = solution_(static_cast<Eigen::Index>(a), 0);
  return true;
}

}  // namespace articula
