#include "articula/dynamics/force_derivatives.hpp"

#include <cmath>
#include <limits>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "column_colouring.hpp"
#include "thread_buffers.hpp"

namespace articula {

namespace {

// Forward-difference step: the square root of the machine epsilon balances truncation
// (step times Q'') against round-off (eps |Q| / step); scaled by the size of a velocity.
const double kRelativeStep = std::sqrt(std::numeric_limits<double>::epsilon());

}  // namespace

// Everything one thread touches, allocated by that object alone: no two threads share a cache line.
struct ForceDerivatives::ThreadBuffers {
  explicit ThreadBuffers(const Model& model)
      : ws(model), dynamics(model), q(model.nq), v(model.nv), step(Eigen::VectorXd::Zero(model.nv)), Q(model.nv) {}
  Workspace ws;
  SemiRecursiveDynamics dynamics;
  Eigen::VectorXd q, v, step, Q;
};

ForceDerivatives::ForceDerivatives(const Model& model, const ForceDerivativeOptions& options)
    : model_(model), options_(options), Q0_(model.nv) {
  if (options.threads < 1) throw Error("force derivatives: the thread count must be at least 1");
  const int n = model.nv, bodies = model.bodyCount();
  // Bodies each body's coordinates move: its subtree (children come after their parents).
  std::vector<std::vector<int>> subtree(static_cast<std::size_t>(bodies + 1));
  for (int b = bodies; b >= 1; --b) {
    subtree[b].push_back(b);
    for (int c = b + 1; c <= bodies; ++c)
      if (model.parent(c) == b) subtree[b].insert(subtree[b].end(), subtree[c].begin(), subtree[c].end());
  }
  // Structural pattern of each column: the paths of every moved body and of every body a
  // point spring ties to a moved body (joint-level elements stay on their own coordinate).
  pattern_.assign(static_cast<std::size_t>(n), {});
  for (int b = 1; b <= bodies; ++b) {
    std::vector<char> row(static_cast<std::size_t>(n), 0);
    std::vector<char> moved(static_cast<std::size_t>(bodies + 1), 0);
    for (int m : subtree[b]) moved[m] = 1;
    auto addPath = [&](int body) {  // the rows of Q that forces acting on the body enter
      for (int r : pathCoordinates(model, body)) row[r] = 1;
    };
    for (int m : subtree[b]) addPath(m);
    for (const auto& s : model.pointSprings)
      if (moved[s.bodyA] || moved[s.bodyB]) {
        addPath(s.bodyA);
        addPath(s.bodyB);
      }
    std::vector<int> rows;
    for (int r = 0; r < n; ++r)
      if (row[r]) rows.push_back(r);
    for (int k = 0; k < model.joints[b].nv; ++k) pattern_[model.joints[b].iv + k] = rows;
  }
  // Every column's pattern holds its own row, so every column joins a group.
  groups_ = colourColumns(pattern_, n, options.groupColumns);
  for (int k = 0; k < options.threads; ++k) buffers_.push_back(std::make_unique<ThreadBuffers>(model));
}

ForceDerivatives::~ForceDerivatives() = default;

void ForceDerivatives::forces(ThreadBuffers& b, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  updateVelocities(model_, b.ws, q, v);
  evaluateForceElements(model_, b.ws, t, q, v);
  b.dynamics.forces(b.ws, b.Q);
}

void ForceDerivatives::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::MatrixXd> C) {
  forces(*buffers_[0], t, q, v);
  Q0_ = buffers_[0]->Q;
  K.setZero();
  C.setZero();
  // Task k < groups: a position perturbation (K); otherwise a velocity perturbation (C).
  const int groupCount = static_cast<int>(groups_.size());
  const int tasks = 2 * groupCount;
#pragma omp parallel for num_threads(options_.threads) schedule(static)
  for (int task = 0; task < tasks; ++task) {
    ThreadBuffers& b = ownBuffers(buffers_);
    const bool position = task < groupCount;
    const std::vector<int>& group = groups_[static_cast<std::size_t>(position ? task : task - groupCount)];
    b.q = q;
    b.v = v;
    for (int j : group) b.step[j] = kRelativeStep * (1.0 + std::abs(v[j]));
    if (position)
      integrateConfiguration(model_, b.q, b.step);  // seed 004 eq. (52)
    else
      b.v += b.step;  // eq. (53)
    forces(b, t, b.q, b.v);
    Eigen::Ref<Eigen::MatrixXd> target = position ? K : C;
    for (int j : group) {
      const double inverse = 1.0 / b.step[j];
      for (int r : pattern_[static_cast<std::size_t>(j)]) target(r, j) = -(b.Q[r] - Q0_[r]) * inverse;
      b.step[j] = 0.0;
    }
  }
}

}  // namespace articula
