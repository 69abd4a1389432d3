#include "articula/io/run_report.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <vector>

#include "articula/io/markup.hpp"
#include "articula/io/results_columns.hpp"
#include "articula/io/svg_plot.hpp"

namespace articula {

namespace {

constexpr int kPlotWidth = 760, kPlotHeight = 320;

/// `digits` significant digits; plain decimals from 0.001 to 1e9 (56300, not 5.63e+04).
std::string number(double x, int digits = 4) {
  if (!std::isfinite(x)) return "n/a";
  std::array<char, 40> buf{};
  const double magnitude = std::abs(x);
  if (magnitude < 1e-3 || magnitude >= 1e9) {
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::general, digits);
    return std::string(buf.data(), r.ptr);
  }
  const int decade = static_cast<int>(std::floor(std::log10(magnitude)));
  const double unit = std::pow(10.0, decade - digits + 1);  // of the last significant digit
  const double rounded = std::round(x / unit) * unit;
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), rounded, std::chars_format::fixed, std::max(0, digits - 1 - decade));
  std::string s(buf.data(), r.ptr);
  // Trailing zeros of the decimals say nothing: 7.300 -> 7.3, 2.000 -> 2.
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

/// A duration in s, ms or µs, whichever reads best.
std::string duration(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  if (seconds != 0.0 && std::abs(seconds) < 1e-3) return number(seconds * 1e6, 3) + " µs";
  if (seconds != 0.0 && std::abs(seconds) < 1.0) return number(seconds * 1e3, 3) + " ms";
  return number(seconds, 4) + " s";
}

std::string row(const std::string& name, const std::string& value) {
  return "<tr><th>" + escapeMarkup(name) + "</th><td>" + escapeMarkup(value) + "</td></tr>\n";
}

std::string note(const std::string& text) { return "<p class=\"note\">" + escapeMarkup(text) + "</p>\n"; }

std::string runTable(const RunSummary& s) {
  std::string t = "<table>\n";
  t += row("model", s.modelName + " (" + s.modelFile + "): " + std::to_string(s.bodies) + " bodies, " +
                        std::to_string(s.constraintEquations) + " constraint equations");
  t += row("formulation", s.formulation);
  t += row("integrator", s.integrator);
  t += row("options", "dt " + number(s.dt) + " s, rtol " + number(s.rtol) + ", atol " + number(s.atol) +
                          ", stabilization " + s.stabilization);
  t += row("time span", number(s.tStart) + " s to " + number(s.tEnd) + " s, reached " + number(s.tReached, 9) + " s");
  if (s.resumedAt) t += row("resumed at", number(*s.resumedAt, 9) + " s (from a restart file)");
  t += row("steps", std::to_string(s.steps) + " accepted, " + std::to_string(s.rejectedSteps) + " rejected");
  t += row("function evaluations", std::to_string(s.evaluations));
  t += row("samples written", std::to_string(s.samples));
  t += row("wall time", duration(s.wallSeconds));
  t += row("time per step", duration(benchmarkOf(s).secondsPerStep));
  t += row("energy", "initial " + number(s.initialEnergy, 9) + " J, final " + number(s.finalEnergy, 9) + " J");
  t += row("energy drift", "max " + number(s.maxEnergyDrift) + " J, relative " + number(s.maxRelativeEnergyDrift) +
                               (s.conservative ? "" : " (the model is not conservative: its energy changes by design)"));
  if (s.constraintEquations > 0)
    t += row("constraint errors", "max " + number(s.maxPositionError) + " (position), " + number(s.maxVelocityError) + " (velocity)");
  if (s.singularConfigurations > 0) t += row("singular configurations passed", std::to_string(s.singularConfigurations));
  return t + "</table>\n";
}

std::string benchmarkTable(const RunSummary& s) {
  const RunBenchmark b = benchmarkOf(s);
  std::string t = "<table>\n";
  t += row("wall time", duration(s.wallSeconds));
  t += row("output time", duration(s.outputSeconds) + " (sampling, energies, writing the files)");
  t += row("integration time", duration(b.integrationSeconds) + " (wall time less output time)");
  t += row("simulated time", duration(b.simulatedSeconds));
  t += row("steps per second", number(b.stepsPerSecond, 3) + " (of integration time)");
  t += row("evaluations per step", number(b.evaluationsPerStep, 3));
  t += row("real-time factor", number(b.realTimeFactor, 3) + " (simulated time / integration time; above 1 is faster than real time)");
  t += "</table>\n";
  if (s.resumedAt) t += note("The run was resumed: the output time counts from the resume only.");
  return t;
}

