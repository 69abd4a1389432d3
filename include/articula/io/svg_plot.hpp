// Line plots as SVG documents, written by the project (no plotting library).
#pragma once

#include <span>
#include <string>
#include <vector>

namespace articula {

struct PlotSeries {
  std::string label;
  std::span<const double> x, y;  ///< same length; a point with a non-finite x or y is left out and breaks the line
};

struct LinePlot {
  std::string title, xLabel, yLabel;
  /// Of the whole image, in pixels; it grows taller when the legend leaves the axes too little room.
  int width = 800, height = 480;
  /// |y| on a log10 axis whose decades cover the non-zero magnitudes; zeros lie on its bottom edge.
  bool logY = false;
  std::vector<PlotSeries> series;
};

/// A standalone SVG document: axes with 1-2-5 (or decade) ticks and their labels, axis labels,
/// a title, a legend, and one polyline per series (seven colours, then the colours again dashed,
/// then dotted). Each series is thinned to what the plot's pixel width can show, keeping every
/// column's extremes (decimateToPixelColumns). No scripts, no references to other files.
std::string svgLinePlot(const LinePlot& plot);

}  // namespace articula
