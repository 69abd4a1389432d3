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
    for (int slot = childStart_[c]; slot < childStart_[c + 1]; ++slot) {
      childOfSlot_.push_back(static_cast<int>(c));
      slotInChild_.push_back(slot - childStart_[c]);
    }
  const Eigen::Index n6 = 6 * static_cast<Eigen::Index>(stacked.size()), k6 = 6 * static_cast<Eigen::Index>(kept_.size());
  // X's rows are needed at the link ends (for P) and at the kept handles (for D, R and Z) only.
  std::vector<bool> needed(stacked.size(), false);
  for (const std::vector<int>* slots : {&endSlotA_, &endSlotB_, &keptSlot_})
    for (int slot : *slots)
      if (slot >= 0) needed[static_cast<std::size_t>(slot)] = true;
  for (std::size_t k = 0; k < links_.size(); ++k)
    for (int e = 0; e < 2; ++e) {
      const int end = e == 0 ? endSlotA_[k] : endSlotB_[k];
      if (end < 0) continue;
      const auto c = static_cast<std::size_t>(childOfSlot_[static_cast<std::size_t>(end)]);
      for (int slot = childStart_[c]; slot < childStart_[c + 1]; ++slot)
        if (needed[static_cast<std::size_t>(slot)]) xRows_.push_back({static_cast<int>(k), e, end, slot});
    }
  rowOf_.push_back(0);
  for (int l : links_) rowOf_.push_back(rowOf_.back() + allLinks[static_cast<std::size_t>(l)].rows);
  X_.resize(n6, rows);
  P_.resize(rows, rows);
  Z_.resize(rows, k6);
  u_.resize(rows);
  lambda0_.resize(rows);
  lambda_.resize(rows);
  forces_.resize(n6);
  solver_ = std::make_unique<detail::SemidefiniteSolver>(rows, static_cast<int>(k6));
}

InterfaceCombination::~InterfaceCombination() = default;
InterfaceCombination::InterfaceCombination(InterfaceCombination&&) noexcept = default;

int InterfaceCombination::rank() const { return solver_->rank(); }

// A link's rows of G have one 6-column block per body end: G_A (side 0) or G_B (side 1).
const InterfaceLink::Rows& InterfaceCombination::endRows(const std::vector<InterfaceLink>& allLinks, std::size_t k,
                                                         int side) const {
  const InterfaceLink& link = allLinks[static_cast<std::size_t>(links_[k])];
  return side == 0 ? link.GA : link.GB;
}

