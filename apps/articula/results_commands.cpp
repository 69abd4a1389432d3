#include "results_commands.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "articula/core/error.hpp"
#include "articula/io/results_columns.hpp"
#include "articula/io/run_report.hpp"
#include "articula/io/svg_plot.hpp"

namespace articula::cli {

namespace {

void writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  out << content;
  out.close();
  if (!out) throw Error("writing '" + path + "' failed");
}

/// The model name from the summary beside the results, else the results file's name: a missing
/// or unreadable summary costs the plot only its title (with a warning for an unreadable one).
std::string defaultTitle(const ResultsFiles& files) {
  if (!std::filesystem::exists(files.summary)) return files.csv;
  try {
    return readRunSummary(files.summary).modelName;
  } catch (const Error& e) {
    std::cerr << "articula: warning: " << e.what() << "\n";
    return files.csv;
  }
}

}  // namespace

int plotCommand(const Command& c) {
  const ResultsFiles files = locateResults(c.resultsPath);
  ResultsTable table = ResultsTable::read(files.csv);
  if (table.rows() == 0) throw Error(files.csv + ": no samples to plot (the file has only its header)");
  addDerivedColumns(table);
  const std::vector<std::size_t> x = selectColumns(table, c.plot.x);
  if (x.size() != 1)
    throw Error("--x '" + c.plot.x + "' selects " + std::to_string(x.size()) + " columns of " + files.csv + "; it needs one");
  const std::vector<std::size_t> ys = selectColumns(table, c.plot.y);

  LinePlot plot;
  plot.title = c.plot.title ? *c.plot.title : defaultTitle(files);
  plot.width = c.plot.width;
  plot.height = c.plot.height;
  plot.logY = c.plot.logY;
  const std::string& xName = table.columnNames()[x[0]];
  plot.xLabel = axisLabel({xName});
  std::vector<std::string> yNames;
  for (const std::size_t y : ys) {
    yNames.push_back(table.columnNames()[y]);
    plot.series.push_back({yNames.back(), table.column(x[0]), table.column(y)});
  }
  plot.yLabel = axisLabel(yNames, c.plot.logY);
  std::vector<std::size_t> drawn = ys;
  if (std::find(ys.begin(), ys.end(), x[0]) == ys.end()) drawn.push_back(x[0]);
  for (const std::size_t column : drawn)
    if (const std::string warning = table.nonFiniteWarning(column); !warning.empty())
      std::cerr << "articula: warning: " << warning << ": those points are left out\n";
  writeFile(c.outputFile, svgLinePlot(plot));
  return 0;
}

int reportCommand(const Command& c) {
  const ResultsFiles files = locateResults(c.resultsPath);
  if (!std::filesystem::exists(files.summary))
    throw Error("report needs the run summary '" + files.summary + "' beside " + files.csv);
  const RunSummary summary = readRunSummary(files.summary);
  writeFile(c.outputFile, runReportHtml(summary, ResultsTable::read(files.csv)));
  return 0;
}

}  // namespace articula::cli
