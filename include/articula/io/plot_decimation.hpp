// Thinning a long series to what a plot of a given pixel width can show, without losing spikes.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace articula {

/// The points worth drawing of a polyline whose x are in pixels: for every run of consecutive
/// points in the same pixel column (floor(x)), its first, lowest, highest and last point, in
/// their original order (the M4 aggregation of Jugel et al., "M4: a visualization-oriented time
/// series data aggregation", VLDB 2014: the line drawn through them covers the same pixels as
/// the full line). A monotone x keeps at most 4 points per pixel column; x need not be monotone.
/// x and y have the same length and hold finite values.
std::vector<std::size_t> decimateToPixelColumns(std::span<const double> xPixels, std::span<const double> y);

}  // namespace articula
