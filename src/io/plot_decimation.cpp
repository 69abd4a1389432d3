#include "articula/io/plot_decimation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

namespace articula {

std::vector<std::size_t> decimateToPixelColumns(std::span<const double> xPixels, std::span<const double> y) {
  std::vector<std::size_t> kept;
  std::size_t first = 0;
  while (first < xPixels.size()) {
    const double column = std::floor(xPixels[first]);
    std::size_t lowest = first, highest = first, last = first;
    while (last + 1 < xPixels.size() && std::floor(xPixels[last + 1]) == column) {
      ++last;
      if (y[last] < y[lowest]) lowest = last;
      if (y[last] > y[highest]) highest = last;
    }
    std::array<std::size_t, 4> run{first, lowest, highest, last};
    std::sort(run.begin(), run.end());
    std::unique_copy(run.begin(), run.end(), std::back_inserter(kept));
    first = last + 1;
  }
  return kept;
}

}  // namespace articula
