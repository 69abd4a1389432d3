// Streams samples to a CSV file, one complete line per sample, flushed as it is
// written: a run that stops for any reason leaves a readable file up to its last sample.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "articula/simulate/simulation.hpp"

namespace articula {

class CsvWriter final : public SampleSink {
 public:
  /// Opens (truncates) the file and writes the header. Throws articula::Error naming the path.
  /// With `resume`, the file is left as it is until restoreState() cuts it back to the
  /// length saved in the restart file and continues it.
  CsvWriter(const Model& model, const std::string& path, bool resume = false);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write(const Sample& sample) override;
  void saveState(ArchiveWriter& out) const override;
  void restoreState(ArchiveReader& in) override;

  /// Column names, in order: time, then sampleSignals(model) (io/sample_signals.hpp).
  static std::vector<std::string> columns(const Model& model);

 private:
  void number(double x);
  const Model& model_;
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<double> values_;  // of one sample, sampleSignals(model_) order
  std::string line_;
};

}  // namespace articula
