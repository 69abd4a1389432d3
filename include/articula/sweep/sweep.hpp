// Runs the cases of an ensemble over the processes of a Communicator (docs/sweep.md): each case
// is a simulation of the model with the case's values, written to DIR/cases/<id>/; a case
// directory appears, complete, by one rename when the case has finished, so a sweep that was
// stopped is resumed by running only the cases without one. DIR/summary.csv gathers one line per
// finished case, in the table's order.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "articula/parallel/communicator.hpp"
#include "articula/sweep/cases.hpp"

namespace articula::sweep {

struct SweepSetup {
  std::string modelPath;          ///< recorded in each case's summary.json
  std::uint64_t modelFingerprint = 0;  ///< of the model file's bytes
  std::string casesText;          ///< the table as read or generated: written to DIR/cases.csv
  std::string outDir;
  SimulationOptions options;      ///< of every case; a case's columns change a copy
  long maxCases = -1;             ///< run at most this many unfinished cases now (-1: all)
  bool quiet = false;             ///< no line per case on stdout
};

struct SweepOutcome {
  std::size_t cases = 0;     ///< in the table
  std::size_t finished = 0;  ///< have their directory (this run or an earlier one)
  std::size_t failed = 0;    ///< of the finished, those whose run failed or whose values were refused
  std::size_t ranNow = 0;    ///< finished by this invocation, over all ranks
};

/// The header of summary.csv for a table.
std::string summaryHeader(const CaseTable& table);

/// Runs the unfinished cases, distributed round-robin over the ranks of `world`, then writes
/// DIR/summary.csv (root). Every rank calls it with the same arguments. Throws articula::Error
/// when DIR holds a sweep of another model, table or options (its fingerprint differs), or
/// when case files cannot be written; on the root, the outcome counts every rank's work.
SweepOutcome runSweep(const Model& model, const CaseTable& table, const SweepSetup& setup,
                      const parallel::Communicator& world, std::ostream& log);

}  // namespace articula::sweep
