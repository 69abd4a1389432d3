// The report of one run: a self-contained HTML page.
#pragma once

#include <string>

#include "articula/io/results_table.hpp"
#include "articula/io/run_summary.hpp"

namespace articula {

/// One HTML page (inline CSS and SVG; no scripts, no references to other files; also well-formed
/// XML): the run summary (or the error that stopped the run), the benchmark of the run, and plots
/// over time of the energies, the relative energy drift and the constraint errors (log scale),
/// each where `results` has its columns.
std::string runReportHtml(const RunSummary& summary, const ResultsTable& results);

}  // namespace articula
