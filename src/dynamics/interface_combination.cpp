#include "articula/dynamics/interface_combination.hpp"

#include <algorithm>
#include <string>

#include "articula/core/error.hpp"
#include "semidefinite_solver.hpp"

namespace articula {

namespace {
int slotOf(const std::vector<int>& stacked, int body) {
  if (body == 0) return -1;
  const auto it = std::find(stacked.begin(), stacked.end(), body);
  if (it == stacked.end())
    throw Error("distributed formulation: body " + std::to_string(body) + " ends a link but is no handle of the subsystems joined");
  return static_cast<int>(it - stacked.begin());
}
}  // namespace

InterfaceCombination::InterfaceCombination(const std::vector<std::vector<int>>& children, std::vector<int> links,
                                           const std::vector<InterfaceLink>& allLinks, std::vector<int> kept)
    : links_(std::move(links)), kept_(std::move(kept)) {
  std::vector<int> stacked;
  childStart_.push_back(0);
  for (const auto& c : children) {
    stacked.insert(stacked.end(), c.begin(), c.end());
    childStart_.push_back(static_cast<int>(stacked.size()));
  }
  int rows = 0;
  for (int l : links_) {
    const InterfaceLink& link = allLinks[static_cast<std::size_t>(l)];
    endSlotA_.push_back(slotOf(stacked, link.bodyA));
    endSlotB_.push_back(slotOf(stacked, link.bodyB));
    rows += link.rows;
  }
  for (int h : kept_) keptSlot_.push_back(slotOf(stacked, h));
  for (std::size_t c = 0; c + 1 < childStart_.size(); ++c)
    childOfSlot_.insert(childOfSlot_.end(), static_cast<std::size_t>(childStart_[c + 1] - childStart_[c]), static_cast<int>(c));
  const Eigen::Index n6 = 6 * static_cast<Eigen::Index>(stacked.size()), k6 = 6 * static_cast<Eigen::Index>(kept_.size());
  d_ = Eigen::MatrixXd::Zero(n6, n6);
  G_ = Eigen::MatrixXd::Zero(rows, n6);
  X_.resize(n6, rows);
  P_.resize(rows, rows);
  Z_.resize(rows, k6);
  r_.resize(n6);
  u_.resize(rows);
  lambda0_.resize(rows);
  lambda_.resize(rows);
  forces_.resize(n6);
  solver_ = std::make_unique<detail::SemidefiniteSolver>(rows);
}

InterfaceCombination::~InterfaceCombination() = default;
InterfaceCombination::InterfaceCombination(InterfaceCombination&&) noexcept = default;

int InterfaceCombination::rank() const { return solver_->rank(); }

bool InterfaceCombination::up(const std::vector<const SubsystemInterface*>& children,
                              const std::vector<InterfaceLink>& allLinks, SubsystemInterface& out) {
  // Eq. (4): the children's equations stacked (d block diagonal, the off-diagonal blocks stay 0).
  for (std::size_t c = 0; c < children.size(); ++c) {
    const Eigen::Index at = 6 * childStart_[c], n = 6 * (childStart_[c + 1] - childStart_[c]);
    d_.block(at, at, n, n) = children[c]->D;
    r_.segment(at, n) = children[c]->R;
  }
  if (rows() == 0) {  // links without rows (free joints): the kept handles' equations pass through
    if (!r_.allFinite()) return false;
    for (std::size_t a = 0; a < kept_.size(); ++a) {
      const Eigen::Index sa = 6 * keptSlot_[a];
      out.R.segment(6 * static_cast<Eigen::Index>(a), 6) = r_.segment(sa, 6);
      for (std::size_t b = 0; b < kept_.size(); ++b)
        out.D.block(6 * static_cast<Eigen::Index>(a), 6 * static_cast<Eigen::Index>(b), 6, 6) =
            d_.block(sa, 6 * keptSlot_[b], 6, 6);
    }
    return true;
  }
  Eigen::Index row = 0;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    const InterfaceLink& link = allLinks[static_cast<std::size_t>(links_[k])];
    if (endSlotA_[k] >= 0) G_.block(row, 6 * endSlotA_[k], link.rows, 6) = link.GA;
    if (endSlotB_[k] >= 0) G_.block(row, 6 * endSlotB_[k], link.rows, 6) = link.GB;
    u_.segment(row, link.rows) = link.u;
    row += link.rows;
  }
  // X = d G^T, P = G d G^T (eq. (5)) and u - G r from the nonzero blocks only: a link's rows of G
  // have one 6-column block per end, and d is block diagonal by child. (Dense products of these
  // few-tens-of-rows matrices went through Eigen's blocked product at several times the cost.)
  X_.setZero();
  P_.setZero();
  lambda0_ = u_;
  row = 0;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    const int rows = allLinks[static_cast<std::size_t>(links_[k])].rows;
    for (const int slot : {endSlotA_[k], endSlotB_[k]}) {
      if (slot < 0 || rows == 0) continue;
      const int c = childOfSlot_[static_cast<std::size_t>(slot)];
      const Eigen::Index at = 6 * childStart_[static_cast<std::size_t>(c)],
                         n = 6 * (childStart_[static_cast<std::size_t>(c) + 1] - childStart_[static_cast<std::size_t>(c)]);
      for (int j = 0; j < rows; ++j)
        for (int m = 0; m < 6; ++m)
          X_.col(row + j).segment(at, n) += G_(row + j, 6 * slot + m) * d_.col(6 * slot + m).segment(at, n);
      lambda0_.segment(row, rows).noalias() -= G_.block(row, 6 * slot, rows, 6) * r_.segment(6 * slot, 6);
    }
    row += rows;
  }
  row = 0;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    const int rows = allLinks[static_cast<std::size_t>(links_[k])].rows;
    for (const int slot : {endSlotA_[k], endSlotB_[k]})
      if (slot >= 0 && rows > 0)
        P_.middleRows(row, rows).noalias() += G_.block(row, 6 * slot, rows, 6) * X_.middleRows(6 * slot, 6);
    row += rows;
  }
  if (!solver_->compute(P_) || !r_.allFinite() || !u_.allFinite()) return false;
  solver_->solveInPlace(lambda0_);  // V of eq. (5)
  const Eigen::Index k = static_cast<Eigen::Index>(kept_.size());
  for (Eigen::Index a = 0; a < k; ++a) {
    // Z = P^+ (E^T d G^T)^T: column block a from the kept handle's rows of X.
    Z_.middleCols(6 * a, 6) = X_.middleRows(6 * keptSlot_[static_cast<std::size_t>(a)], 6).transpose();
    for (int c = 0; c < 6; ++c) solver_->solveInPlace(Z_.col(6 * a + c));
  }
  for (Eigen::Index a = 0; a < k; ++a) {
    const Eigen::Index sa = 6 * keptSlot_[static_cast<std::size_t>(a)];
    out.R.segment(6 * a, 6) = r_.segment(sa, 6);
    out.R.segment(6 * a, 6).noalias() += X_.middleRows(sa, 6) * lambda0_;  // eq. (6): R
    for (Eigen::Index b = 0; b < k; ++b) {
      const Eigen::Index sb = 6 * keptSlot_[static_cast<std::size_t>(b)];
      out.D.block(6 * a, 6 * b, 6, 6) = d_.block(sa, sb, 6, 6);
      out.D.block(6 * a, 6 * b, 6, 6).noalias() -= X_.middleRows(sa, 6) * Z_.middleCols(6 * b, 6);  // eq. (6): D
    }
  }
  return true;
}

void InterfaceCombination::down(const Eigen::VectorXd& Q) {
  if (rows() == 0) {
    forces_.setZero();
  } else {
    lambda_ = lambda0_;
    lambda_.noalias() -= Z_ * Q;  // eq. (5): lambda = S Q' + V with S = -Z
    forces_.noalias() = G_.transpose() * lambda_;
  }
  for (std::size_t a = 0; a < kept_.size(); ++a) forces_.segment(6 * keptSlot_[a], 6) += Q.segment(6 * static_cast<Eigen::Index>(a), 6);
}

}  // namespace articula
