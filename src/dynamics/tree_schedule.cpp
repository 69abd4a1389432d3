#include "articula/dynamics/tree_schedule.hpp"

#include <algorithm>

#include "articula/core/error.hpp"

namespace articula {

TreeSchedule::TreeSchedule(const AssemblyTree& tree, int threads) {
  if (threads < 1) throw Error("the thread count must be at least 1");
  const std::vector<AssemblyNode>& nodes = tree.nodes();
  // Internal nodes in each subtree; children precede their parents in the node order.
  std::vector<int> work(nodes.size(), 0);
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].joint > 0)
      work[k] = 1 + work[static_cast<std::size_t>(nodes[k].first)] + work[static_cast<std::size_t>(nodes[k].second)];

  // Split the largest subtree into its two children until there are enough of them; a split
  // node joins the crown. One thread keeps the roots' subtrees whole.
  std::vector<int> tops = tree.roots();
  const auto heavier = [&](int a, int b) { return work[static_cast<std::size_t>(a)] < work[static_cast<std::size_t>(b)]; };
  const std::size_t wanted = threads == 1 ? 0 : static_cast<std::size_t>(kPartitionsPerThread * threads);
  while (tops.size() < wanted) {
    const auto largest = std::max_element(tops.begin(), tops.end(), heavier);
    if (largest == tops.end() || work[static_cast<std::size_t>(*largest)] == 0) break;
    const AssemblyNode& n = nodes[static_cast<std::size_t>(*largest)];
    crown_.push_back(*largest);
    *largest = n.first;
    tops.push_back(n.second);
  }
  std::sort(crown_.begin(), crown_.end());
  std::stable_sort(tops.begin(), tops.end(), [&](int a, int b) { return heavier(b, a); });

  for (int top : tops) {
    Partition part;
    std::vector<int> stack{top};
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      const AssemblyNode& n = nodes[static_cast<std::size_t>(k)];
      if (n.joint <= 0) {
        part.bodies.push_back(n.top);
        continue;
      }
      part.nodes.push_back(k);
      stack.push_back(n.first);
      stack.push_back(n.second);
    }
    std::sort(part.bodies.begin(), part.bodies.end());
    std::sort(part.nodes.begin(), part.nodes.end());
    partitions_.push_back(std::move(part));
  }
}

}  // namespace articula
