#include "articula/io/results_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "articula/core/error.hpp"

namespace articula {

namespace fs = std::filesystem;

ResultsFiles locateResults(const std::string& results) {
  std::error_code ec;
  const fs::path path(results);
  if (fs::is_directory(path, ec)) {
    const fs::path csv = path / "results.csv";
    if (!fs::is_regular_file(csv, ec))
      throw Error("'" + results + "' holds no results.csv (is it the output directory of articula simulate?)");
    return {csv.string(), (path / "summary.json").string()};
  }
  if (!fs::exists(path, ec)) throw Error("'" + results + "': no such results directory or file");
  return {results, (path.parent_path() / "summary.json").string()};
}

namespace {

/// Splits one line at the commas; a "\r" before the line end belongs to no field.
std::vector<std::string_view> fields(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

std::string quoted(std::string_view field) {
  constexpr std::size_t kShown = 40;  // a garbage line must not flood the message
  return "'" + std::string(field.substr(0, kShown)) + (field.size() > kShown ? "...'" : "'");
}

}  // namespace

ResultsTable ResultsTable::parse(std::istream& in, const std::string& name) {
  auto fail = [&](std::size_t line, const std::string& what) -> Error {
    return Error(SourceLocation{name, static_cast<int>(line), 0}.str() + ": " + what);
  };
  ResultsTable t;
  t.name_ = name;
  std::string line;
  if (!std::getline(in, line)) throw Error(name + ": empty file (no header line)");
  for (const std::string_view column : fields(line)) {
    if (column.empty()) throw fail(1, "empty column name (column " + std::to_string(t.names_.size() + 1) + ")");
    if (std::find(t.names_.begin(), t.names_.end(), column) != t.names_.end())
      throw fail(1, "duplicate column name " + quoted(column));
    t.names_.emplace_back(column);
  }
  t.columns_.resize(t.names_.size());
  for (std::size_t lineNumber = 2; std::getline(in, line); ++lineNumber) {
    const std::vector<std::string_view> values = fields(line);
    if (values.size() != t.names_.size())
      throw fail(lineNumber, "expected " + std::to_string(t.names_.size()) + " values, found " +
                                 std::to_string(values.size()) + (line.empty() ? " (empty line)" : ""));
    for (std::size_t c = 0; c < values.size(); ++c) {
      const std::string_view v = values[c];
      double x = 0.0;
      const auto r = std::from_chars(v.data(), v.data() + v.size(), x);
      if (r.ptr != v.data() + v.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
        throw fail(lineNumber, "column '" + t.names_[c] + "': " + quoted(v) + " is not a number");
      // from_chars leaves x alone when the number is out of range; strtod rounds it to +-inf or 0.
      if (r.ec == std::errc::result_out_of_range) x = std::strtod(std::string(v).c_str(), nullptr);
      t.columns_[c].push_back(x);
    }
  }
  if (in.bad()) throw Error("reading '" + name + "' failed");
  return t;
}

ResultsTable ResultsTable::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "'");
  return parse(in, path);
}

std::optional<std::size_t> ResultsTable::find(std::string_view column) const {
  const auto it = std::find(names_.begin(), names_.end(), column);
  if (it == names_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names_.begin());
}

void ResultsTable::addColumn(std::string columnName, std::vector<double> values) {
  if (find(columnName)) throw Error(name_ + ": a column '" + columnName + "' exists already");
  if (!names_.empty() && values.size() != rows())
    throw Error(name_ + ": column '" + columnName + "' has " + std::to_string(values.size()) + " values for " +
                std::to_string(rows()) + " rows");
  names_.push_back(std::move(columnName));
  columns_.push_back(std::move(values));
}

std::string ResultsTable::nonFiniteWarning(std::size_t index) const {
  const std::span<const double> values = column(index);
  const auto isBad = [](double x) { return !std::isfinite(x); };
  const auto first = std::find_if(values.begin(), values.end(), isBad);
  if (first == values.end()) return "";
  const auto count = std::count_if(first, values.end(), isBad);
  return name_ + ": column '" + names_[index] + "' has " + std::to_string(count) + " non-finite value" +
         (count > 1 ? "s" : "") + ", the first on line " +
         std::to_string(lineOfRow(static_cast<std::size_t>(first - values.begin())));
}

}  // namespace articula
