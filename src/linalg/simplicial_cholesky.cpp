#include "simplicial_cholesky.hpp"

#include <algorithm>
#include <cmath>

namespace articula {

void SimplicialCholesky::analyze(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex,
                                 const std::vector<int>& valueIndex) {
  n_ = n;
  const auto N = static_cast<std::size_t>(n);
  // The lower triangle by columns: the upper triangle's entry (i, j), i <= j, is row j of column i.
  sourceStart_.assign(N + 1, 0);
  for (int i : rowIndex) ++sourceStart_[static_cast<std::size_t>(i) + 1];
  for (std::size_t i = 0; i < N; ++i) sourceStart_[i + 1] += sourceStart_[i];
  sourceRow_.assign(rowIndex.size(), 0);
  sourceValue_.assign(rowIndex.size(), 0);
  {
    std::vector<int> next(sourceStart_.begin(), sourceStart_.end() - 1);
    for (int j = 0; j < n; ++j)
      for (int p = columnStart[static_cast<std::size_t>(j)]; p < columnStart[static_cast<std::size_t>(j) + 1]; ++p) {
        const int slot = next[static_cast<std::size_t>(rowIndex[static_cast<std::size_t>(p)])]++;
        sourceRow_[static_cast<std::size_t>(slot)] = j;
        sourceValue_[static_cast<std::size_t>(slot)] = valueIndex[static_cast<std::size_t>(p)];
      }
  }
  // The pattern of L's column j: the matrix's column j below the diagonal and the patterns of its
  // children in the elimination tree less the children themselves (parent(c) = the first row
  // below the diagonal of column c). Children have smaller indices, so one pass in order does it.
  std::vector<std::vector<int>> pattern(N), children(N);
  std::vector<int> mark(N, -1);
  for (int j = 0; j < n; ++j) {
    auto& rows = pattern[static_cast<std::size_t>(j)];
    auto add = [&](int r) {
      if (r > j && mark[static_cast<std::size_t>(r)] != j) {
        mark[static_cast<std::size_t>(r)] = j;
        rows.push_back(r);
      }
    };
    for (int s = sourceStart_[static_cast<std::size_t>(j)]; s < sourceStart_[static_cast<std::size_t>(j) + 1]; ++s)
      add(sourceRow_[static_cast<std::size_t>(s)]);
    for (int c : children[static_cast<std::size_t>(j)])
      for (int r : pattern[static_cast<std::size_t>(c)]) add(r);
    std::sort(rows.begin(), rows.end());
    if (!rows.empty()) children[static_cast<std::size_t>(rows.front())].push_back(j);
  }
  start_.assign(N + 1, 0);
  row_.clear();
  for (int j = 0; j < n; ++j) {
    row_.push_back(j);
    row_.insert(row_.end(), pattern[static_cast<std::size_t>(j)].begin(), pattern[static_cast<std::size_t>(j)].end());
    start_[static_cast<std::size_t>(j) + 1] = static_cast<int>(row_.size());
  }
  value_.assign(row_.size(), 0.0);
  // Column k updates column r for every r below k's diagonal, from the position of L(r, k) on.
  updateStart_.assign(N + 1, 0);
  for (int k = 0; k < n; ++k)
    for (int p = start_[static_cast<std::size_t>(k)] + 1; p < start_[static_cast<std::size_t>(k) + 1]; ++p)
      ++updateStart_[static_cast<std::size_t>(row_[static_cast<std::size_t>(p)]) + 1];
  for (std::size_t j = 0; j < N; ++j) updateStart_[j + 1] += updateStart_[j];
  updatePosition_.assign(static_cast<std::size_t>(updateStart_[N]), 0);
  updateEnd_.assign(updatePosition_.size(), 0);
  std::vector<int> next(updateStart_.begin(), updateStart_.end() - 1);
  for (int k = 0; k < n; ++k)
    for (int p = start_[static_cast<std::size_t>(k)] + 1; p < start_[static_cast<std::size_t>(k) + 1]; ++p) {
      const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(row_[static_cast<std::size_t>(p)])]++);
      updatePosition_[slot] = p;
      updateEnd_[slot] = start_[static_cast<std::size_t>(k) + 1];
    }
  work_.assign(N, 0.0);
}

bool SimplicialCholesky::factorize(const double* values) {
  double* w = work_.data();
  double* L = value_.data();
  const int* row = row_.data();
  for (int j = 0; j < n_; ++j) {
    for (int s = sourceStart_[static_cast<std::size_t>(j)]; s < sourceStart_[static_cast<std::size_t>(j) + 1]; ++s)
      w[sourceRow_[static_cast<std::size_t>(s)]] = values[sourceValue_[static_cast<std::size_t>(s)]];
    // Column j less L(j:n, k) L(j, k) for every earlier column k with L(j, k) != 0; rows ascend,
    // so column k's rows from j on start at L(j, k) itself.
    for (int u = updateStart_[static_cast<std::size_t>(j)]; u < updateStart_[static_cast<std::size_t>(j) + 1]; ++u) {
      const int first = updatePosition_[static_cast<std::size_t>(u)], end = updateEnd_[static_cast<std::size_t>(u)];
      const double ljk = L[first];
      for (int q = first; q < end; ++q) w[row[q]] -= ljk * L[q];
    }
    const int diagonal = start_[static_cast<std::size_t>(j)], end = start_[static_cast<std::size_t>(j) + 1];
    const double pivot = w[j];
    w[j] = 0.0;
    if (!(pivot > 0.0) || !std::isfinite(pivot)) {
      for (int q = diagonal + 1; q < end; ++q) w[row[q]] = 0.0;  // the accumulator stays zero
      return false;
    }
    const double ljj = std::sqrt(pivot), inverse = 1.0 / ljj;
    L[diagonal] = ljj;
    for (int q = diagonal + 1; q < end; ++q) {
      L[q] = w[row[q]] * inverse;
      w[row[q]] = 0.0;
    }
  }
  return true;
}

void SimplicialCholesky::solveInPlace(double* x) const {
  const double* L = value_.data();
  const int* row = row_.data();
  for (int j = 0; j < n_; ++j) {  // L y = x
    const int diagonal = start_[static_cast<std::size_t>(j)], end = start_[static_cast<std::size_t>(j) + 1];
    const double y = x[j] / L[diagonal];
    x[j] = y;
    for (int q = diagonal + 1; q < end; ++q) x[row[q]] -= L[q] * y;
  }
  for (int j = n_ - 1; j >= 0; --j) {  // L^T x = y
    const int diagonal = start_[static_cast<std::size_t>(j)], end = start_[static_cast<std::size_t>(j) + 1];
    double s = x[j];
    for (int q = diagonal + 1; q < end; ++q) s -= L[q] * x[row[q]];
    x[j] = s / L[diagonal];
  }
}

}  // namespace articula
