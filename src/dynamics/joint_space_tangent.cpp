#include "articula/dynamics/joint_space_tangent.hpp"

#include <algorithm>
#include <cmath>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

JointSpaceTangent::JointSpaceTangent(const Model& model)
    : dense_(model.nv <= kDenseOrder),
      denseT_(Eigen::MatrixXd::Zero(dense_ ? model.nv : 0, dense_ ? model.nv : 0)) {
  const int n = model.nv;
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(n));  // upper-triangle rows of each column
  auto couple = [&](const std::vector<int>& coordinates) {
    for (std::size_t a = 0; a < coordinates.size(); ++a)
      for (std::size_t b = a; b < coordinates.size(); ++b)
        rows[static_cast<std::size_t>(coordinates[b])].push_back(coordinates[a]);
  };
  // M: every coordinate with the coordinates of its own joint and of the joints towards the root.
  for (int body = 1; body <= model.bodyCount(); ++body) {
    const std::vector<int> path = pathCoordinates(model, body);
    for (int k = 0; k < model.joints[body].nv; ++k)
      for (int i : path)
        if (i <= model.joints[body].iv + k) rows[static_cast<std::size_t>(model.joints[body].iv + k)].push_back(i);
  }
  // Point springs and dampers (joint-level ones and prescribed motions sit on M's diagonal).
  for (const auto& s : model.pointSprings)
    couple(pathCoordinates(model, s.bodyA, s.bodyB));
  // Constraint rows couple the coordinates of their support (loop rows, prescribed motions).
  const JacobianPattern pattern = jacobianPattern(model);
  for (std::size_t r = 0; r + 1 < pattern.start.size(); ++r)
    couple({pattern.columns.begin() + pattern.start[r], pattern.columns.begin() + pattern.start[r + 1]});

  std::vector<int> columnStart(static_cast<std::size_t>(n) + 1, 0), rowIndex;
  for (int j = 0; j < n; ++j) {
    auto& c = rows[static_cast<std::size_t>(j)];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    for (int i : c) {
      rowIndex.push_back(i);
      entryRow_.push_back(i);
      entryColumn_.push_back(j);
    }
    columnStart[static_cast<std::size_t>(j) + 1] = static_cast<int>(rowIndex.size());
  }
  auto indexOf = [&](int i, int j) {
    if (i > j) std::swap(i, j);
    const auto first = rowIndex.begin() + columnStart[static_cast<std::size_t>(j)];
    const auto last = rowIndex.begin() + columnStart[static_cast<std::size_t>(j) + 1];
    return static_cast<int>(std::lower_bound(first, last, i) - rowIndex.begin());
  };
  support_ = pattern;
  pairStart_.assign(1, 0);
  for (std::size_t r = 0; r + 1 < support_.start.size(); ++r) {
    for (int a = support_.start[r]; a < support_.start[r + 1]; ++a)
      for (int b = a; b < support_.start[r + 1]; ++b)
        pairIndex_.push_back(indexOf(support_.columns[a], support_.columns[b]));
    pairStart_.push_back(static_cast<int>(pairIndex_.size()));
  }
  if (!dense_) cholesky_.analyze(n, columnStart, rowIndex);  // ordering and symbolic factorisation, once per model
}

void JointSpaceTangent::assemble(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, double stiffnessWeight,
                                 const Eigen::MatrixXd& C, double dampingWeight, const Eigen::MatrixXd& J,
                                 double constraintWeight) {
  const bool springs = K.size() > 0;
  if (dense_) {
    const Eigen::Index n = M.rows();
    for (Eigen::Index j = 0; j < n; ++j)
      if (springs)
        denseT_.col(j).head(j + 1) =
            M.col(j).head(j + 1) + stiffnessWeight * K.col(j).head(j + 1) + dampingWeight * C.col(j).head(j + 1);
      else
        denseT_.col(j).head(j + 1) = M.col(j).head(j + 1);
  } else {
    Eigen::Map<Eigen::VectorXd> values = cholesky_.values();
    for (std::size_t k = 0; k < entryRow_.size(); ++k) {
      const int i = entryRow_[k], j = entryColumn_[k];
      values[static_cast<Eigen::Index>(k)] =
          springs ? M(i, j) + stiffnessWeight * K(i, j) + dampingWeight * C(i, j) : M(i, j);
    }
  }
  if (constraintWeight == 0.0) return;
  // w J^T J over each row's support: the pairs a <= b of its columns (upper triangle).
  const std::vector<int>&start = support_.start, &columns = support_.columns;
  double* values = dense_ ? nullptr : cholesky_.values().data();
  for (int r = 0; r + 1 < static_cast<int>(start.size()); ++r) {
    int p = pairStart_[static_cast<std::size_t>(r)];
    for (int a = start[r]; a < start[r + 1]; ++a) {
      const double wa = constraintWeight * J(r, columns[a]);
      for (int b = a; b < start[r + 1]; ++b, ++p) {
        const double value = wa * J(r, columns[b]);
        if (dense_)
          denseT_(columns[a], columns[b]) += value;
        else
          values[pairIndex_[static_cast<std::size_t>(p)]] += value;
      }
    }
  }
}

bool JointSpaceTangent::factorize() {
  if (!dense_) return cholesky_.factorize();
  // T = U^T U in place, column by column (U upper triangular): at this size a loop of short dot
  // products costs a third of Eigen's LLT, whose per-column matrix-vector products are overhead.
  Eigen::MatrixXd& U = denseT_;
  for (Eigen::Index j = 0; j < U.cols(); ++j) {
    for (Eigen::Index i = 0; i < j; ++i) U(i, j) = (U(i, j) - U.col(i).head(i).dot(U.col(j).head(i))) / U(i, i);
    const double pivot = U(j, j) - U.col(j).head(j).squaredNorm();
    if (!(pivot > 0.0) || !std::isfinite(pivot)) return false;  // not positive definite, or NaN
    U(j, j) = std::sqrt(pivot);
  }
  return true;
}

void JointSpaceTangent::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) {
  if (!dense_) return cholesky_.solveInPlace(x);
  denseT_.triangularView<Eigen::Upper>().transpose().solveInPlace(x);  // U^T y = x
  denseT_.triangularView<Eigen::Upper>().solveInPlace(x);              // U x = y
}

}  // namespace articula
