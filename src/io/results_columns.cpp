#include "articula/io/results_columns.hpp"

#include <algorithm>
#include <cmath>

#include "articula/core/error.hpp"

namespace articula {

namespace {

constexpr std::string_view kEnergies[] = {"kinetic_energy", "potential_energy", "total_energy"};
constexpr std::string_view kConstraintErrors[] = {"constraint_position_error", "constraint_velocity_error"};

/// The ".q" or ".v" of a joint column ("crank.q", "ball.q3"), or "" for any other column.
std::string_view jointColumnKind(std::string_view column) {
  const std::size_t dot = column.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= column.size()) return "";
  const std::string_view suffix = column.substr(dot + 1);
  if (suffix[0] != 'q' && suffix[0] != 'v') return "";
  if (!std::all_of(suffix.begin() + 1, suffix.end(), [](char c) { return c >= '0' && c <= '9'; })) return "";
  return suffix.substr(0, 1);
}

bool isMarkerColumn(std::string_view column) {
  return column.ends_with(".x") || column.ends_with(".y") || column.ends_with(".z");
}

template <std::size_t N>
bool isOneOf(std::string_view column, const std::string_view (&names)[N]) {
  return std::find(std::begin(names), std::end(names), column) != std::end(names);
}

/// Whether an alias item selects the column; nullopt when the item is no alias.
std::optional<bool> aliasSelects(std::string_view alias, std::string_view column) {
  if (alias == "energy") return isOneOf(column, kEnergies);
  if (alias == "constraint_error") return isOneOf(column, kConstraintErrors);
  if (alias == "q" || alias == "v") return jointColumnKind(column) == alias;
  if (alias == "markers") return isMarkerColumn(column);
  return std::nullopt;
}

bool prefixSelects(std::string_view prefix, std::string_view column) {
  return column.size() > prefix.size() && column.starts_with(prefix) &&
         (column[prefix.size()] == '.' || column[prefix.size()] == '_');
}

/// The quantity a column holds, in words.
std::string quantity(std::string_view column) {
  if (column == "time") return "time";
  if (isOneOf(column, kEnergies)) return "energy";
  if (column == kRelativeEnergyDrift) return "relative energy drift";
  if (column == kConstraintErrors[0]) return "constraint position error";
  if (column == kConstraintErrors[1]) return "constraint velocity error";
  if (jointColumnKind(column) == "q") return "joint coordinate";
  if (jointColumnKind(column) == "v") return "joint velocity";
  if (isMarkerColumn(column)) return "marker position";
  return std::string(column);
}

}  // namespace

std::vector<std::size_t> selectColumns(const ResultsTable& table, std::string_view item) {
  const std::vector<std::string>& names = table.columnNames();
  if (const auto exact = table.find(item)) return {*exact};
  std::vector<std::size_t> selected;
  for (std::size_t c = 0; c < names.size(); ++c)
    if (aliasSelects(item, names[c]).value_or(prefixSelects(item, names[c]))) selected.push_back(c);
  if (selected.empty()) {
    std::string available;
    for (const std::string& n : names) available += (available.empty() ? "" : ", ") + n;
    throw Error(table.name() + ": no column '" + std::string(item) + "'; the columns are " + available +
                "; aliases: energy, constraint_error, q, v, markers; a prefix such as a joint or marker name "
                "selects its columns");
  }
  return selected;
}

std::vector<std::size_t> selectColumns(const ResultsTable& table, const std::vector<std::string>& items) {
  std::vector<std::size_t> all;
  for (const std::string& item : items)
    for (const std::size_t c : selectColumns(table, item))
      if (std::find(all.begin(), all.end(), c) == all.end()) all.push_back(c);
  return all;
}

std::string columnUnit(std::string_view column) {
  if (column == "time") return "s";
  if (isOneOf(column, kEnergies)) return "J";
  if (isMarkerColumn(column)) return "m";
  return "";
}

std::string axisLabel(const std::vector<std::string>& columns, bool magnitude) {
  if (columns.empty()) return "value";
  const auto sameAsFirst = [&](auto property) {
    return std::all_of(columns.begin(), columns.end(), [&](const std::string& c) { return property(c) == property(columns[0]); });
  };
  const std::string unit = columnUnit(columns[0]);
  const bool sameUnit = sameAsFirst(columnUnit);
  std::string what = sameAsFirst(quantity) ? quantity(columns[0]) : "value";
  if (magnitude) what = "|" + what + "|";
  return sameUnit && !unit.empty() ? what + " (" + unit + ")" : what;
}

std::optional<std::vector<double>> relativeEnergyDrift(const ResultsTable& table) {
  const auto total = table.find("total_energy");
  if (!total || table.rows() == 0) return std::nullopt;
  const std::span<const double> energy = table.column(*total);
  const double e0 = energy[0];
  if (e0 == 0.0 || !std::isfinite(e0)) return std::nullopt;
  std::vector<double> drift(energy.size());
  std::transform(energy.begin(), energy.end(), drift.begin(), [&](double e) { return (e - e0) / std::abs(e0); });
  return drift;
}

void addDerivedColumns(ResultsTable& table) {
  if (table.find(kRelativeEnergyDrift)) return;
  if (auto drift = relativeEnergyDrift(table)) table.addColumn(std::string(kRelativeEnergyDrift), std::move(*drift));
}

}  // namespace articula
