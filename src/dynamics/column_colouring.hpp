// Private to src/dynamics: the grouping of columns of the finite-difference tangent matrices
// (seed 004 section 3.3), shared by ForceDerivatives (relative coordinates) and
// NaturalForceDerivatives (natural coordinates).
#pragma once

#include <vector>

namespace articula {

/// Groups the columns of a matrix with `rows` rows, given the structural pattern of each column
/// (the rows it can change, each once), so that no two columns of a group share a row: one
/// perturbed evaluation then yields every column of a group. Greedy colouring of the
/// column-intersection graph (Curtis, Powell and Reid 1974): in column order, each column joins
/// the first group none of whose rows it shares. With `group` false every column is a group of its
/// own. Columns with an empty pattern join no group (there is nothing to difference).
std::vector<std::vector<int>> colourColumns(const std::vector<std::vector<int>>& pattern, int rows, bool group);

}  // namespace articula
