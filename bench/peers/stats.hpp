// Small statistics shared by the chain and linkage parts of the peers program.
#pragma once

#include <algorithm>
#include <vector>

namespace peers {

/// The median (for an even count, the upper of the two middle values).
inline double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

}  // namespace peers
