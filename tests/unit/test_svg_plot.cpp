// Plots: nice axis ticks (1-2-5 steps, decades), thinning that keeps every pixel column's
// extremes, and the SVG document (series, legend, labels, gaps, log axis with zeros).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <sstream>
#include <set>

#include "articula/io/plot_decimation.hpp"
#include "articula/io/plot_scale.hpp"
#include "articula/io/svg_plot.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

std::vector<std::string> labels(const AxisScale& s) {
  std::vector<std::string> out;
  for (double t : s.ticks) out.push_back(s.label(t));
  return out;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The points of every polyline of the document. Read by hand: std::regex recurses once per
/// character matched and overflows the stack (under ASan) on the long point lists of big plots.
std::vector<std::vector<std::pair<double, double>>> polylines(const std::string& svg) {
  std::vector<std::vector<std::pair<double, double>>> lines;
  const std::string head = "<polyline points=\"";
  for (std::size_t at = svg.find(head); at != std::string::npos; at = svg.find(head, at)) {
    at += head.size();
    const std::size_t end = svg.find('"', at);
    std::istringstream pts(svg.substr(at, end - at));
    lines.emplace_back();
    double x = 0.0, y = 0.0;
    char comma = 0;
    while (pts >> x >> comma >> y && comma == ',') lines.back().emplace_back(x, y);
  }
  return lines;
}

}  // namespace

TEST(PlotScale, NiceLinearTicks) {
  const AxisScale s = linearScale(0.0, 0.93, 6);
  EXPECT_EQ(s.step, 0.2);
  EXPECT_EQ(labels(s), (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  EXPECT_EQ(s.lo, 0.0);
  EXPECT_DOUBLE_EQ(s.hi, 1.0);
  // A range end that is a tick gains no extra tick from round-off (0.3 / 0.1 = 2.9999999999999996).
  EXPECT_EQ(labels(linearScale(0.1, 0.3, 3)), (std::vector<std::string>{"0.1", "0.2", "0.3"}));
  EXPECT_EQ(labels(linearScale(-3.7, -1.2, 6)), (std::vector<std::string>{"-4.0", "-3.5", "-3.0", "-2.5", "-2.0", "-1.5", "-1.0"}));
  EXPECT_EQ(labels(linearScale(0.0, 2e-9, 5)), (std::vector<std::string>{"0", "5e-10", "1e-9", "1.5e-9", "2e-9"}));
  EXPECT_EQ(labels(linearScale(0.0, 3e6, 5)), (std::vector<std::string>{"0", "1e6", "2e6", "3e6"}));
  EXPECT_EQ(labels(linearScale(0.0, 2000.0, 5)), (std::vector<std::string>{"0", "500", "1000", "1500", "2000"}));
  // Ticks that differ far behind the leading digit still read apart.
  EXPECT_EQ(labels(linearScale(10.26122, 10.26124, 3)), (std::vector<std::string>{"10.26122", "10.26123", "10.26124"}));
}

TEST(PlotScale, EveryStepIsOneTwoOrFiveTimesAPowerOfTenAndTheTicksCoverTheRange) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-12, 12), unit(-1, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    const double scale = std::pow(10.0, exponent(rng));
    double lo = unit(rng) * scale, hi = unit(rng) * scale;
    if (lo > hi) std::swap(lo, hi);
    const int ticks = 2 + trial % 9;
    const AxisScale s = linearScale(lo, hi, ticks);
    const double mantissa = s.step / std::pow(10.0, std::floor(std::log10(s.step)));
    EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9) << s.step;
    EXPECT_LE(s.lo, lo);
    EXPECT_GE(s.hi, hi);
    EXPECT_GE(s.ticks.size(), 2u);
    EXPECT_LE(s.ticks.size(), static_cast<std::size_t>(ticks + 2)) << lo << " " << hi;
    const std::vector<std::string> l = labels(s);
    EXPECT_EQ(std::set<std::string>(l.begin(), l.end()).size(), l.size()) << "tick labels must differ: " << lo << " " << hi;
  }
}

