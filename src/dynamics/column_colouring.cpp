#include "column_colouring.hpp"

#include <algorithm>
#include <cstddef>

namespace articula {

std::vector<std::vector<int>> colourColumns(const std::vector<std::vector<int>>& pattern, int rows, bool group) {
  std::vector<std::vector<int>> groups;
  std::vector<std::vector<char>> used;  // with grouping: the rows each group changes already
  for (std::size_t j = 0; j < pattern.size(); ++j) {
    const std::vector<int>& column = pattern[j];
    if (column.empty()) continue;
    std::size_t g = 0;
    if (group)
      while (g < groups.size() && std::any_of(column.begin(), column.end(), [&](int r) { return used[g][r] != 0; }))
        ++g;
    else
      g = groups.size();
    if (g == groups.size()) {
      groups.emplace_back();
      if (group) used.emplace_back(static_cast<std::size_t>(rows), 0);
    }
    groups[g].push_back(static_cast<int>(j));
    if (group)
      for (int r : column) used[g][static_cast<std::size_t>(r)] = 1;
  }
  return groups;
}

}  // namespace articula