struct Curve {
  std::string name;
  std::span<const double> values;
};

/// The named columns that the table has, in the order given.
std::vector<Curve> curves(const ResultsTable& table, const std::vector<std::string>& names) {
  std::vector<Curve> found;
  for (const std::string& n : names)
    if (const auto index = table.find(n)) found.push_back({n, table.column(*index)});
  return found;
}

/// A note for each of the named columns that holds non-finite values (those are not drawn).
std::string nonFiniteNotes(const ResultsTable& table, const std::vector<std::string>& names) {
  std::string notes;
  for (const std::string& n : names)
    if (const auto index = table.find(n))
      if (const std::string warning = table.nonFiniteWarning(*index); !warning.empty()) notes += note(warning + ": not drawn.");
  return notes;
}

std::string timePlot(const ResultsTable& table, const std::string& title, const std::vector<Curve>& curves, bool logY) {
  const std::span<const double> time = table.column(selectColumns(table, "time").front());
  LinePlot plot;
  plot.title = title;
  plot.xLabel = "time (s)";
  plot.width = kPlotWidth;
  plot.height = kPlotHeight;
  plot.logY = logY;
  std::vector<std::string> names;
  for (const Curve& c : curves) {
    names.push_back(c.name);
    plot.series.push_back({c.name, time, c.values});
  }
  plot.yLabel = axisLabel(names, logY);
  return "<figure>\n" + svgLinePlot(plot) + "</figure>\n";
}

std::string energySection(const RunSummary& s, const ResultsTable& table) {
  const std::vector<std::string> energies{"kinetic_energy", "potential_energy", "total_energy"};
  std::string html = "<h2>Energy</h2>\n";
  const std::vector<Curve> found = curves(table, energies);
  if (found.empty()) return html + note("results.csv has no energy columns.");
  html += timePlot(table, "Energy", found, false) + nonFiniteNotes(table, energies);
  if (const auto drift = relativeEnergyDrift(table))
    html += timePlot(table, "Relative energy drift (E(t) - E(0)) / |E(0)|", {{std::string(kRelativeEnergyDrift), *drift}}, false);
  else if (table.find("total_energy"))
    html += note("No relative energy drift: the initial energy is zero or not finite.");
  if (!s.conservative) html += note("The model is not conservative: its energy changes by design.");
  return html;
}

std::string constraintSection(const RunSummary& s, const ResultsTable& table) {
  const std::vector<std::string> errors{"constraint_position_error", "constraint_velocity_error"};
  std::string html = "<h2>Constraint drift</h2>\n";
  if (s.constraintEquations == 0) return html + note("The model has no constraint equations.");
  const std::vector<Curve> found = curves(table, errors);
  if (found.empty()) return html + note("results.csv has no constraint error columns.");
  return html + timePlot(table, "Constraint errors", found, true) + nonFiniteNotes(table, errors);
}

constexpr const char* kStyle = R"(
body { font-family: sans-serif; max-width: 820px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 0.2em 1em 0.2em 0; }
th { font-weight: normal; color: #555; white-space: nowrap; }
.status { padding: 0.5em 0.8em; border-radius: 4px; }
.ok { background: #e6f4ea; }
.failed { background: #fde8e8; border: 1px solid #d55e00; }
.note { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; }
)";

}  // namespace

std::string runReportHtml(const RunSummary& s, const ResultsTable& results) {
  const std::string model = escapeMarkup(s.modelName.empty() ? "untitled model" : s.modelName);
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" + model +
                     ": run report</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + model + "</h1>\n";
  if (s.ok)
    html += "<p class=\"status ok\">The run finished: " + escapeMarkup(number(s.tReached - s.tStart)) + " s simulated with " +
            escapeMarkup(s.formulation + " + " + s.integrator) + ".</p>\n";
  else
    html += "<p class=\"status failed\" role=\"alert\">The run failed: " + escapeMarkup(s.error) + ". Results up to t = " +
            escapeMarkup(number(s.tReached, 9)) + " s.</p>\n";
  html += "<h2>Run</h2>\n" + runTable(s);
  html += "<h2>Benchmark of the run</h2>\n" + benchmarkTable(s);
  html += energySection(s, results);
  html += constraintSection(s, results);
  return html + "</body>\n</html>\n";
}

}  // namespace articula
