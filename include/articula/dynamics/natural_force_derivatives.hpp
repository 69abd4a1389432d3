// Stiffness and damping matrices of the applied forces in natural coordinates by forward
// differences, K = -dQ/dx and C = -dQ/dx-dot (seed 004 eq. (52)-(53), there in relative
// coordinates), for the tangent matrix of the global formulation (seed 001 eq. (26)) with forces
// of any kind. In natural coordinates M is constant and there are no velocity-product forces, so
// Q holds only the applied forces (NaturalCoordinates::appliedForces).
//
// Structure: each force element reads some coordinates and adds to some rows of Q
// (NaturalCoordinates::forceSupports), so column j of K can change only the rows written by the
// elements that read x_j (of C: that read x-dot_j). K and C are stored in that pattern, in
// compressed-column form. Columns whose rows do not overlap are perturbed together and cost one
// evaluation of Q (seed 004 section 3.3, colourColumns as in force_derivatives.hpp); the position
// and velocity groups are evaluated in parallel with OpenMP (section 3.2), each thread in its own
// buffers.
//
// Results are identical for every thread count and with or without grouping: each entry comes
// from one evaluation of Q whose rows in the column's pattern see only that column's perturbation,
// computed by the same operations whichever thread runs it, and nothing is reduced across threads.
#pragma once

#include <memory>
#include <vector>

#include "articula/dynamics/force_derivatives.hpp"
#include "articula/dynamics/natural_coordinates.hpp"

namespace articula {

class NaturalForceDerivatives {
 public:
  /// Throws articula::Error when options.threads < 1.
  NaturalForceDerivatives(const NaturalCoordinates& natural, const ForceDerivativeOptions& options = {});
  ~NaturalForceDerivatives();
  NaturalForceDerivatives(const NaturalForceDerivatives&) = delete;
  NaturalForceDerivatives& operator=(const NaturalForceDerivatives&) = delete;

  /// K and C at (t, x, x-dot), joint angles read on the branch of qNear, by forward differences
  /// from Q = appliedForces(t, x, x-dot, qNear) (given: the caller has it already). Never
  /// allocates (unless a force element throws, which is rethrown here).
  void evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd, const Eigen::VectorXd& qNear,
                const Eigen::VectorXd& Q);

  /// The pattern of K and C, n x n in compressed-column form: the rows of column j are
  /// rowIndex()[columnStart()[j] .. columnStart()[j + 1]), ascending.
  int size() const { return static_cast<int>(columnStart_.size()) - 1; }
  const std::vector<int>& columnStart() const { return columnStart_; }
  const std::vector<int>& rowIndex() const { return rowIndex_; }
  /// K and C in that pattern (C is zero where no element reads the column's velocity).
  const Eigen::VectorXd& stiffness() const { return K_; }
  const Eigen::VectorXd& damping() const { return C_; }
  /// The same, dense (tests, inspection).
  Eigen::MatrixXd denseStiffness() const;
  Eigen::MatrixXd denseDamping() const;

  /// Columns evaluated together: by a position perturbation (K), by a velocity one (C).
  const std::vector<std::vector<int>>& positionGroups() const { return positionGroups_; }
  const std::vector<std::vector<int>>& velocityGroups() const { return velocityGroups_; }

 private:
  struct ThreadBuffers;

  const NaturalCoordinates& natural_;
  ForceDerivativeOptions options_;
  std::vector<int> columnStart_, rowIndex_;
  // Entries (indices into rowIndex_) a position or a velocity perturbation of column j changes:
  // positionEntry_[positionStart_[j] .. positionStart_[j + 1]), likewise for velocities.
  std::vector<int> positionStart_, positionEntry_, velocityStart_, velocityEntry_;
  std::vector<std::vector<int>> positionGroups_, velocityGroups_;
  std::vector<std::unique_ptr<ThreadBuffers>> buffers_;  // one per thread, separately allocated
  Eigen::VectorXd K_, C_;
};

}  // namespace articula
