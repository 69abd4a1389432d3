// The leaf step of the distributed formulation (seed 003 Step 1, eq. (1)-(3)): a subsystem's
// internal joints condensed into the interface equations a = D Q + R of its handle bodies
// (dynamics/subsystem_interface.hpp).
//
// The seed eliminates the internal joints' multipliers with a dense solve over all the
// subsystem's bodies. A subsystem here is a connected part of the spanning tree, floating (its top
// body's parent joint is a link of the hierarchy), so the same elimination is the articulated-body
// recursion run inside it, in O(bodies): pass 2 of the world-coordinate ABA up to the top body,
// with for each handle h the map T_ih from a force on h to the bias force of the articulated body
// i, T_hh = 1 and T_parent(i),h = P_i T_ih, P_i = 1 - U_i D_i^-1 S_i^T. Unrolling the ABA's
// acceleration pass a_i = P_i^T (a_parent + c_i) + S_i D_i^-1 u_i gives
//     D_gh = sum_i T_ig^T S_i D_i^-1 S_i^T T_ih + T_tg^T IA_t^-1 T_th,
//     R_g  = sum_i T_ig^T (c_i + S_i D_i^-1 (u_i - U_i^T c_i)) - T_tg^T IA_t^-1 pA_t,
// the sums over the bodies i (below the top t) on the paths from both handles to the top; in a
// chain with its two handles at the ends that is three rank-one updates of a 6x6 per body on top
// of the ABA. The handle equations of dynamics/handle_assembly.hpp are the same mobilities for two
// handles assembled pairwise; their joins cost several times more than ABA's passes per body
// (docs/benchmarks.md) and allow two handles only, hence this form.
//
// Once the forces F on the handles are known, expand() runs the acceleration pass with them:
// every body's acceleration (ws.aba.a) and the internal joints' accelerations.
#pragma once

#include <span>
#include <vector>

#include "articula/dynamics/subsystem_interface.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

class SubsystemCondensation {
 public:
  /// bodies: ascending, connected, bodies[0] the top; handles: bodies of the subsystem, handles[0]
  /// the top. Throws articula::Error when a handle is not one of the bodies or handles[0] is not
  /// bodies[0].
  SubsystemCondensation(const Model& model, std::vector<int> bodies, std::vector<int> handles);

  const std::vector<int>& bodies() const { return bodies_; }
  const std::vector<int>& handles() const { return handles_; }
  int top() const { return bodies_.front(); }

  /// Eq. (1)-(3): needs ws.aba from articulatedBodiesFirstPass (dynamics/aba_passes.hpp) with the
  /// forces of the links' actuation already in pA; runs pass 2 inside the subsystem and writes D
  /// (6k x 6k) and R (6k) into out (sized by the caller). Throws articula::Error naming the joint
  /// or the top body when an articulated inertia is singular.
  void condense(Workspace& ws, const Eigen::VectorXd& tau, SubsystemInterface& out);
  /// With the forces F (6k, world axes about the world origin) on the handles: every body's
  /// acceleration in ws.aba.a and the internal joints' accelerations in vdot (the top's joint is a
  /// link: the caller's, seed 003 eq. (8)).
  void expand(Workspace& ws, const Eigen::VectorXd& F, Eigen::Ref<Eigen::VectorXd> vdot) const;

 private:
  const Model& model_;
  std::vector<int> bodies_, handles_;
  std::vector<int> parentLocal_;           // per local body: its parent's local index (-1 for the top)
  // Per local body li: the handle slots in its subtree, belowSlots_[belowStart_[li], belowStart_[li + 1]).
  std::vector<int> belowStart_, belowSlots_;
  std::vector<int> handleSlot_;            // per local body: its handle slot, or -1
  // Per slot h: T_ih^T for the body i the pass has reached on h's path to the top, updated in
  // place (each body's T is read once, by the step that makes its parent's), so the pass streams
  // through one 6x6 per handle instead of one per body; after the pass, T_th^T. Stored transposed
  // because the pass multiplies by T^T: a column-major T^T turns those products into sums of
  // columns, which vectorise, where T's transpose would need a dot product per coefficient.
  std::vector<Mat6> Tt_;
  // Per pair of a local body i and a handle h below it, at i's place in belowSlots_:
  std::vector<SubspaceForce> W_;           // T_ih^T S_i, 6 x nv (several dofs)
  std::vector<Vec6> w1_;                   // T_ih^T s_i (one dof)
  std::vector<Mat6> Dacc_;                 // (slot g, slot h), g <= h: D_gh being accumulated
  std::vector<Vec6> Racc_;                 // per slot: R_g being accumulated
  Mat6 topInverse_;

  // Whether local body li's term of D_hh goes into condense's per-run sums: one dof, and one
  // handle h below it (the other bodies add theirs to D in the pass).
  bool inRunSum(std::size_t li) const {
    return belowStart_[li + 1] - belowStart_[li] == 1 && model_.joints[static_cast<std::size_t>(bodies_[li])].nv == 1;
  }
  std::span<const int> belowOf(std::size_t li) const {
    return {belowSlots_.data() + belowStart_[li], belowSlots_.data() + belowStart_[li + 1]};
  }
};

}  // namespace articula
