// Private to src/optimize: evaluates the cost terms of a problem at one state, for the
// trajectory gradients (trajectory_gradient.cpp). The running cost h(t, x, u) and the terminal
// cost S(x) of seed 002 eq. (4.1), x = [q; v].
#pragma once

#include <vector>

#include "articula/dynamics/absolute_hamiltonian_system.hpp"
#include "articula/dynamics/kinematic_adjoint.hpp"
#include "articula/kinematics/workspace.hpp"
#include "articula/optimize/problem.hpp"

namespace articula::detail {

class CostEvaluator {
 public:
  /// The model is the working model of the gradient (controls appended); x0 gives the marker
  /// positions that "initial" targets track.
  CostEvaluator(const Model& model, const std::vector<CostTerm>& terms, const Eigen::VectorXd& x0);

  /// h(t, x, u): the sum of the running terms. Never allocates.
  double running(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u);
  /// S(x) at the final time tf: the sum of the terminal terms. Never allocates.
  double terminal(double tf, const Eigen::VectorXd& x);
  bool hasRunning() const { return hasRunning_; }
  /// qbar += scale dh/dq, vbar += scale dh/dv and gu += scale dh/du at (t, x, u), with the
  /// kinematics of `at`, which has just been prepared at this x (x = [q; v] for the joint terms).
  /// Never allocates.
  void addRunningGradient(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, double scale,
                          const KinematicAdjoint& at, Eigen::Ref<Eigen::VectorXd> qbar,
                          Eigen::Ref<Eigen::VectorXd> vbar, Eigen::Ref<Eigen::VectorXd> gu) const;
  /// From now on x is the state of the absolute-coordinate formulation `system`, which gives the
  /// poses and velocities. Throws articula::Error for a term on joint coordinates.
  void useAbsoluteCoordinates(AbsoluteHamiltonianSystem& system);
  bool hasTerminal() const { return hasTerminal_; }

 private:
  double sum(bool terminal, double t, const Eigen::VectorXd& x, const Eigen::VectorXd* u);
  const Model& model_;
  std::vector<CostTerm> terms_;
  std::vector<Vec3> initialMarker_;  // per term: the marker's position at t = 0
  bool needVelocities_ = false, hasRunning_ = false, hasTerminal_ = false;
  Workspace ws_;
  AbsoluteHamiltonianSystem* absolute_ = nullptr;
  Eigen::VectorXd q_, v_;
};

}  // namespace articula::detail
