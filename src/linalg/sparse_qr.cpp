#include "articula/linalg/sparse_qr.hpp"

#include <SuiteSparseQR.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "articula/core/error.hpp"
#include "compressed_columns.hpp"

namespace articula {

// SPQR works on CHOLMOD's 64-bit-index ("cholmod_l") matrices; the caller's int pattern is copied
// into them once, and the values are written straight into the stored matrix.
struct SparseQr::Impl {
  cholmod_common common;
  cholmod_sparse* A = nullptr;                        // pattern and values
  SuiteSparseQR_factorization<double>* qr = nullptr;  // symbolic analysis, then numeric factor
  cholmod_dense* B = nullptr;                         // right-hand sides handed to SPQR
  bool factorized = false;
  int rank = 0;
  double conditioning = 1.0;

  Impl() {
    cholmod_l_start(&common);
    common.print = 0;  // failures are reported through return values, not printed
    common.error_handler = nullptr;
  }
  ~Impl() {
    release();
    cholmod_l_finish(&common);
  }
  void release() {
    if (qr) SuiteSparseQR_free<double>(&qr, &common);
    cholmod_l_free_dense(&B, &common);
    cholmod_l_free_sparse(&A, &common);
    factorized = false;
  }
  [[noreturn]] void fail(const char* what) const {
    throw Error(std::string("sparse QR: ") + what + " failed (SPQR/CHOLMOD status " + std::to_string(common.status) +
                ")");
  }

  // min |R_kk| / max |R_kk| over the live pivots. R is not available as a matrix without an
  // allocating conversion; its diagonal is read from the multifrontal factor as spqr_rsolve walks
  // it (layout of SuiteSparseQR.hpp, SPQR 2.x): front f holds its pivot columns Super[f] ..
  // Super[f + 1] - 1 in Rblock[f], each column the rm rows of R found so far followed by its
  // Householder vector (the staircase HStair: a zero length marks a dead column, and a front with
  // more pivot columns than rows leaves the later ones dead). The symbolic/numeric pair always
  // keeps H and never removes singletons, so the whole of R is in the fronts.
  void readConditioning() {
    const spqr_symbolic* sym = qr->QRsym;
    const spqr_numeric<double>* num = qr->QRnum;
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    long live = 0;
    for (SuiteSparse_long f = 0; f < sym->nf; ++f) {
      const double* R = num->Rblock[f];
      const SuiteSparse_long pivots = sym->Super[f + 1] - sym->Super[f];
      const SuiteSparse_long* stair = num->HStair + sym->Rp[f];
      const SuiteSparse_long frontRows = num->Hm[f];
      SuiteSparse_long rm = 0;  // rows of R in this front so far
      for (SuiteSparse_long k = 0; k < pivots; ++k) {
        SuiteSparse_long t = stair[k], h;  // column k: R entries, then H entries h .. t - 1
        bool isLive;
        if (t == 0) {
          isLive = false;
          t = h = rm;
        } else {
          isLive = rm < frontRows;
          h = rm + 1;
        }
        if (isLive) {
          const double d = std::abs(R[rm]);
          lo = std::min(lo, d);
          hi = std::max(hi, d);
          ++rm;
          ++live;
        }
        R += rm + (t - h);
      }
    }
    if (live != rank) throw Error("sparse QR: the factor's layout is not the one this SPQR version was read with");
    conditioning = rank == 0 ? 0.0 : lo / hi;
  }
};

SparseQr::SparseQr() : impl_(std::make_unique<Impl>()) {}
SparseQr::~SparseQr() = default;

void SparseQr::analyze(int rows, int cols, const std::vector<int>& columnStart, const std::vector<int>& rowIndex) {
  checkCompressedColumns("sparse QR", rows, cols, columnStart, rowIndex);
  Impl& m = *impl_;
  m.release();
  m_ = rows;
  n_ = cols;
  cholmod_common* c = &m.common;
  const std::size_t nnz = rowIndex.size();
  m.A = cholmod_l_allocate_sparse(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), nnz, /*sorted=*/1,
                                  /*packed=*/1, /*stype=*/0, CHOLMOD_REAL, c);
  if (!m.A) m.fail("allocating the matrix");
  std::copy(columnStart.begin(), columnStart.end(), static_cast<SuiteSparse_long*>(m.A->p));
  std::copy(rowIndex.begin(), rowIndex.end(), static_cast<SuiteSparse_long*>(m.A->i));
  std::fill_n(static_cast<double*>(m.A->x), nnz, 0.0);
  m.B = cholmod_l_allocate_dense(static_cast<std::size_t>(rows), 1, static_cast<std::size_t>(rows), CHOLMOD_REAL, c);
  if (!m.B) m.fail("allocating a right-hand side");
  if (rows == 0 || cols == 0) return;  // nothing for SPQR to factorise: rank 0, solutions zero
  // Fill-reducing ordering (SPQR's default: COLAMD, or AMD of A^T A for tall matrices) and the
  // symbolic factorisation, with rank detection left to each numeric factorisation.
  m.qr = SuiteSparseQR_symbolic<double>(SPQR_ORDERING_DEFAULT, /*allow_tol=*/1, m.A, c);
  if (!m.qr || c->status < CHOLMOD_OK) m.fail("the symbolic analysis");
}

