// Featherstone's divide-and-conquer algorithm (DCA) at acceleration level on open trees
// (thesis section 3.4, the force-level sweep of 3.4.2; Featherstone 1999), in the ODE form.
//
// Every subassembly of the assembly tree is described by its handle equations, linear in the
// spatial forces f_1 (through its top body's parent joint) and f_2 (the sum of the forces on its
// bottom body from the joints below it):
//   a_1 = Phi_11 f_1 + Phi_12 f_2 + b_1,   a_2 = Phi_21 f_1 + Phi_22 f_2 + b_2.
// The handle equations and their assembly, base connection and disassembly are those of
// dynamics/handle_assembly.hpp, with m the spatial accelerations, f the spatial forces, the leaf
// biases from the applied and velocity-product forces, the joint biases the velocity-product
// accelerations and the joint loads the applied joint forces. Assembly runs from the leaves to
// the roots; each root is then solved against the ground, and disassembly runs back down, giving
// each joint's spatial force and its joint accelerations. With `threads` > 1 the subtrees of the
// assembly tree are shared among a thread team's threads (dynamics/tree_schedule.hpp), and results are
// identical bit for bit for every thread count.
#pragma once

#include <vector>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/handle_assembly.hpp"

namespace articula {

struct DcaOptions {
  int threads = 1;  ///< threads sharing the tree's subtrees (1 = serial; parallel/thread_team.hpp)
  PairingPolicy pairing = balancedPairing;
};

class DcaFormulation final : public Formulation {
 public:
  /// Throws articula::Error for a model with loop closures or prescribed motion, or threads < 1.
  explicit DcaFormulation(const Model& model, const DcaOptions& options = {});
  std::string_view name() const override { return "dca"; }
  /// Joint accelerations at (t, q, v), force elements and gravity included. Does not allocate.
  /// Throws articula::Error naming the joint whose mobility is singular or not finite.
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;

  const AssemblyTree& tree() const { return handles_.tree(); }
  /// After accelerations(): the spatial force that body i receives from its parent across joint i
  /// (world axes, about body i's origin; index 0 unused), gravity included through the
  /// base acceleration (the ground accelerates at -g), applied joint forces included.
  const std::vector<Vec6>& jointForces() const { return handles_.jointForces(); }

 private:
  void leafEquations(int body);
  void sweep(Eigen::VectorXd& vdot);

  const Model& model_;
  Workspace ws_;
  HandleAssembly handles_;
};

}  // namespace articula
