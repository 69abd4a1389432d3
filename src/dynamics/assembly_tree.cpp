#include "articula/dynamics/assembly_tree.hpp"

#include <algorithm>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

namespace {

// Subassemblies of a kinematic tree while they are being joined, each named by its top body.
// Invariant: every subassembly hanging below one lies below its bottom body.
class Contraction {
 public:
  explicit Contraction(const std::vector<int>& parent)
      : parent_(parent), owner_(parent.size()), bottom_(parent.size()), below_(parent.size()) {
    for (std::size_t i = 0; i < parent.size(); ++i) owner_[i] = static_cast<int>(i), bottom_[i] = static_cast<int>(i);
    for (std::size_t i = 1; i < parent.size(); ++i)
      if (parent[i] > 0) below_[static_cast<std::size_t>(parent[i])].push_back(static_cast<int>(i));
  }

  int bodyCount() const { return static_cast<int>(parent_.size()) - 1; }
  int parentBody(int body) const { return parent_[static_cast<std::size_t>(body)]; }
  bool isTop(int body) const { return owner_[static_cast<std::size_t>(body)] == body; }
  int bottom(int top) const { return bottom_[static_cast<std::size_t>(top)]; }
  const std::vector<int>& below(int top) const { return below_[static_cast<std::size_t>(top)]; }
  /// Top body of the subassembly that holds `body`.
  int subassemblyOf(int body) {
    int top = body;
    while (owner_[static_cast<std::size_t>(top)] != top) top = owner_[static_cast<std::size_t>(top)];
    for (int b = body; b != top;) {  // path compression
      const int next = owner_[static_cast<std::size_t>(b)];
      owner_[static_cast<std::size_t>(b)] = top;
      b = next;
    }
    return top;
  }
  /// The join a policy may make across joint j: rake, compress, or neither (-1).
  int joinKind(int top, int j) const {
    const auto& hanging = below(top);
    if (hanging.size() == 1 && hanging[0] == j) return 0;  // compress
    if (below(j).empty()) return 1;                        // rake
    return -1;
  }
  /// Joins the subassembly with top body j to the one holding j's parent; returns that one's top.
  int join(int j, bool& rake) {
    const int top = subassemblyOf(parentBody(j));
    auto& hanging = below_[static_cast<std::size_t>(top)];
    const int kind = joinKind(top, j);
    if (kind < 0)
      throw Error("assembly tree: joining across joint " + std::to_string(j) +
                  " would give a subassembly with more than two handle bodies");
    rake = kind == 1;
    if (rake) {
      hanging.erase(std::find(hanging.begin(), hanging.end(), j));
    } else {
      bottom_[static_cast<std::size_t>(top)] = bottom(j);
      hanging = std::move(below_[static_cast<std::size_t>(j)]);
    }
    owner_[static_cast<std::size_t>(j)] = top;
    return top;
  }

 private:
  const std::vector<int>& parent_;
  std::vector<int> owner_;  // union-find towards the top body of each subassembly
  std::vector<int> bottom_;
  std::vector<std::vector<int>> below_;  // tops of the subassemblies hanging from each one
};

}  // namespace

AssemblyTiers balancedPairing(const std::vector<int>& parent) {
  Contraction c(parent);
  const int n = c.bodyCount();
  AssemblyTiers tiers;
  std::vector<int> joinedInRound(parent.size(), -1);
  for (int round = 0;; ++round) {
    std::vector<int> joins;
    for (int top = 1; top <= n; ++top) {  // parents before children: from the top of the tree down
      if (!c.isTop(top) || joinedInRound[static_cast<std::size_t>(top)] == round) continue;
      const auto& hanging = c.below(top);
      int partner = -1;
      for (int b : hanging)
        if (c.below(b).empty()) {
          partner = b;
          break;
        }
      if (partner < 0 && hanging.size() == 1) partner = hanging[0];
      if (partner < 0) continue;
      joinedInRound[static_cast<std::size_t>(top)] = round;
      joinedInRound[static_cast<std::size_t>(partner)] = round;
      bool rake = false;
      c.join(partner, rake);
      joins.push_back(partner);
    }
    if (joins.empty()) break;
    tiers.push_back(std::move(joins));
  }
  return tiers;
}

