#include "view_command.hpp"

#include <filesystem>
#include <iostream>

#include "articula/io/animation.hpp"
#include "articula/io/results_table.hpp"
#include "articula/io/run_summary.hpp"
#include "articula/io/sample_signals.hpp"
#include "articula/io/yaml_model.hpp"

namespace articula::cli {

namespace {

// The model file: --model, else the one summary.json names (relative to where the run was made,
// which is usually where view runs too).
std::string modelFileOf(const Command& c, const ResultsFiles& files, const RunSummary* summary) {
  if (!c.modelPath.empty()) return c.modelPath;
  if (!summary) throw Error("no summary.json beside " + files.csv + " to name the model: give it with --model MODEL");
  if (!std::filesystem::exists(summary->modelFile))
    throw Error("the model of the run, '" + summary->modelFile + "' (from " + files.summary +
                "), is not found from here: give it with --model MODEL");
  return summary->modelFile;
}

}  // namespace

int viewCommand(const Command& c) {
  const ResultsFiles files = locateResults(c.resultsPath);
  std::optional<RunSummary> summary;
  if (std::filesystem::exists(files.summary)) summary = readRunSummary(files.summary);
  const std::string modelFile = modelFileOf(c, files, summary ? &*summary : nullptr);
  const Model model = loadModel(modelFile);
  const ResultsTable table = ResultsTable::read(files.csv);

  // Every signal of the model must be a column: then the columns of q are known, in q's order.
  const std::vector<SignalColumn> signals = sampleSignals(model);
  const auto time = table.find("time");
  if (!time) throw Error(files.csv + ": no 'time' column");
  std::vector<std::size_t> columnOf;
  std::vector<std::size_t> qSignals;
  for (std::size_t k = 0; k < signals.size(); ++k) {
    const auto col = table.find(signals[k].name);
    if (!col)
      throw Error(files.csv + ": no column '" + signals[k].name + "' of model " + modelFile +
                  ": the results belong to another model (give the right one with --model)");
    columnOf.push_back(*col);
    if (signals[k].group == SignalGroup::JointPosition) qSignals.push_back(k);
  }
  if (static_cast<int>(qSignals.size()) != model.nq) throw Error("internal: the joint-coordinate signals do not match nq");

  const std::string out = c.outputFile.empty() ? std::filesystem::path(files.csv).parent_path().append("animation.html").string()
                                               : c.outputFile;
  AnimationWriter page(model, out);
  Eigen::VectorXd q(model.nq);
  std::vector<double> values(signals.size());
  for (std::size_t row = 0; row < table.rows(); ++row) {
    for (std::size_t k = 0; k < signals.size(); ++k) values[k] = table.column(columnOf[k])[row];
    for (int i = 0; i < model.nq; ++i) q[i] = values[qSignals[static_cast<std::size_t>(i)]];
    page.addFrame(table.column(*time)[row], q, values);
  }
  page.write(summary && !summary->ok ? "run failed: " + summary->error : "");
  std::cout << "animation: " << page.path() << " (" << page.frames() << " frames)\n";
  return 0;
}

}  // namespace articula::cli
