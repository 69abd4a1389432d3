// results.csv (written by CsvWriter) read back into named columns, for plots and reports.
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace articula {

/// The files of a run: RESULTS names a results directory or the results.csv in it.
struct ResultsFiles {
  std::string csv;      ///< results.csv
  std::string summary;  ///< summary.json beside it (it may not exist)
};

/// Throws articula::Error when `results` is neither a directory holding results.csv nor a file.
ResultsFiles locateResults(const std::string& results);

/// A table of numbers with unique column names, one row per sample.
class ResultsTable {
 public:
  /// Reads a CSV file: a header line of unique, non-empty column names, then one line of numbers
  /// per row, as many as there are columns. "nan" and "inf" are numbers (CsvWriter writes
  /// non-finite values so); a line ending in "\r\n" is accepted. Throws articula::Error naming
  /// the file and, for a malformed line, the line and the field.
  static ResultsTable read(const std::string& path);
  /// The same from a stream; `name` stands for the file in the messages.
  static ResultsTable parse(std::istream& in, const std::string& name);

  const std::string& name() const { return name_; }
  const std::vector<std::string>& columnNames() const { return names_; }
  std::size_t rows() const { return columns_.empty() ? 0 : columns_.front().size(); }
  std::optional<std::size_t> find(std::string_view column) const;
  std::span<const double> column(std::size_t index) const { return columns_.at(index); }
  /// Appends a column computed from the others (`values` has rows() entries, the name is new).
  void addColumn(std::string columnName, std::vector<double> values);

  /// The line of the file that holds row `row` (the header is line 1).
  static std::size_t lineOfRow(std::size_t row) { return row + 2; }
  /// "" when every value of the column is finite; otherwise a warning naming the file, the
  /// column, how many values are not finite and the line of the first.
  std::string nonFiniteWarning(std::size_t index) const;

 private:
  std::string name_;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> columns_;
};

}  // namespace articula
