#include "articula/model/subsystems.hpp"

#include <algorithm>

#include "articula/core/error.hpp"

namespace articula {

std::optional<PartitionProblem> findPartitionProblem(const Model& model, const std::vector<std::vector<int>>& parts) {
  const int n = model.bodyCount();
  std::vector<int> owner(static_cast<std::size_t>(n) + 1, -1);
  auto name = [&](int body) { return "'" + model.bodies[static_cast<std::size_t>(body)].name + "'"; };
  for (int s = 0; s < static_cast<int>(parts.size()); ++s) {
    const auto& part = parts[static_cast<std::size_t>(s)];
    if (part.empty()) return PartitionProblem{s, -1, "subsystem " + std::to_string(s + 1) + " is empty"};
    for (int e = 0; e < static_cast<int>(part.size()); ++e) {
      const int b = part[static_cast<std::size_t>(e)];
      if (b < 1 || b > n)
        return PartitionProblem{s, e, "subsystem " + std::to_string(s + 1) + ": " + std::to_string(b) +
                                           " is not a body index (the ground belongs to no subsystem)"};
      int& o = owner[static_cast<std::size_t>(b)];
      if (o == s) return PartitionProblem{s, e, "body " + name(b) + " is listed twice in subsystem " + std::to_string(s + 1)};
      if (o >= 0)
        return PartitionProblem{s, e, "body " + name(b) + " is in subsystems " + std::to_string(o + 1) + " and " +
                                          std::to_string(s + 1)};
      o = s;
    }
  }
  for (int b = 1; b <= n; ++b)
    if (owner[static_cast<std::size_t>(b)] < 0)
      return PartitionProblem{static_cast<int>(parts.size()) - 1, -1, "body " + name(b) + " is in no subsystem"};
  for (int s = 0; s < static_cast<int>(parts.size()); ++s) {
    int top = -1;
    const auto& part = parts[static_cast<std::size_t>(s)];
    for (int e = 0; e < static_cast<int>(part.size()); ++e) {
      const int b = part[static_cast<std::size_t>(e)];
      const int p = model.parent(b);
      if (p != 0 && owner[static_cast<std::size_t>(p)] == s) continue;
      if (top < 0) {
        top = b;
        continue;
      }
      return PartitionProblem{s, e, "subsystem " + std::to_string(s + 1) +
                                        " is not connected through tree joints: bodies " + name(top) + " and " +
                                        name(b) + " both have their parent outside it"};
    }
  }
  return std::nullopt;
}

void checkPartition(const Model& model, const std::vector<std::vector<int>>& parts) {
  if (const auto problem = findPartitionProblem(model, parts)) throw Error(problem->message);
}

std::vector<std::vector<int>> balancedSubsystems(const Model& model, int count) {
  const int n = model.bodyCount();
  if (count < 1 || count > n)
    throw Error("cannot split " + std::to_string(n) + (n == 1 ? " body" : " bodies") + " into " + std::to_string(count) +
                " subsystems (1 to " + std::to_string(n) + ")");
  const int target = (n + count - 1) / count;
  std::vector<int> size(static_cast<std::size_t>(n) + 1, 0);  // bodies not yet cut off in each subtree
  std::vector<char> top(static_cast<std::size_t>(n) + 1, 0);
  for (int b = n; b >= 1; --b) {
    size[static_cast<std::size_t>(b)] += 1;
    const int p = model.parent(b);
    if (size[static_cast<std::size_t>(b)] >= target || p == 0)
      top[static_cast<std::size_t>(b)] = 1;
    else
      size[static_cast<std::size_t>(p)] += size[static_cast<std::size_t>(b)];
  }
  // Each body joins the subsystem of its nearest top at or above it (parents come first).
  std::vector<int> part(static_cast<std::size_t>(n) + 1, -1);
  std::vector<std::vector<int>> parts;
  for (int b = 1; b <= n; ++b) {
    if (top[static_cast<std::size_t>(b)]) {
      part[static_cast<std::size_t>(b)] = static_cast<int>(parts.size());
      parts.emplace_back();
    } else {
      part[static_cast<std::size_t>(b)] = part[static_cast<std::size_t>(model.parent(b))];
    }
    parts[static_cast<std::size_t>(part[static_cast<std::size_t>(b)])].push_back(b);
  }
  return parts;
}

}  // namespace articula