int SparseQr::nonZeros() const {
  return impl_->A ? static_cast<int>(static_cast<const SuiteSparse_long*>(impl_->A->p)[n_]) : 0;
}

Eigen::Map<Eigen::VectorXd> SparseQr::values() {
  if (!impl_->A) throw Error("sparse QR: values() before analyze()");
  return {static_cast<double*>(impl_->A->x), nonZeros()};
}

bool SparseQr::factorize() {
  Impl& m = *impl_;
  if (!m.A) throw Error("sparse QR: factorize() before analyze()");
  m.factorized = false;
  if (!values().allFinite()) return false;
  if (!m.qr) {
    m.rank = 0;
    m.conditioning = 1.0;
  } else {
    // A E = Q R on the analysis of analyze(); tol <= SPQR_DEFAULT_TOL asks for SPQR's default
    // column-norm threshold, recomputed from these values.
    if (!SuiteSparseQR_numeric<double>(SPQR_DEFAULT_TOL, m.A, m.qr, &m.common) || m.common.status < CHOLMOD_OK)
      m.fail("the numeric factorisation");
    m.rank = static_cast<int>(m.qr->rank);
    m.readConditioning();
  }
  m.factorized = true;
  return true;
}

int SparseQr::rank() const {
  if (!impl_->factorized) throw Error("sparse QR: rank() without a factorisation");
  return impl_->rank;
}

double SparseQr::conditioningEstimate() const {
  if (!impl_->factorized) throw Error("sparse QR: conditioningEstimate() without a factorisation");
  return impl_->conditioning;
}

void SparseQr::solve(const Eigen::Ref<const Eigen::MatrixXd>& B, Eigen::Ref<Eigen::MatrixXd> X) {
  Impl& m = *impl_;
  if (B.rows() != m_ || X.rows() != n_ || B.cols() != X.cols())
    throw Error("sparse QR: right-hand sides or solution of the wrong size");
  if (!m.factorized) throw Error("sparse QR: solve() without a usable factorisation");
  if (!m.qr) {
    X.setZero();
    return;
  }
  const auto k = static_cast<std::size_t>(B.cols()), rows = static_cast<std::size_t>(m_);
  if (k == 0) return;
  cholmod_common* c = &m.common;
  if (m.B->nzmax < rows * k) {  // grows to the widest block asked for, then is reused
    cholmod_l_free_dense(&m.B, c);
    m.B = cholmod_l_allocate_dense(rows, k, rows, CHOLMOD_REAL, c);
    if (!m.B) m.fail("allocating the right-hand sides");
  }
  m.B->ncol = k;
  Eigen::Map<Eigen::MatrixXd>(static_cast<double*>(m.B->x), m_, B.cols()) = B;
  // X = E R^-1 (Q^T B)(0:rank): SPQR returns both products as new matrices.
  cholmod_dense* QtB = SuiteSparseQR_qmult<double>(SPQR_QTX, m.qr, m.B, c);
  if (!QtB) m.fail("applying Q^T");
  cholmod_dense* x = SuiteSparseQR_solve<double>(SPQR_RETX_EQUALS_B, m.qr, QtB, c);
  cholmod_l_free_dense(&QtB, c);
  if (!x) m.fail("the triangular solve");
  X = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(static_cast<const double*>(x->x), n_, B.cols(),
                                                                 Eigen::OuterStride<>(static_cast<Eigen::Index>(x->d)));
  cholmod_l_free_dense(&x, c);
}

}  // namespace articula