TEST(PlotScale, ConstantRangesAreWidened) {
  const AxisScale c = linearScale(5.0, 5.0);
  EXPECT_LT(c.lo, 5.0);
  EXPECT_GT(c.hi, 5.0);
  const AxisScale z = linearScale(0.0, 0.0);
  EXPECT_EQ(z.lo, -1.0);
  EXPECT_EQ(z.hi, 1.0);
  EXPECT_THROW(linearScale(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(linearScale(0.0, NAN), std::invalid_argument);
}

TEST(PlotScale, LogTicksAreDecades) {
  const AxisScale s = logScale(3e-12, 0.02, 8);  // 11 decades, a tick every second one
  EXPECT_TRUE(s.log);
  EXPECT_EQ(labels(s), (std::vector<std::string>{"1e-12", "1e-10", "1e-8", "1e-6", "0.0001", "0.01", "1"}));
  EXPECT_DOUBLE_EQ(s.fraction(1e-6), 0.5);
  EXPECT_EQ(labels(logScale(2.0, 2.0)), (std::vector<std::string>{"1", "1e1"}));
  EXPECT_EQ(labels(logScale(1e-16, 3e-15)), (std::vector<std::string>{"1e-16", "1e-15", "1e-14"}));
  EXPECT_THROW(logScale(0.0, 1.0), std::invalid_argument);
}

TEST(PlotDecimation, KeepsEveryPixelColumnsExtremes) {
  // A million samples of a sine over 500 pixel columns, with one spike up and one down.
  const std::size_t n = 1'000'000;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 500.0 * static_cast<double>(i) / static_cast<double>(n);
    y[i] = std::sin(1e-4 * static_cast<double>(i));
  }
  y[123457] = 40.0;
  y[654321] = -40.0;
  const std::vector<std::size_t> kept = decimateToPixelColumns(x, y);
  EXPECT_LE(kept.size(), 4u * 500u);
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  EXPECT_EQ(kept.front(), 0u);
  EXPECT_EQ(kept.back(), n - 1);
  EXPECT_TRUE(std::binary_search(kept.begin(), kept.end(), 123457u));
  EXPECT_TRUE(std::binary_search(kept.begin(), kept.end(), 654321u));
  // In every pixel column the kept points reach the same lowest and highest value as all points.
  std::vector<double> lo(500, INFINITY), hi(500, -INFINITY), keptLo(500, INFINITY), keptHi(500, -INFINITY);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(x[i]);
    lo[c] = std::min(lo[c], y[i]);
    hi[c] = std::max(hi[c], y[i]);
  }
  for (std::size_t i : kept) {
    const auto c = static_cast<std::size_t>(x[i]);
    keptLo[c] = std::min(keptLo[c], y[i]);
    keptHi[c] = std::max(keptHi[c], y[i]);
  }
  EXPECT_EQ(lo, keptLo);
  EXPECT_EQ(hi, keptHi);
}

TEST(PlotDecimation, KeepsEveryPointWhenTheLineChangesColumnEachTime) {
  // A phase plot going back and forth between two columns: no run to thin.
  const std::vector<double> x{0.5, 1.5, 0.2, 1.7, 0.9}, y{1, 2, 3, 4, 5};
  EXPECT_EQ(decimateToPixelColumns(x, y), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(decimateToPixelColumns({}, {}).empty());
}

TEST(SvgPlot, DrawsSeriesLegendTitleAndLabels) {
  const std::vector<double> t{0, 0.5, 1, 1.5, 2}, a{1, 3, 2, 5, 4}, b{0, -1, -2, -1, 0};
  LinePlot p;
  p.title = "four <bar> & co";
  p.xLabel = "time (s)";
  p.yLabel = "energy (J)";
  p.series = {{"kinetic_energy", t, a}, {"potential_energy", t, b}};
  const std::string svg = svgLinePlot(p);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"480.0\"", 0), 0u);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_EQ(count(svg, "<polyline"), 2);
  EXPECT_EQ(count(svg, ">kinetic_energy</text>"), 1);  // legend entries
  EXPECT_EQ(count(svg, ">potential_energy</text>"), 1);
  EXPECT_EQ(count(svg, "four &lt;bar&gt; &amp; co"), 2);  // the title, escaped, as <title> and as text
  EXPECT_EQ(count(svg, ">time (s)</text>"), 1);
  EXPECT_EQ(count(svg, ">energy (J)</text>"), 1);
  EXPECT_EQ(count(svg, ">1.5</text>"), 1);  // an x tick label
  EXPECT_EQ(count(svg, ">-2</text>"), 1);   // a y tick label
  EXPECT_EQ(count(svg, "stroke=\"#0072B2\""), 2);  // series and legend swatch
  EXPECT_EQ(count(svg, "stroke=\"#D55E00\""), 2);
  EXPECT_EQ(count(svg, "<script"), 0);
  EXPECT_EQ(count(svg, "href"), 0);
  // The points lie inside the axes, left to right.
  for (const auto& line : polylines(svg)) {
    ASSERT_EQ(line.size(), 5u);
    EXPECT_TRUE(std::is_sorted(line.begin(), line.end()));
    for (const auto& [px, py] : line) {
      EXPECT_GT(px, 0.0);
      EXPECT_LT(px, 800.0);
      EXPECT_GT(py, 40.0);
      EXPECT_LT(py, 480.0);
    }
  }
}

