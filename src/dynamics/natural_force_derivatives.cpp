#include "articula/dynamics/natural_force_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iterator>
#include <limits>

#include "column_colouring.hpp"
#include "thread_buffers.hpp"

namespace articula {

namespace {

// Forward-difference step: the square root of the machine epsilon balances truncation (step
// times Q'') against round-off (eps |Q| / step); scaled by the size of the coordinate (positions in
// metres and unit vectors, velocities in m/s).
const double kRelativeStep = std::sqrt(std::numeric_limits<double>::epsilon());

void sortUnique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

Eigen::MatrixXd dense(int n, const std::vector<int>& columnStart, const std::vector<int>& rowIndex,
                      const Eigen::VectorXd& values) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < n; ++j)
    for (int k = columnStart[j]; k < columnStart[j + 1]; ++k) A(rowIndex[k], j) = values[k];
  return A;
}

}  // namespace

// Everything one thread touches, allocated by that object alone: no two threads share a cache line.
struct NaturalForceDerivatives::ThreadBuffers {
  explicit ThreadBuffers(int n) : x(n), xd(n), Q(n) {}
  Eigen::VectorXd x, xd, Q;
  std::exception_ptr error;  // what a force element threw, and in which task
  int errorTask = 0;
};

NaturalForceDerivatives::NaturalForceDerivatives(const NaturalCoordinates& natural,
                                                 const ForceDerivativeOptions& options)
    : natural_(natural), options_(options) {
  if (options.threads < 1) throw Error("force derivatives: the thread count must be at least 1");
  const int n = natural.size();
  // Rows of Q that a position and a velocity perturbation of each column can change.
  std::vector<std::vector<int>> positionRows(static_cast<std::size_t>(n)), velocityRows(positionRows);
  for (const NaturalCoordinates::ForceSupport& s : natural.forceSupports()) {
    for (int j : s.positions) positionRows[j].insert(positionRows[j].end(), s.rows.begin(), s.rows.end());
    for (int j : s.velocities) velocityRows[j].insert(velocityRows[j].end(), s.rows.begin(), s.rows.end());
  }
  // The stored pattern is the union of both; each kind of perturbation knows its entries in it.
  columnStart_.assign(1, 0);
  positionStart_.assign(1, 0);
  velocityStart_.assign(1, 0);
  std::vector<int> rows;
  for (int j = 0; j < n; ++j) {
    sortUnique(positionRows[j]);
    sortUnique(velocityRows[j]);
    rows.clear();
    std::set_union(positionRows[j].begin(), positionRows[j].end(), velocityRows[j].begin(), velocityRows[j].end(),
                   std::back_inserter(rows));
    const int first = static_cast<int>(rowIndex_.size());
    rowIndex_.insert(rowIndex_.end(), rows.begin(), rows.end());
    auto entries = [&](const std::vector<int>& changed, std::vector<int>& start, std::vector<int>& entry) {
      for (int r : changed)
        entry.push_back(first + static_cast<int>(std::lower_bound(rows.begin(), rows.end(), r) - rows.begin()));
      start.push_back(static_cast<int>(entry.size()));
    };
    entries(positionRows[j], positionStart_, positionEntry_);
    entries(velocityRows[j], velocityStart_, velocityEntry_);
    columnStart_.push_back(static_cast<int>(rowIndex_.size()));
  }
  K_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rowIndex_.size()));
  C_ = K_;
  positionGroups_ = colourColumns(positionRows, n, options.groupColumns);
  velocityGroups_ = colourColumns(velocityRows, n, options.groupColumns);
  for (int k = 0; k < options.threads; ++k) buffers_.push_back(std::make_unique<ThreadBuffers>(n));
}

NaturalForceDerivatives::~NaturalForceDerivatives() = default;

void NaturalForceDerivatives::evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd,
                                       const Eigen::VectorXd& qNear, const Eigen::VectorXd& Q) {
  // Task k < positionTasks: a position perturbation (K); otherwise a velocity perturbation (C).
  // Fewer than two tasks (none when gravity is the only force) run without a thread team.
  const int positionTasks = static_cast<int>(positionGroups_.size());
  const int tasks = positionTasks + static_cast<int>(velocityGroups_.size());
  for (const auto& b : buffers_) b->error = nullptr;
#pragma omp parallel for num_threads(options_.threads) schedule(static) if (tasks > 1)
  for (int task = 0; task < tasks; ++task) {
    ThreadBuffers& b = ownBuffers(buffers_);
    if (b.error) continue;  // an exception must not leave the parallel region
    try {
      const bool position = task < positionTasks;
      const std::vector<int>& group = position ? positionGroups_[static_cast<std::size_t>(task)]
                                               : velocityGroups_[static_cast<std::size_t>(task - positionTasks)];
      b.x = x;
      b.xd = xd;
      Eigen::VectorXd& perturbed = position ? b.x : b.xd;
      const Eigen::VectorXd& base = position ? x : xd;
      for (int j : group) perturbed[j] = base[j] + kRelativeStep * (1.0 + std::abs(base[j]));
      natural_.appliedForces(t, b.x, b.xd, qNear, b.Q);
      // K = -dQ/dx, seed 004 eq. (52); C = -dQ/dx-dot, eq. (53).
      const std::vector<int>& start = position ? positionStart_ : velocityStart_;
      const std::vector<int>& entry = position ? positionEntry_ : velocityEntry_;
      Eigen::VectorXd& target = position ? K_ : C_;
      for (int j : group) {
        const double inverse = 1.0 / (perturbed[j] - base[j]);  // the step as represented
        for (int k = start[j]; k < start[j + 1]; ++k) {
          const int e = entry[static_cast<std::size_t>(k)], r = rowIndex_[static_cast<std::size_t>(e)];
          target[e] = -(b.Q[r] - Q[r]) * inverse;
        }
      }
    } catch (...) {
      b.error = std::current_exception();
      b.errorTask = task;
    }
  }
  // Each thread stops at its first failure and runs its tasks in order: the lowest failed task is
  // the same for every thread count.
  const ThreadBuffers* failed = nullptr;
  for (const auto& b : buffers_)
    if (b->error && (!failed || b->errorTask < failed->errorTask)) failed = b.get();
  if (failed) std::rethrow_exception(failed->error);
}

Eigen::MatrixXd NaturalForceDerivatives::denseStiffness() const { return dense(size(), columnStart_, rowIndex_, K_); }

Eigen::MatrixXd NaturalForceDerivatives::denseDamping() const { return dense(size(), columnStart_, rowIndex_, C_); }

}  // namespace articula
