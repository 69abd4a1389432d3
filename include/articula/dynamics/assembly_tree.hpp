// The binary assembly tree of the divide-and-conquer family (thesis section 3.4, figure 3.3;
// chapter 6 for the storage by tiers), built from any kinematic tree of a Model.
//
// Leaves are the bodies; an internal node joins two subassemblies A and B across the joint whose
// child body is B's top body. Every subassembly is a connected set of bodies with at most two
// handle bodies: its top body, joined to the rest of the system by its parent joint, and one
// bottom body that carries every joint leading out of it to bodies below (top == bottom is
// allowed). Two kinds of join keep that shape:
//  - compress: A's bottom body has B as its only subassembly below; C's bottom is B's bottom;
//  - rake: B has nothing below it (a complete subtree); C's bottom stays A's bottom.
// Subassemblies whose top body hangs from the ground are never joined to each other: the tree is
// a forest with one root per body on the ground, each solved against the ground.
//
// Which joins happen in which tier is the pairing policy, a replaceable function; the tree checks
// that every join it is given keeps the two-handle shape.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "articula/model/model.hpp"

namespace articula {

/// A node of the assembly tree. Leaves have joint == -1 and no children.
struct AssemblyNode {
  int top = 0;                 ///< body at the upper handle; its parent joint joins the node to the rest
  int bottom = 0;              ///< body carrying every joint to bodies below the node (== top for leaves)
  int joint = -1;              ///< internal nodes: the joint joining the children (index of its child body)
  int first = -1;              ///< subassembly A, on the parent side of `joint`
  int second = -1;             ///< subassembly B, whose top body is `joint`'s child
  bool rake = false;           ///< B is a complete subtree: C keeps A's bottom (else compress)
  bool hasDownHandle = false;  ///< some joint leads from `bottom` to a body outside the node
};

/// The joins of one tier, each named by its joint (the child body index). A policy gets the
/// parent body of every body (parent[0] unused, 0 = ground) and returns the tiers in order.
using AssemblyTiers = std::vector<std::vector<int>>;
using PairingPolicy = std::function<AssemblyTiers(const std::vector<int>& parent)>;

/// The default policy: greedy tree contraction in rounds. In each round the subassemblies are
/// visited from the top of the tree down; one not yet joined in this round is joined with the
/// first complete subassembly hanging from it (rake), or, when exactly one subassembly hangs
/// from it, with that one (compress), if that one is not joined yet either. On a chain this pairs
/// neighbours, so the depth is ceil(log2 n); a body with k branches below it costs up to k extra
/// tiers (one rake per tier).
AssemblyTiers balancedPairing(const std::vector<int>& parent);

/// The serial policy: one join per tier, the bodies taken from the last to the first (children
/// after their parents in a Model, so each is joined to the subassembly above it once everything
/// below it is). The depth is n - 1 on a chain and no two joins can run at once, but every
/// subassembly joined is a complete subtree, so on a chain no node has a lower handle (on a tree
/// only a body's subassembly while some of its branches wait), and every join hangs a complete
/// subtree from the top body of the subassembly above it: the tree is articulated
/// (AssemblyTree::articulated), and the handle equations are kept in impedance form
/// (dynamics/articulated_handles.hpp). The cheapest tree for one thread.
AssemblyTiers serialPairing(const std::vector<int>& parent);

/// The policy of a name: "balanced" (balancedPairing) or "serial" (serialPairing). Throws
/// articula::Error naming the valid ones for any other.
PairingPolicy pairingPolicy(std::string_view name);

class AssemblyTree {
 public:
  /// Builds the tree of the model's spanning tree. Throws articula::Error when the policy names
  /// an unknown joint, joins a subassembly twice in one tier, breaks the two-handle shape, or
  /// leaves a subassembly not hanging from the ground unjoined.
  explicit AssemblyTree(const Model& model, const PairingPolicy& policy = balancedPairing);

  /// Nodes stored by tier: tier 0 holds the leaves (node i - 1 is body i), tier k >= 1 the joins
  /// of round k. All nodes of one tier can be processed in parallel; a subassembly not joined in a
  /// round is passed on unchanged (it is not repeated in later tiers).
  const std::vector<AssemblyNode>& nodes() const { return nodes_; }
  int tierCount() const { return static_cast<int>(tierBegin_.size()) - 1; }
  int tierBegin(int tier) const { return tierBegin_[static_cast<std::size_t>(tier)]; }
  int tierEnd(int tier) const { return tierBegin_[static_cast<std::size_t>(tier) + 1]; }
  /// Whether a node is a leaf (tier 0: node i - 1 is body i).
  bool isLeaf(int node) const { return node < tierEnd(0); }
  /// Number of join tiers: the longest path from a leaf to a root.
  int depth() const { return tierCount() - 1; }
  /// One root node per body on the ground, ascending by that body's index.
  const std::vector<int>& roots() const { return roots_; }
  /// Whether every join hangs a complete subtree (B without a lower handle) from A's top body,
  /// so that every subassembly is one body with complete subtrees hanging from it: then its
  /// handle equation is invertible, an articulated inertia (dynamics/articulated_handles.hpp).
  /// True for serialPairing; false for balancedPairing on more than two bodies in a chain.
  bool articulated() const { return articulated_; }

 private:
  std::vector<AssemblyNode> nodes_;
  std::vector<int> tierBegin_;
  std::vector<int> roots_;
  bool articulated_ = true;
};

}  // namespace articula
