#include "articula/linalg/sparse_cholesky.hpp"

#include <cholmod.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "articula/core/error.hpp"
#include "compressed_columns.hpp"
#include "simplicial_cholesky.hpp"

namespace articula {

// The matrix is stored already permuted by the fill-reducing ordering, and CHOLMOD factorises it in
// its natural order: cholmod_factorize then works on the stored upper triangle directly, where
// with its own permutation it would build two permuted transposes (allocated) on every call.
struct SparseCholesky::Impl {
  cholmod_common common;
  cholmod_sparse* A = nullptr;  // P A P^T, upper triangle
  cholmod_factor* L = nullptr;
  cholmod_dense *B = nullptr, *X = nullptr, *Y = nullptr, *E = nullptr;  // solve2 right side, solution, workspaces
  std::vector<int> perm;                                                 // pivot k is the caller's row/column perm[k]
  std::vector<int> position;  // the caller's entry k is A's entry position[k]
  Eigen::VectorXd values;     // in the caller's pattern order
  // Where CHOLMOD's analysis chooses its simplicial method, the factorisation is this class's
  // (simplicial_cholesky.hpp), which reads `values` directly, and L is freed; otherwise
  // CHOLMOD's supernodal one, from A.
  bool simplicial = false;
  SimplicialCholesky simplicialFactor;

  Impl() {
    cholmod_start(&common);
    common.print = 0;  // failures are reported through return values, not printed
    common.error_handler = nullptr;
    common.final_ll = 1;  // LL': a non-positive pivot is a failure (LDL' would accept negative ones)
  }
  ~Impl() {
    release();
    cholmod_finish(&common);
  }
  void release() {
    cholmod_free_dense(&B, &common);
    cholmod_free_dense(&X, &common);
    cholmod_free_dense(&Y, &common);
    cholmod_free_dense(&E, &common);
    cholmod_free_factor(&L, &common);
    cholmod_free_sparse(&A, &common);
  }
  cholmod_sparse* pattern(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex) {
    const std::size_t nnz = rowIndex.size();
    // stype = 1: only the upper triangle is stored and used.
    cholmod_sparse* S =
        cholmod_allocate_sparse(n, n, nnz, /*sorted=*/1, /*packed=*/1, /*stype=*/1, CHOLMOD_REAL, &common);
    if (!S) throw Error("sparse Cholesky: CHOLMOD could not allocate the matrix");
    std::memcpy(S->p, columnStart.data(), columnStart.size() * sizeof(int));
    if (nnz) std::memcpy(S->i, rowIndex.data(), nnz * sizeof(int));
    std::memset(S->x, 0, nnz * sizeof(double));
    return S;
  }
};

SparseCholesky::SparseCholesky() : impl_(std::make_unique<Impl>()) {}
SparseCholesky::~SparseCholesky() = default;

void SparseCholesky::analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex) {
  checkCompressedColumns("sparse Cholesky", n, n, columnStart, rowIndex, /*upperTriangle=*/true);
  Impl& m = *impl_;
  m.release();
  n_ = n;
  cholmod_common* c = &m.common;
  const std::size_t nnz = rowIndex.size();
  auto check = [&](bool ok, const char* what) {
    if (!ok || c->status < CHOLMOD_OK)
      throw Error(std::string("sparse Cholesky: ") + what + " failed (CHOLMOD status " + std::to_string(c->status) +
                  ")");
  };
  // 1. The fill-reducing ordering of the caller's pattern (CHOLMOD's default strategy).
  {
    cholmod_sparse* S = m.pattern(n, columnStart, rowIndex);
    cholmod_factor* L0 = cholmod_analyze(S, c);
    const bool ok = L0 != nullptr && c->status >= CHOLMOD_OK;
    if (ok) m.perm.assign(static_cast<const int*>(L0->Perm), static_cast<const int*>(L0->Perm) + n);
    cholmod_free_factor(&L0, c);
    cholmod_free_sparse(&S, c);
    check(ok, "the ordering");
  }
  // 2. The permuted pattern (upper triangle) and where each of the caller's entries lands in it.
  std::vector<int> inverse(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) inverse[static_cast<std::size_t>(m.perm[k])] = k;
  std::vector<std::vector<std::pair<int, int>>> columns(static_cast<std::size_t>(n));  // (row, caller entry)
  for (int j = 0; j < n; ++j)
    for (int k = columnStart[j]; k < columnStart[j + 1]; ++k) {
      const int a = inverse[static_cast<std::size_t>(rowIndex[k])], b = inverse[static_cast<std::size_t>(j)];
      columns[static_cast<std::size_t>(std::max(a, b))].emplace_back(std::min(a, b), k);
    }
  std::vector<int> start(static_cast<std::size_t>(n) + 1, 0), rows, entries;  // entries: the caller's, by A's entry
  rows.reserve(nnz);
  entries.reserve(nnz);
  m.position.assign(nnz, 0);
  for (int j = 0; j < n; ++j) {
    auto& col = columns[static_cast<std::size_t>(j)];
    std::sort(col.begin(), col.end());
    for (const auto& [row, entry] : col) {
      m.position[static_cast<std::size_t>(entry)] = static_cast<int>(rows.size());
      rows.push_back(row);
      entries.push_back(entry);
    }
    start[static_cast<std::size_t>(j) + 1] = static_cast<int>(rows.size());
  }
  m.A = m.pattern(n, start, rows);
  // 3. Symbolic factorisation of the permuted matrix in its natural order, once.
  const int methods = c->nmethods, ordering = c->method[0].ordering, postorder = c->postorder;
  c->nmethods = 1;
  c->method[0].ordering = CHOLMOD_NATURAL;
  c->postorder = 0;
  m.L = cholmod_analyze(m.A, c);
  c->nmethods = methods;
  c->method[0].ordering = ordering;
  c->postorder = postorder;
  check(m.L != nullptr, "the symbolic analysis");
  m.simplicial = !m.L->is_super;
  if (m.simplicial) {  // it reads the caller's values where they are: A's values stay unused
    cholmod_free_factor(&m.L, c);
    m.simplicialFactor.analyze(n, start, rows, entries);
  }
  m.B = cholmod_zeros(n, 1, CHOLMOD_REAL, c);
  check(m.B != nullptr, "allocating a right-hand side");
  m.values = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(nnz));
}

