#include "articula/dynamics/tree_kinematics.hpp"

namespace articula {

TreePositions::TreePositions(const Model& model, const AssemblyTree& tree)
    : model_(model),
      tree_(tree),
      relative_(tree.nodes().size()),
      jointChild_(tree.nodes().size()),
      relativeRead_(tree.nodes().size(), 0) {
  // Parents come after their children in the node order: walk down from the roots. A join always
  // reads rel(A); it reads rel(B) for its own rel(C) on a compress, so only when rel(C) is read.
  const std::vector<AssemblyNode>& nodes = tree.nodes();
  for (std::size_t k = nodes.size(); k-- > 0;) {
    const AssemblyNode& n = nodes[k];
    if (n.joint <= 0) continue;
    relativeRead_[static_cast<std::size_t>(n.first)] = 1;
    if (!n.rake && relativeRead_[k]) relativeRead_[static_cast<std::size_t>(n.second)] = 1;
  }
}

void TreePositions::leafUp(Workspace& ws, const Eigen::VectorXd& q, int i) const {
  static const double zeros[6] = {0, 0, 0, 0, 0, 0};
  const Joint& j = model_.joints[static_cast<std::size_t>(i)];
  jointKinematics(j, q.data() + j.iq, zeros, ws.joint[static_cast<std::size_t>(i)]);
  ws.Xup[static_cast<std::size_t>(i)] = ws.joint[static_cast<std::size_t>(i)].XJ * j.placement;
}

// A leaf's rel is the identity: it is never stored, and no product takes it.
void TreePositions::up(const Workspace& ws, int k) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(k)];
  const Transform& Xup = ws.Xup[static_cast<std::size_t>(n.joint)];
  const bool leafA = tree_.isLeaf(n.first);
  const Transform& A = relative_[static_cast<std::size_t>(n.first)];
  if (!leafA) jointChild_[static_cast<std::size_t>(k)] = Xup * A;
  if (!relativeRead_[static_cast<std::size_t>(k)]) return;
  const Transform& child = leafA ? Xup : jointChild_[static_cast<std::size_t>(k)];
  Transform& C = relative_[static_cast<std::size_t>(k)];
  if (n.rake)
    C = leafA ? Transform::identity() : A;
  else
    C = tree_.isLeaf(n.second) ? child : relative_[static_cast<std::size_t>(n.second)] * child;
}

void TreePositions::atRoots(Workspace& ws) const {
  for (int root : tree_.roots()) {
    const auto top = static_cast<std::size_t>(tree_.nodes()[static_cast<std::size_t>(root)].top);
    ws.X0[top] = ws.Xup[top];
  }
}

void TreePositions::down(Workspace& ws, int k) const {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(k)];
  const Transform& child = tree_.isLeaf(n.first) ? ws.Xup[static_cast<std::size_t>(n.joint)]
                                                        : jointChild_[static_cast<std::size_t>(k)];
  ws.X0[static_cast<std::size_t>(n.joint)] = child * ws.X0[static_cast<std::size_t>(n.top)];
}

}  // namespace articula
