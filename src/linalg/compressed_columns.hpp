// Private to src/linalg: the check every sparse factorisation makes of the pattern it is given.
#pragma once

#include <vector>

namespace articula {

/// Throws articula::Error("<who>: ...") unless (columnStart, rowIndex) is the compressed-column
/// pattern of a rows x cols matrix: cols + 1 non-decreasing column starts from 0 to the entry
/// count, and in each column j distinct ascending rows in [0, rows), or in [0, j] when
/// `upperTriangle` (a symmetric matrix given by its upper triangle).
void checkCompressedColumns(const char* who, int rows, int cols, const std::vector<int>& columnStart,
                            const std::vector<int>& rowIndex, bool upperTriangle = false);

}  // namespace articula
