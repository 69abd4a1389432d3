#include "compressed_columns.hpp"

#include <string>

#include "articula/core/error.hpp"

namespace articula {

void checkCompressedColumns(const char* who, int rows, int cols, const std::vector<int>& columnStart,
                            const std::vector<int>& rowIndex, bool upperTriangle) {
  const std::string prefix = std::string(who) + ": ";
  if (rows < 0 || cols < 0 || columnStart.size() != static_cast<std::size_t>(cols) + 1 || columnStart[0] != 0 ||
      columnStart[static_cast<std::size_t>(cols)] != static_cast<int>(rowIndex.size()))
    throw Error(prefix + "malformed compressed-column pattern (cols + 1 column starts from 0 to the entry count)");
  for (int j = 0; j < cols; ++j) {
    if (columnStart[j + 1] < columnStart[j]) throw Error(prefix + "malformed pattern (column starts decrease)");
    const int last = upperTriangle ? j : rows - 1;
    for (int k = columnStart[j]; k < columnStart[j + 1]; ++k)
      if (rowIndex[k] < 0 || rowIndex[k] > last || (k > columnStart[j] && rowIndex[k] <= rowIndex[k - 1]))
        throw Error(prefix + (upperTriangle
                                  ? "the pattern must hold the upper triangle with ascending rows in each column"
                                  : "the rows of each column must be ascending, distinct and within the matrix"));
  }
}

}  // namespace articula
