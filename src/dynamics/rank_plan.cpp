#include "articula/dynamics/rank_plan.hpp"

#include <string>

#include "articula/core/error.hpp"

namespace articula {

RankPlan makeRankPlan(const Model& model, const SubsystemHierarchy& h, int ranks) {
  const int count = static_cast<int>(h.subsystems.size());
  if (ranks < 1) throw Error("distributed formulation: the rank count must be at least 1");
  if (ranks > count)
    throw Error("distributed formulation: " + std::to_string(ranks) + " MPI ranks but only " + std::to_string(count) +
                " subsystems: each rank needs at least one (ask for --subsystems " + std::to_string(ranks) +
                " or more, or start fewer ranks)");
  RankPlan p;
  p.ranks = ranks;
  p.traffic.ranks = ranks;
  for (int s = 0; s < count; ++s)
    p.subsystemRank.push_back(static_cast<int>(static_cast<long>(s) * ranks / count));
  const std::size_t nodes = h.nodes.size();
  p.nodeRank.assign(nodes, -1);
  p.nodeParent.assign(nodes, -1);
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto& node = h.nodes[n];
    p.nodeRank[n] = node.level == 0 ? p.subsystemRank[static_cast<std::size_t>(node.subsystem)]
                                    : p.nodeRank[static_cast<std::size_t>(node.children.front())];
    for (int c : node.children) p.nodeParent[static_cast<std::size_t>(c)] = static_cast<int>(n);
  }
  // Messages per level: one up (D, R) and one down (Q) per interface that enters a node from
  // another rank.
  for (std::size_t n = 0; n < nodes; ++n) {
    if (!p.remoteChild(static_cast<int>(n))) continue;
    const int level = h.nodes[static_cast<std::size_t>(p.nodeParent[n])].level;
    if (p.traffic.levels.empty() || p.traffic.levels.back().level != level) p.traffic.levels.push_back({level, 0, 0, 0, 0});
    RankTraffic::Level& t = p.traffic.levels.back();
    const long k = static_cast<long>(h.nodes[n].handles.size());
    t.messagesUp += 1;
    t.messagesDown += 1;
    t.bytesUp += static_cast<long>(sizeof(double)) * (36 * k * k + 6 * k);
    t.bytesDown += static_cast<long>(sizeof(double)) * 6 * k;
  }
  // The gather: every joint's rates from the rank of its body, but the joints between ranks,
  // which come from their bodies' accelerations.
  p.gatheredJoints.assign(static_cast<std::size_t>(ranks), {});
  p.gatheredBodies.assign(static_cast<std::size_t>(ranks), {});
  std::vector<bool> cross(static_cast<std::size_t>(model.bodyCount()) + 1, false);
  auto rankOf = [&](int body) { return p.subsystemRank[static_cast<std::size_t>(h.owner[static_cast<std::size_t>(body)])]; };
  auto addBody = [&](int body) {
    auto& list = p.gatheredBodies[static_cast<std::size_t>(rankOf(body))];
    for (int b : list)
      if (b == body) return;
    list.push_back(body);
  };
  for (int l = 0; l < static_cast<int>(h.links.size()); ++l) {
    const InterfaceLink& link = h.links[static_cast<std::size_t>(l)];
    if (link.joint < 0 || link.bodyA == 0 || rankOf(link.bodyA) == rankOf(link.bodyB)) continue;
    p.crossLinks.push_back(l);
    cross[static_cast<std::size_t>(link.joint)] = true;
    if (model.joints[static_cast<std::size_t>(link.joint)].nv == 0) continue;
    addBody(link.bodyA);
    addBody(link.bodyB);
  }
  for (int b = 1; b <= model.bodyCount(); ++b)
    if (!cross[static_cast<std::size_t>(b)] && model.joints[static_cast<std::size_t>(b)].nv > 0)
      p.gatheredJoints[static_cast<std::size_t>(rankOf(b))].push_back(b);
  p.accelerationAt.assign(static_cast<std::size_t>(model.bodyCount()) + 1, -1);
  int at = 0;
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks); ++r) {
    p.offsets.push_back(at);
    for (int j : p.gatheredJoints[r]) at += model.joints[static_cast<std::size_t>(j)].nv;
    for (int b : p.gatheredBodies[r]) {
      p.accelerationAt[static_cast<std::size_t>(b)] = at;
      at += 6;
    }
    p.counts.push_back(at - p.offsets.back());
  }
  p.traffic.gatherBytes = ranks > 1 ? static_cast<long>(sizeof(double)) * at : 0;
  return p;
}

}  // namespace articula
