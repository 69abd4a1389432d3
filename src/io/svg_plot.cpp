#include "articula/io/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "articula/io/markup.hpp"
#include "articula/io/plot_decimation.hpp"
#include "articula/io/plot_scale.hpp"

namespace articula {

namespace {

constexpr double kCharWidth = 7.0;  // a generous mean advance of a 12 px sans-serif glyph
constexpr double kMargin = 12.0;
constexpr double kTickLabelsHeight = 22.0, kAxisLabelHeight = 22.0, kLegendGap = 10.0;
constexpr double kMinAxesHeight = 120.0;
// Okabe and Ito's colour-blind-safe palette (without its yellow, too pale on white).
constexpr std::array<const char*, 7> kColours{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr std::array<const char*, 3> kDashes{"", "7 3", "2 2"};

double textWidth(const std::string& s) { return kCharWidth * static_cast<double>(s.size()); }

std::string px(double x) {
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::fixed, 1);
  return std::string(buf.data(), r.ptr);
}

std::string text(double x, double y, const std::string& s, const std::string& attributes = "") {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\"" + (attributes.empty() ? "" : " " + attributes) + ">" +
         escapeMarkup(s) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes = "") {
  return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) + "\"" +
         (attributes.empty() ? "" : " " + attributes) + "/>\n";
}

std::string strokeStyle(std::size_t series) {
  const std::string dash = kDashes[(series / kColours.size()) % kDashes.size()];
  return std::string("stroke=\"") + kColours[series % kColours.size()] + "\"" +
         (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"");
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

/// The value a point is drawn at: y, or |y| on a log axis (non-finite: not drawn).
double shownValue(double y, bool logY) { return logY ? std::abs(y) : y; }

/// The x range of the drawable points and the y range of those a scale must cover (a log axis
/// draws zeros on its edge instead).
std::array<Range, 2> dataRanges(const LinePlot& plot) {
  Range x, y;
  for (const PlotSeries& s : plot.series) {
    if (s.x.size() != s.y.size())
      throw std::invalid_argument("svgLinePlot: series '" + s.label + "' has x and y of different lengths");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double v = shownValue(s.y[i], plot.logY);
      if (!std::isfinite(s.x[i]) || !std::isfinite(v)) continue;
      x.add(s.x[i]);
      if (!(plot.logY && v == 0.0)) y.add(v);
    }
  }
  return {x, y};
}

/// The legend entries placed left to right in rows as wide as the image allows.
struct Legend {
  static constexpr double kSwatch = 24, kGap = 6, kSpacing = 18, kRowHeight = 18;
  std::vector<std::array<double, 2>> offsets;  // of each entry, from the legend's top left corner
  double height = 0.0;

  Legend(const std::vector<PlotSeries>& series, double width) {
    double x = 0.0, row = 0.0;
    for (const PlotSeries& s : series) {
      const double w = kSwatch + kGap + textWidth(s.label);
      if (x > 0.0 && x + w > width) {
        x = 0.0;
        row += kRowHeight;
      }
      offsets.push_back({x, row});
      x += w + kSpacing;
    }
    height = series.empty() ? 0.0 : row + kRowHeight;
  }
};

/// The x scale with as many ticks as fit their labels side by side.
AxisScale xScaleFor(const Range& x, double axesWidth) {
  for (int ticks = std::max(2, static_cast<int>(axesWidth / 80)); ticks > 2; --ticks) {
    AxisScale s = linearScale(x.lo, x.hi, ticks);
    double widest = 0.0;
    for (double t : s.ticks) widest = std::max(widest, textWidth(s.label(t)));
    if (widest + 12.0 <= axesWidth / static_cast<double>(s.ticks.size() - 1)) return s;
  }
  return linearScale(x.lo, x.hi, 2);
}

/// Where the axes lie in the image and how values map onto them.
struct Frame {
  double left = 0, top = 0, width = 0, height = 0;
  AxisScale x, y;
  double toX(double v) const { return left + x.fraction(v) * width; }
  double toY(double v) const { return top + height - (y.log && v == 0.0 ? 0.0 : y.fraction(v)) * height; }
  double bottom() const { return top + height; }
};

std::string axes(const Frame& f, const LinePlot& plot) {
  std::string svg = "<g stroke=\"#dddddd\">\n";
  for (double t : f.x.ticks) svg += line(f.toX(t), f.top, f.toX(t), f.bottom() + 5);
  for (double t : f.y.ticks) svg += line(f.left - 5, f.toY(t), f.left + f.width, f.toY(t));
  svg += "</g>\n<g text-anchor=\"middle\">\n";
  for (double t : f.x.ticks) svg += text(f.toX(t), f.bottom() + 18, f.x.label(t));
  svg += "</g>\n<g text-anchor=\"end\">\n";
  for (double t : f.y.ticks) svg += text(f.left - 8, f.toY(t) + 4, f.y.label(t));
  svg += "</g>\n<rect x=\"" + px(f.left) + "\" y=\"" + px(f.top) + "\" width=\"" + px(f.width) + "\" height=\"" +
         px(f.height) + "\" fill=\"none\" stroke=\"#333333\"/>\n";
  if (!plot.xLabel.empty())
    svg += text(f.left + f.width / 2, f.bottom() + kTickLabelsHeight + 18, plot.xLabel, "text-anchor=\"middle\"");
  if (!plot.yLabel.empty())
    svg += "<text transform=\"translate(" + px(kMargin + 10) + " " + px(f.top + f.height / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">" + escapeMarkup(plot.yLabel) + "</text>\n";
  return svg;
}

/// One polyline per stretch of drawable points (a non-finite point ends a stretch), thinned to
/// the pixel columns; a stretch of one point is a dot.
std::string seriesLines(const Frame& f, const PlotSeries& s, std::size_t index) {
  std::string svg = "<g fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" " + strokeStyle(index) + ">\n<title>" +
                    escapeMarkup(s.label) + "</title>\n";
  std::vector<double> xs, ys;
  const auto drawStretch = [&] {
    if (xs.size() == 1) {
      svg += "<circle cx=\"" + px(xs[0]) + "\" cy=\"" + px(ys[0]) + "\" r=\"2\" fill=\"" + kColours[index % kColours.size()] + "\"/>\n";
    } else if (xs.size() > 1) {
      svg += "<polyline points=\"";
      for (const std::size_t i : decimateToPixelColumns(xs, ys)) svg += px(xs[i]) + "," + px(ys[i]) + " ";
      svg.back() = '"';
      svg += "/>\n";
    }
    xs.clear();
    ys.clear();
  };
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const double v = shownValue(s.y[i], f.y.log);
    if (std::isfinite(s.x[i]) && std::isfinite(v)) {
      xs.push_back(f.toX(s.x[i]));
      ys.push_back(f.toY(v));
    } else {
      drawStretch();
    }
  }
  drawStretch();
  return svg + "</g>\n";
}

std::string legendEntries(const Legend& legend, double top, const std::vector<PlotSeries>& series) {
  std::string svg;
  for (std::size_t k = 0; k < series.size(); ++k) {
    const double x = kMargin + legend.offsets[k][0], y = top + legend.offsets[k][1];
    svg += line(x, y + 8, x + Legend::kSwatch, y + 8, "stroke-width=\"2\" " + strokeStyle(k));
    svg += text(x + Legend::kSwatch + Legend::kGap, y + 12, series[k].label);
  }
  return svg;
}

}  // namespace

