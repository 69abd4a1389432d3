// Stiffness and damping matrices of general forces by finite differences (seed 004 eq. (52)-(53)):
// K = -dQ/dz and C = -dQ/dzdot, column by column, in parallel with OpenMP (seed 004 section 3.2)
// and with columns grouped by the topology (section 3.3): columns whose rows cannot overlap are
// perturbed together and cost one evaluation of Q. The grouping is a greedy colouring of the
// column-intersection graph of the structural pattern (Curtis, Powell and Reid 1974).
//
// Results are identical for every thread count: each column is computed by one thread with the
// same operations in the same order, and nothing is reduced across threads.
#pragma once

#include <memory>
#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

struct ForceDerivativeOptions {
  int threads = 1;            ///< OpenMP threads (1 = serial; ignored without OpenMP)
  bool groupColumns = true;   ///< perturb structurally independent columns together
};

class ForceDerivatives {
 public:
  ForceDerivatives(const Model& model, const ForceDerivativeOptions& options = {});
  ~ForceDerivatives();

  /// K and C (nv x nv, overwritten) at (t, q, v), by forward differences of Q (the semi-recursive
  /// forces: applied, gravity and velocity products). Never allocates.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::Ref<Eigen::MatrixXd> K,
                Eigen::Ref<Eigen::MatrixXd> C);

  /// The column groups: each inner list holds columns evaluated by one perturbed evaluation.
  const std::vector<std::vector<int>>& groups() const { return groups_; }
  /// Rows of Q that coordinate j can change (sorted): the structural pattern of column j.
  const std::vector<int>& pattern(int column) const { return pattern_[static_cast<std::size_t>(column)]; }

 private:
  struct ThreadBuffers;
  void forces(ThreadBuffers& b, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  const Model& model_;
  ForceDerivativeOptions options_;
  std::vector<std::vector<int>> pattern_;
  std::vector<std::vector<int>> groups_;
  std::vector<std::unique_ptr<ThreadBuffers>> buffers_;  // one per thread, separately allocated
  Eigen::VectorXd Q0_;
};

}  // namespace articula