AssemblyTiers serialPairing(const std::vector<int>& parent) {
  AssemblyTiers tiers;
  for (int j = static_cast<int>(parent.size()) - 1; j >= 1; --j)
    if (parent[static_cast<std::size_t>(j)] > 0) tiers.push_back({j});
  return tiers;
}

PairingPolicy pairingPolicy(std::string_view name) {
  if (name == "balanced") return balancedPairing;
  if (name == "serial") return serialPairing;
  throw Error("unknown assembly tree '" + std::string(name) + "' (valid: balanced, serial)");
}

AssemblyTree::AssemblyTree(const Model& model, const PairingPolicy& policy) {
  const int n = model.bodyCount();
  std::vector<int> parent(static_cast<std::size_t>(n) + 1, 0);
  for (int i = 1; i <= n; ++i) parent[static_cast<std::size_t>(i)] = model.joints[static_cast<std::size_t>(i)].parent;
  const AssemblyTiers tiers = policy(parent);

  Contraction c(parent);
  std::vector<int> nodeOf(parent.size(), -1);  // current node of each subassembly, by top body
  nodes_.reserve(static_cast<std::size_t>(std::max(0, 2 * n - 1)));
  for (int i = 1; i <= n; ++i) {
    AssemblyNode leaf;
    leaf.top = leaf.bottom = i;
    leaf.hasDownHandle = !c.below(i).empty();
    nodeOf[static_cast<std::size_t>(i)] = static_cast<int>(nodes_.size());
    nodes_.push_back(leaf);
  }
  tierBegin_ = {0, n};
  std::vector<int> joinedInTier(parent.size(), -1);
  for (std::size_t tier = 0; tier < tiers.size(); ++tier) {
    for (int j : tiers[tier]) {
      if (j < 1 || j > n || parent[static_cast<std::size_t>(j)] == 0 || !c.isTop(j))
        throw Error("assembly tree: the pairing policy joins across joint " + std::to_string(j) +
                    ", which does not join a subassembly to the one above it");
      const int top = c.subassemblyOf(parent[static_cast<std::size_t>(j)]);
      for (int s : {top, j}) {
        if (joinedInTier[static_cast<std::size_t>(s)] == static_cast<int>(tier))
          throw Error("assembly tree: the pairing policy joins the subassembly of body " + std::to_string(s) +
                      " twice in tier " + std::to_string(tier + 1));
        joinedInTier[static_cast<std::size_t>(s)] = static_cast<int>(tier);
      }
      AssemblyNode node;
      node.joint = j;
      node.first = nodeOf[static_cast<std::size_t>(top)];
      node.second = nodeOf[static_cast<std::size_t>(j)];
      c.join(j, node.rake);
      node.top = top;
      node.bottom = c.bottom(top);
      node.hasDownHandle = !c.below(top).empty();
      articulated_ = articulated_ && !nodes_[static_cast<std::size_t>(node.second)].hasDownHandle &&
                     nodes_[static_cast<std::size_t>(node.first)].top == parent[static_cast<std::size_t>(j)];
      nodeOf[static_cast<std::size_t>(top)] = static_cast<int>(nodes_.size());
      nodes_.push_back(node);
    }
    tierBegin_.push_back(static_cast<int>(nodes_.size()));
  }
  for (int i = 1; i <= n; ++i) {
    if (!c.isTop(i)) continue;
    if (parent[static_cast<std::size_t>(i)] != 0)
      throw Error("assembly tree: the pairing policy leaves the subassembly of body " + std::to_string(i) +
                  " unjoined to the body above it");
    roots_.push_back(nodeOf[static_cast<std::size_t>(i)]);
  }
}

}  // namespace articula