int SparseCholesky::nonZeros() const {
  return impl_->A ? static_cast<int>(static_cast<const int*>(impl_->A->p)[n_]) : 0;
}

long SparseCholesky::factorNonZeros() const {
  if (impl_->simplicial) return impl_->simplicialFactor.factorNonZeros();
  const cholmod_factor* L = impl_->L;
  if (!L) return 0;
  if (L->is_super) return static_cast<long>(L->xsize);
  const int* colCount = static_cast<const int*>(L->ColCount);
  long count = 0;
  for (std::size_t j = 0; j < L->n; ++j) count += colCount[j];
  return count;
}

Eigen::Map<Eigen::VectorXd> SparseCholesky::values() {
  if (!impl_->A) throw Error("sparse Cholesky: values() before analyze()");
  return {impl_->values.data(), impl_->values.size()};
}

bool SparseCholesky::factorize() {
  Impl& m = *impl_;
  if (!m.A) throw Error("sparse Cholesky: factorize() before analyze()");
  if (!m.values.allFinite()) return false;
  if (m.simplicial) return m.simplicialFactor.factorize(m.values.data());
  double* x = static_cast<double*>(m.A->x);
  for (std::size_t k = 0; k < m.position.size(); ++k) x[m.position[k]] = m.values[static_cast<Eigen::Index>(k)];
  // Numeric factorisation on the symbolic analysis of analyze(). A matrix that is not positive
  // definite stops it at column L->minor < n with status CHOLMOD_NOT_POSDEF (a warning).
  const int ok = cholmod_factorize(m.A, m.L, &m.common);
  return ok && m.common.status == CHOLMOD_OK && m.L->minor == m.L->n;
}

void SparseCholesky::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) {
  Impl& m = *impl_;
  if (x.size() != n_) throw Error("sparse Cholesky: right-hand side of the wrong size");
  if (n_ == 0) return;
  double* b = static_cast<double*>(m.B->x);
  for (int k = 0; k < n_; ++k) b[k] = x[m.perm[static_cast<std::size_t>(k)]];
  if (m.simplicial) {
    m.simplicialFactor.solveInPlace(b);
    for (int k = 0; k < n_; ++k) x[m.perm[static_cast<std::size_t>(k)]] = b[k];
    return;
  }
  // X, Y and E are allocated by the first call and reused by the next ones.
  if (!cholmod_solve2(CHOLMOD_A, m.L, m.B, nullptr, &m.X, nullptr, &m.Y, &m.E, &m.common))
    throw Error("sparse Cholesky: the solve failed (CHOLMOD status " + std::to_string(m.common.status) + ")");
  const double* y = static_cast<const double*>(m.X->x);
  for (int k = 0; k < n_; ++k) x[m.perm[static_cast<std::size_t>(k)]] = y[k];
}

}  // namespace articula