std::string svgLinePlot(const LinePlot& plot) {
  if (plot.width < 100 || plot.height < 100)
    throw std::invalid_argument("svgLinePlot: the image needs at least 100 x 100 pixels");
  auto [xRange, yRange] = dataRanges(plot);
  const bool noData = xRange.empty();
  if (noData) xRange = {0.0, 1.0};
  // Without a non-zero magnitude a log axis shows the decades down to double precision's round-off.
  if (yRange.empty()) yRange = plot.logY ? Range{1e-16, 1.0} : Range{0.0, 1.0};

  // Top to bottom: title, axes, x tick labels, x label, legend.
  Frame f;
  f.top = plot.title.empty() ? kMargin : 40.0;
  const Legend legend(plot.series, plot.width - 2 * kMargin);
  const double below = kTickLabelsHeight + (plot.xLabel.empty() ? 0.0 : kAxisLabelHeight) +
                       (legend.height > 0 ? legend.height + kLegendGap : 0.0);
  const double imageHeight = std::max(static_cast<double>(plot.height), f.top + kMinAxesHeight + below);
  f.height = imageHeight - f.top - below;
  f.y = plot.logY ? logScale(yRange.lo, yRange.hi, std::clamp(static_cast<int>(f.height / 40), 3, 10))
                  : linearScale(yRange.lo, yRange.hi, std::clamp(static_cast<int>(f.height / 50), 3, 10));
  double widestYLabel = 0.0;
  for (double t : f.y.ticks) widestYLabel = std::max(widestYLabel, textWidth(f.y.label(t)));
  f.left = kMargin + (plot.yLabel.empty() ? 0.0 : kAxisLabelHeight) + widestYLabel + 8.0;
  f.width = plot.width - f.left - 3 * kMargin;  // the last x tick label sticks out by half its width
  if (f.width < 40) throw std::invalid_argument("svgLinePlot: the image is too narrow for its y tick labels");
  f.x = xScaleFor(xRange, f.width);

  const std::string width = std::to_string(plot.width), height = px(imageHeight);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height +
                    "\" viewBox=\"0 0 " + width + " " + height + "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n";
  svg += "<title>" + escapeMarkup(plot.title.empty() ? plot.yLabel : plot.title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!plot.title.empty()) svg += text(plot.width / 2.0, 24, plot.title, "text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"");
  svg += axes(f, plot);
  if (noData) svg += text(f.left + f.width / 2, f.top + f.height / 2, "no data", "text-anchor=\"middle\" fill=\"#777777\"");
  for (std::size_t k = 0; k < plot.series.size(); ++k) svg += seriesLines(f, plot.series[k], k);
  const double legendTop = f.bottom() + kTickLabelsHeight + (plot.xLabel.empty() ? 0.0 : kAxisLabelHeight) + kLegendGap;
  svg += legendEntries(legend, legendTop, plot.series);
  return svg + "</svg>\n";
}

}  // namespace articula