TEST(SvgPlot, ThinsLongSeriesToThePixelWidth) {
  const std::size_t n = 200'000;
  std::vector<double> t(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    t[i] = 1e-5 * static_cast<double>(i);
    y[i] = std::cos(t[i]);
  }
  y[n / 3] = 5.0;  // a spike of one sample
  LinePlot p;
  p.width = 400;
  p.series = {{"y", t, y}};
  const auto lines = polylines(svgLinePlot(p));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_LE(lines[0].size(), 4u * 400u);
  // The spike is the topmost point drawn, far above the rest.
  double top = INFINITY, second = INFINITY;
  for (const auto& pt : lines[0]) {
    if (pt.second < top) {
      second = top;
      top = pt.second;
    } else {
      second = std::min(second, pt.second);
    }
  }
  EXPECT_GT(second - top, 100.0);
}

TEST(SvgPlot, NonFiniteValuesBreakTheLine) {
  const std::vector<double> t{0, 1, 2, 3, 4, 5, 6}, y{1, 2, NAN, 3, 4, INFINITY, 5};
  LinePlot p;
  p.series = {{"y", t, y}};
  const std::string svg = svgLinePlot(p);
  EXPECT_EQ(count(svg, "<polyline"), 2);  // 0-1 and 3-4
  EXPECT_EQ(count(svg, "<circle"), 1);    // 6 alone
  EXPECT_EQ(count(svg, "nan"), 0);
  EXPECT_EQ(count(svg, "inf"), 0);
}

TEST(SvgPlot, LogAxisPlotsMagnitudesAndPutsZerosOnTheBottomEdge) {
  const std::vector<double> t{0, 1, 2, 3}, e{0, 1e-15, -3e-12, 2e-13};
  LinePlot p;
  p.logY = true;
  p.series = {{"constraint_position_error", t, e}};
  const std::string svg = svgLinePlot(p);
  EXPECT_EQ(count(svg, ">1e-15</text>"), 1);
  EXPECT_EQ(count(svg, ">1e-11</text>"), 1);
  const auto lines = polylines(svg);
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0].size(), 4u);
  // The axes' frame: the zero lies on its bottom edge, the smallest magnitude on the lowest decade.
  std::smatch frame;
  ASSERT_TRUE(std::regex_search(svg, frame, std::regex("<rect x=\"[0-9.]+\" y=\"([0-9.]+)\" width=\"[0-9.]+\" height=\"([0-9.]+)\" fill=\"none\"")));
  const double top = std::stod(frame[1]), bottom = top + std::stod(frame[2]);
  EXPECT_NEAR(lines[0][0].second, bottom, 0.051);
  EXPECT_NEAR(lines[0][1].second, bottom, 0.051);     // 1e-15 is the lowest decade
  EXPECT_GT(lines[0][2].second, top + 10.0);          // |-3e-12|, the largest, below the top decade 1e-11
  EXPECT_LT(lines[0][2].second, lines[0][3].second);  // |-3e-12| above 2e-13
}

TEST(SvgPlot, EmptyPlotsSayNoData) {
  const std::vector<double> none;
  LinePlot p;
  p.series = {{"y", none, none}};
  const std::string svg = svgLinePlot(p);
  EXPECT_EQ(count(svg, ">no data</text>"), 1);
  EXPECT_EQ(count(svg, "<polyline"), 0);
  p.logY = true;
  EXPECT_EQ(count(svgLinePlot(p), ">no data</text>"), 1);
}

TEST(SvgPlot, ManySeriesGetDistinctStylesAndTheLegendWraps) {
  const std::vector<double> t{0, 1}, y{0, 1};
  LinePlot p;
  p.width = 300;
  p.height = 150;
  for (int k = 0; k < 21; ++k) p.series.push_back({"series_" + std::to_string(k), t, y});
  const std::string svg = svgLinePlot(p);
  const std::regex style("<g fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" (stroke=\"[^\"]*\"(?: stroke-dasharray=\"[^\"]*\")?)>");
  std::set<std::string> styles;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), style); it != std::sregex_iterator(); ++it) styles.insert((*it)[1]);
  EXPECT_EQ(styles.size(), 21u);
  // 21 legend rows of a 300 px image do not fit into 150 px: the image grows.
  const std::regex height("height=\"([0-9.]+)\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, height));
  EXPECT_GT(std::stod(m[1]), 150.0 + 100.0);
}

}  // namespace ARTICULA_TEST_FILE
