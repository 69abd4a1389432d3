#include "articula/dynamics/subsystem_hierarchy.hpp"

#include <algorithm>

#include "articula/model/subsystems.hpp"

namespace articula {

namespace {

void addUnique(std::vector<int>& list, int value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

}  // namespace

SubsystemHierarchy buildSubsystemHierarchy(const Model& model, std::vector<std::vector<int>> parts) {
  checkPartition(model, parts);
  for (auto& p : parts) std::sort(p.begin(), p.end());
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  SubsystemHierarchy h;
  h.subsystems = std::move(parts);
  const int count = static_cast<int>(h.subsystems.size());
  h.owner.assign(static_cast<std::size_t>(model.bodyCount()) + 1, -1);
  for (int s = 0; s < count; ++s)
    for (int b : h.subsystems[static_cast<std::size_t>(s)]) h.owner[static_cast<std::size_t>(b)] = s;

  // Links: each subsystem's top joint, then every loop.
  for (int s = 0; s < count; ++s) {
    InterfaceLink l;
    l.bodyB = h.subsystems[static_cast<std::size_t>(s)].front();
    l.bodyA = model.parent(l.bodyB);
    l.joint = l.bodyB;
    l.rows = 6 - model.joints[static_cast<std::size_t>(l.bodyB)].nv;
    h.links.push_back(l);
  }
  int row = 0;
  for (int k = 0; k < static_cast<int>(model.loops.size()); ++k) {
    const LoopConstraint& c = model.loops[static_cast<std::size_t>(k)];
    InterfaceLink l;
    l.bodyA = c.bodyA;
    l.bodyB = c.bodyB;
    l.loop = k;
    l.firstRow = row;
    l.rows = c.equations();
    row += l.rows;
    h.links.push_back(l);
  }
  for (InterfaceLink& l : h.links) {
    l.GA = InterfaceLink::Rows::Zero(l.rows, 6);
    l.GB = InterfaceLink::Rows::Zero(l.rows, 6);
    l.u = InterfaceLink::Rhs::Zero(l.rows);
  }

  // Handles: the top first, then every other body that ends a link.
  h.subsystemHandles.resize(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) h.subsystemHandles[static_cast<std::size_t>(s)].push_back(h.subsystems[static_cast<std::size_t>(s)].front());
  for (const InterfaceLink& l : h.links)
    for (int b : {l.bodyA, l.bodyB})
      if (b != 0) addUnique(h.subsystemHandles[static_cast<std::size_t>(h.owner[static_cast<std::size_t>(b)])], b);
  for (auto& handles : h.subsystemHandles) std::sort(handles.begin() + 1, handles.end());

  // Levels: node j of level l holds subsystems [j 2^l, (j + 1) 2^l).
  std::vector<int> levelStart{0};
  for (int s = 0; s < count; ++s) {
    SubsystemHierarchy::Node n;
    n.subsystem = s;
    h.nodes.push_back(n);
  }
  int width = count;
  for (int level = 1; width > 1; ++level) {
    levelStart.push_back(static_cast<int>(h.nodes.size()));
    const int below = levelStart[static_cast<std::size_t>(level) - 1];
    for (int j = 0; 2 * j < width; ++j) {
      SubsystemHierarchy::Node n;
      n.level = level;
      n.children.push_back(below + 2 * j);
      if (2 * j + 1 < width) n.children.push_back(below + 2 * j + 1);
      h.nodes.push_back(n);
    }
    width = (width + 1) / 2;
    h.levels = level + 1;
  }
  const int rootLevel = h.levels - 1;
  // Where each link is eliminated: the lowest common level of its subsystems (root for the ground).
  std::vector<int> linkLevel;
  for (int k = 0; k < static_cast<int>(h.links.size()); ++k) {
    const InterfaceLink& l = h.links[static_cast<std::size_t>(k)];
    int level = rootLevel, node = static_cast<int>(h.nodes.size()) - 1;
    if (l.bodyA != 0 && l.bodyB != 0) {
      const int sa = h.owner[static_cast<std::size_t>(l.bodyA)], sb = h.owner[static_cast<std::size_t>(l.bodyB)];
      level = 0;
      while ((sa >> level) != (sb >> level)) ++level;
      node = levelStart[static_cast<std::size_t>(level)] + (sa >> level);
    }
    linkLevel.push_back(level);
    h.nodes[static_cast<std::size_t>(node)].links.push_back(k);
  }
  // Kept handles: those that end a link eliminated above the node.
  for (SubsystemHierarchy::Node& n : h.nodes) {
    std::vector<int> input;
    if (n.level == 0)
      input = h.subsystemHandles[static_cast<std::size_t>(n.subsystem)];
    else
      for (int c : n.children)
        input.insert(input.end(), h.nodes[static_cast<std::size_t>(c)].handles.begin(), h.nodes[static_cast<std::size_t>(c)].handles.end());
    for (int b : input)
      for (int k = 0; k < static_cast<int>(h.links.size()); ++k) {
        const InterfaceLink& l = h.links[static_cast<std::size_t>(k)];
        if ((l.bodyA == b || l.bodyB == b) && linkLevel[static_cast<std::size_t>(k)] > n.level) {
          n.handles.push_back(b);
          break;
        }
      }
    n.combines = !n.links.empty() || n.children.size() > 1;
  }
  return h;
}

std::vector<LevelTraffic> hierarchyTraffic(const SubsystemHierarchy& h) {
  std::vector<LevelTraffic> traffic;
  for (int level = 1; level < h.levels; ++level) {
    LevelTraffic t;
    t.level = level;
    for (const auto& n : h.nodes) {
      if (n.level != level || !n.combines) continue;
      for (int c : n.children) {
        const long k = static_cast<long>(h.nodes[static_cast<std::size_t>(c)].handles.size());
        t.interfaces += 1;
        t.bytesUp += static_cast<long>(sizeof(double)) * (36 * k * k + 6 * k);
        t.bytesDown += static_cast<long>(sizeof(double)) * 6 * k;
      }
    }
    traffic.push_back(t);
  }
  return traffic;
}

}  // namespace articula
