#include "articula/linalg/sparse_lu.hpp"

#include <klu.h>

#include <cmath>
#include <string>

#include "articula/core/error.hpp"
#include "compressed_columns.hpp"

namespace articula {

struct SparseLu::Impl {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;  // the factors; null before the first factorisation and after a failure
  bool analysed = false;
  std::vector<int> columnStart, rowIndex;  // KLU reads the pattern again on every factorisation
  Eigen::VectorXd values;                  // in the pattern's order
  Eigen::VectorXd pivoting;                // the values that chose numeric's pivots (empty without numeric)
  double pivotingGrowth = 0.0;             // their reciprocal pivot growth

  Impl() {
    klu_defaults(&common);
    common.halt_if_singular = 1;  // a zero pivot ends the factorisation at once
    common.tol = kPivotTolerance;
  }
  ~Impl() { release(); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void releaseNumeric() {
    if (numeric) klu_free_numeric(&numeric, &common);
    pivoting.resize(0);
  }
  void release() {
    releaseNumeric();
    if (symbolic) klu_free_symbolic(&symbolic, &common);
    analysed = false;
  }
  [[noreturn]] void fail(const char* what) const {
    throw Error(std::string("sparse LU: ") + what + " failed (KLU status " + std::to_string(common.status) + ")");
  }
  // Whether every pivot is finite and nonzero: min |u_kk| / max |u_kk| (klu_rcond) is positive.
  bool pivotsRegular() {
    return klu_rcond(symbolic, numeric, &common) && common.rcond > 0.0 && std::isfinite(common.rcond);
  }
  // min over columns of max |a_ij| / max |u_ij| (klu_rgrowth, on the row-scaled matrix): small when
  // elimination made entries grow, so that rounding errors grow with them.
  double growth(const Eigen::VectorXd& a) {
    if (!klu_rgrowth(columnStart.data(), rowIndex.data(), const_cast<double*>(a.data()), symbolic, numeric, &common))
      fail("the pivot growth");
    return common.rgrowth;
  }
  // Factorisation with threshold partial pivoting (klu_factor): chooses the pivot order that later
  // refactorisations keep. False when a = the pivoting values is singular.
  // `a` may be `pivoting` itself (restoring the current order).
  bool factorChoosingPivots(const Eigen::VectorXd& a) {
    if (numeric) klu_free_numeric(&numeric, &common);
    numeric = klu_factor(columnStart.data(), rowIndex.data(), const_cast<double*>(a.data()), symbolic, &common);
    if (!numeric && common.status != KLU_SINGULAR) {
      pivoting.resize(0);
      fail("the factorisation");
    }
    if (!numeric || !pivotsRegular()) {
      releaseNumeric();
      return false;
    }
    pivotingGrowth = growth(a);
    if (&a != &pivoting) pivoting = a;
    return true;
  }
};

SparseLu::SparseLu() : impl_(std::make_unique<Impl>()) {}
SparseLu::~SparseLu() = default;

void SparseLu::analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex) {
  checkCompressedColumns("sparse LU", n, n, columnStart, rowIndex);
  Impl& m = *impl_;
  m.release();
  n_ = 0;
  m.columnStart = columnStart;
  m.rowIndex = rowIndex;
  m.values = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rowIndex.size()));
  if (n > 0) {
    // Block triangular form, then AMD on each block (KLU's defaults), once per pattern.
    m.symbolic = klu_analyze(n, m.columnStart.data(), m.rowIndex.data(), &m.common);
    if (!m.symbolic) m.fail("the analysis");
    const int rank = m.symbolic->structural_rank;
    if (rank >= 0 && rank < n) {
      m.release();
      throw Error("sparse LU: the pattern is structurally singular (structural rank " + std::to_string(rank) + " of " +
                  std::to_string(n) + ")");
    }
  }
  m.analysed = true;
  n_ = n;
}

int SparseLu::nonZeros() const { return impl_->analysed ? static_cast<int>(impl_->rowIndex.size()) : 0; }

long SparseLu::factorNonZeros() const {
  const Impl& m = *impl_;
  if (m.numeric) return static_cast<long>(m.numeric->lnz) + m.numeric->unz + m.numeric->nzoff;
  if (m.symbolic) return std::lround(m.symbolic->lnz + m.symbolic->unz) + m.symbolic->nzoff;
  return 0;
}

Eigen::Map<Eigen::VectorXd> SparseLu::values() {
  if (!impl_->analysed) throw Error("sparse LU: values() before analyze()");
  return {impl_->values.data(), impl_->values.size()};
}

bool SparseLu::factorize() {
  Impl& m = *impl_;
  if (!m.analysed) throw Error("sparse LU: factorize() before analyze()");
  if (n_ == 0) return true;
  if (!m.values.allFinite()) {
    m.releaseNumeric();
    return false;
  }
  if (m.numeric) {
    // The numbers only, in the kept pivot order; a zero pivot stops it with status KLU_SINGULAR.
    const int ok =
        klu_refactor(m.columnStart.data(), m.rowIndex.data(), m.values.data(), m.symbolic, m.numeric, &m.common);
    if (ok && m.common.status == KLU_OK && m.pivotsRegular() && m.growth(m.values) >= kRepivotRatio * m.pivotingGrowth)
      return true;
    if (m.common.status < KLU_OK) m.fail("the refactorisation");
  }
  return m.factorChoosingPivots(m.values);
}

void SparseLu::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) {
  Impl& m = *impl_;
  if (x.size() != n_) throw Error("sparse LU: right-hand side of the wrong size");
  if (n_ == 0) return;
  if (!m.numeric) throw Error("sparse LU: solve without a successful factorisation");
  if (!klu_solve(m.symbolic, m.numeric, n_, 1, x.data(), &m.common)) m.fail("the solve");
}

const Eigen::VectorXd& SparseLu::pivotingValues() const { return impl_->pivoting; }

void SparseLu::resetPivots() { impl_->releaseNumeric(); }

bool SparseLu::restorePivots(const Eigen::VectorXd& pivoting) {
  Impl& m = *impl_;
  if (!m.analysed) throw Error("sparse LU: restorePivots() before analyze()");
  if (pivoting.size() == 0) {
    m.releaseNumeric();
    return true;
  }
  if (pivoting.size() != static_cast<Eigen::Index>(m.rowIndex.size()))
    throw Error("sparse LU: the saved pivoting values do not fit the pattern");
  if (!pivoting.allFinite()) {
    m.releaseNumeric();
    return false;
  }
  return m.factorChoosingPivots(pivoting);
}

}  // namespace articula
