// One step of the distributed formulation's hierarchy (seed 003 Step 2-3): interfaces of several
// children (subsystems, or groups combined on the level below) joined by the links between them.
//
// Up (eq. (4)-(6)): the children's handle equations stacked, a = d F + r with d block diagonal,
// and the links' rows G a = u. With the forces F = G^T lambda + E Q' (E places the forces Q' of
// the links still outside on the handles that keep them), the multipliers are
//     P lambda = u - G r - G d E Q',   P = G d G^T                     (eq. (5))
// so lambda = lambda0 - Z Q' with lambda0 = P^+ (u - G r), Z = P^+ G d E, and the handles that
// stay outside move with
//     D = E^T d E - E^T d G^T Z,   R = E^T (r + d G^T lambda0)         (eq. (6))
// P^+ is a generalised inverse through detail::SemidefiniteSolver, which drops dependent rows.
// At the root no handle stays outside and the links include those to the ground, whose known
// acceleration is in u: lambda = lambda0 is eq. (7).
//
// Down: given the forces Q' on the kept handles, lambda and the forces on every child's handles.
//
// up() is a function of the children's D and R and of the link rows only, and down() of Q' and
// the same link rows; so
// the children may live elsewhere (another thread or process) as long as their D, R come up and
// their forces go down. No allocation after construction.
#pragma once

#include <memory>
#include <vector>

#include "articula/dynamics/subsystem_interface.hpp"

namespace articula {

namespace detail {
class SemidefiniteSolver;
}

class InterfaceCombination {
 public:
  /// children: the handle lists of the children, in the order their interfaces are passed to up();
  /// links: indices (into the link array passed to up()) of the links eliminated here, each with
  /// its body ends among the children's handles; kept: the handles that stay outside (a subset of
  /// the children's, in the order of the combined interface). Throws articula::Error when a link
  /// end is no child's handle.
  InterfaceCombination(const std::vector<std::vector<int>>& children, std::vector<int> links,
                       const std::vector<InterfaceLink>& allLinks, std::vector<int> kept);
  ~InterfaceCombination();
  InterfaceCombination(InterfaceCombination&&) noexcept;

  /// Eq. (4)-(6): the combined interface from the children's (same order as at construction).
  /// Returns false when the link equations are not finite.
  bool up(const std::vector<const SubsystemInterface*>& children, const std::vector<InterfaceLink>& allLinks,
          SubsystemInterface& out);
  /// Eq. (5) with the forces Q (6 per kept handle) on the combined interface: the forces on the
  /// children's handles, child c's at childForces(c). allLinks: as passed to the last up().
  void down(const Eigen::VectorXd& Q, const std::vector<InterfaceLink>& allLinks);
  Eigen::VectorXd::ConstSegmentReturnType childForces(int child) const {
    return forces_.segment(6 * childStart_[static_cast<std::size_t>(child)],
                           6 * (childStart_[static_cast<std::size_t>(child) + 1] - childStart_[static_cast<std::size_t>(child)]));
  }
  const std::vector<int>& links() const { return links_; }
  const std::vector<int>& kept() const { return kept_; }
  /// Rows of the eliminated links, and the rank of P at the last up().
  int rows() const { return static_cast<int>(u_.size()); }
  int rank() const;

 private:
  const InterfaceLink::Rows& endRows(const std::vector<InterfaceLink>& allLinks, std::size_t k, int side) const;

  std::vector<int> links_, kept_;
  std::vector<int> childStart_;       // first stacked handle of each child, and the total
  std::vector<int> endSlotA_, endSlotB_;  // per eliminated link: stacked slot of each end (-1: ground)
  std::vector<int> keptSlot_;         // per kept handle: its stacked slot
  std::vector<int> childOfSlot_;      // per stacked slot: its child
  std::vector<int> slotInChild_;      // per stacked slot: its place among its child's handles
  std::vector<int> rowOf_;            // per eliminated link: its first row, and the total
  // The blocks of X = d G^T that up() forms: link, its end (0: A, 1: B) and that end's slot,
  // the slot of X's rows.
  struct XRows {
    int link, side, end, slot;
  };
  std::vector<XRows> xRows_;
  Eigen::MatrixXd X_, P_, Z_;
  Eigen::VectorXd u_, lambda0_, lambda_, forces_;
  std::unique_ptr<detail::SemidefiniteSolver> solver_;
};

}  // namespace articula