bool InterfaceCombination::up(const std::vector<const SubsystemInterface*>& children,
                              const std::vector<InterfaceLink>& allLinks, SubsystemInterface& out) {
  // Eq. (4): the children's equations stacked, d block diagonal by child. d and r are read in the
  // children's own D and R: block (a, b) of d is child c's block (a', b') when slots a and b both
  // belong to c (a', b' their places in c), and zero otherwise.
  const auto childOf = [&](int slot) { return children[static_cast<std::size_t>(childOfSlot_[static_cast<std::size_t>(slot)])]; };
  const auto dBlock = [&](int a, int b) {
    return childOf(a)->D.block<6, 6>(6 * slotInChild_[static_cast<std::size_t>(a)], 6 * slotInChild_[static_cast<std::size_t>(b)]);
  };
  const auto rBlock = [&](int a) { return childOf(a)->R.segment<6>(6 * slotInChild_[static_cast<std::size_t>(a)]); };
  for (const SubsystemInterface* c : children)
    if (!c->R.allFinite()) return false;
  if (rows() == 0) {  // links without rows (free joints): the kept handles' equations pass through
    for (std::size_t a = 0; a < kept_.size(); ++a) {
      const int sa = keptSlot_[a];
      out.R.segment<6>(6 * static_cast<Eigen::Index>(a)) = rBlock(sa);
      for (std::size_t b = 0; b < kept_.size(); ++b) {
        const int sb = keptSlot_[b];
        auto block = out.D.block<6, 6>(6 * static_cast<Eigen::Index>(a), 6 * static_cast<Eigen::Index>(b));
        if (childOfSlot_[static_cast<std::size_t>(sa)] == childOfSlot_[static_cast<std::size_t>(sb)])
          block = dBlock(sa, sb);
        else
          block.setZero();
      }
    }
    return true;
  }
  for (std::size_t k = 0; k < links_.size(); ++k) {
    const InterfaceLink& link = allLinks[static_cast<std::size_t>(links_[k])];
    u_.segment(rowOf_[k], link.rows) = link.u;
  }
  // X = d G^T (eq. (5)) on the rows that are used: a link's columns of X are nonzero only on the
  // slots of the children its ends belong to.
  X_.setZero();
  for (const XRows& x : xRows_) {
    const std::size_t k = static_cast<std::size_t>(x.link);
    const auto& G = endRows(allLinks, k, x.side);
    X_.block(6 * x.slot, rowOf_[k], 6, G.rows()).noalias() += dBlock(x.slot, x.end) * G.transpose();
  }
  // P = G d G^T = G X and u - G r, link end by link end.
  P_.setZero();
  lambda0_ = u_;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    for (int e = 0; e < 2; ++e) {
      const int end = e == 0 ? endSlotA_[k] : endSlotB_[k];
      if (end < 0) continue;
      const auto& G = endRows(allLinks, k, e);
      P_.middleRows(rowOf_[k], G.rows()).noalias() += G * X_.middleRows(6 * end, 6);
      lambda0_.segment(rowOf_[k], G.rows()).noalias() -= G * rBlock(end);
    }
  }
  if (!solver_->compute(P_) || !u_.allFinite()) return false;
  solver_->solveInPlace(lambda0_);  // V of eq. (5)
  const Eigen::Index k = static_cast<Eigen::Index>(kept_.size());
  // Z = P^+ (E^T d G^T)^T: column block a from the kept handle's rows of X.
  for (Eigen::Index a = 0; a < k; ++a)
    Z_.middleCols(6 * a, 6) = X_.middleRows(6 * keptSlot_[static_cast<std::size_t>(a)], 6).transpose();
  solver_->solveColumnsInPlace(Z_);
  for (Eigen::Index a = 0; a < k; ++a) {
    const int sa = keptSlot_[static_cast<std::size_t>(a)];
    out.R.segment<6>(6 * a) = rBlock(sa);
    out.R.segment<6>(6 * a).noalias() += X_.middleRows(6 * sa, 6) * lambda0_;  // eq. (6): R
    for (Eigen::Index b = 0; b < k; ++b) {
      const int sb = keptSlot_[static_cast<std::size_t>(b)];
      auto block = out.D.block<6, 6>(6 * a, 6 * b);
      if (childOfSlot_[static_cast<std::size_t>(sa)] == childOfSlot_[static_cast<std::size_t>(sb)])
        block = dBlock(sa, sb);
      else
        block.setZero();
      block.noalias() -= X_.middleRows(6 * sa, 6) * Z_.middleCols(6 * b, 6);  // eq. (6): D
    }
  }
  return true;
}

void InterfaceCombination::down(const Eigen::VectorXd& Q, const std::vector<InterfaceLink>& allLinks) {
  if (rows() == 0) {
    forces_.setZero();
  } else {
    lambda_ = lambda0_;
    lambda_.noalias() -= Z_ * Q;  // eq. (5): lambda = S Q' + V with S = -Z
    forces_.setZero();
    for (std::size_t k = 0; k < links_.size(); ++k)
      for (int e = 0; e < 2; ++e) {
        const int end = e == 0 ? endSlotA_[k] : endSlotB_[k];
        if (end < 0) continue;
        const auto& G = endRows(allLinks, k, e);
        forces_.segment<6>(6 * end).noalias() += G.transpose() * lambda_.segment(rowOf_[k], G.rows());
      }
  }
  for (std::size_t a = 0; a < kept_.size(); ++a) forces_.segment(6 * keptSlot_[a], 6) += Q.segment(6 * static_cast<Eigen::Index>(a), 6);
}

}  // namespace articula
