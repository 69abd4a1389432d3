// The vocabulary of results.csv columns (CsvWriter::columns): which columns a short name
// selects, their units, and the relative energy drift derived from them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "articula/io/results_table.hpp"

namespace articula {

/// Name of the derived column (E(t) - E(0)) / |E(0)| of the total energy.
inline constexpr std::string_view kRelativeEnergyDrift = "relative_energy_drift";

/// The columns one item of a selection names, in file order:
///  - a column name;
///  - an alias: `energy` (kinetic, potential and total energy), `constraint_error` (position and
///    velocity constraint errors), `q` (joint coordinates), `v` (joint velocities), `markers`
///    (marker positions);
///  - a prefix that ends where the column name has a '.' or '_': `crank` selects crank.q and
///    crank.v, `kinetic` selects kinetic_energy.
/// Throws articula::Error naming the item and listing the columns and aliases when it selects nothing.
std::vector<std::size_t> selectColumns(const ResultsTable& table, std::string_view item);
/// Every column the items select, each once, in the order of the items.
std::vector<std::size_t> selectColumns(const ResultsTable& table, const std::vector<std::string>& items);

/// "s", "J" or "m" for the columns whose unit the file tells; "" for the others (a joint
/// coordinate is an angle or a length depending on its joint; constraint errors mix both).
std::string columnUnit(std::string_view column);

/// An axis label for these columns: the quantity they share ("energy (J)"), else the unit they
/// share ("value (J)"), else "value"; `magnitude` puts the quantity between bars ("|energy| (J)").
std::string axisLabel(const std::vector<std::string>& columns, bool magnitude = false);

/// (E(t) - E(0)) / |E(0)| of total_energy; none without that column, rows or a finite non-zero E(0).
std::optional<std::vector<double>> relativeEnergyDrift(const ResultsTable& table);
/// Adds the derived columns that the table allows (kRelativeEnergyDrift).
void addDerivedColumns(ResultsTable& table);

}  // namespace articula
