// Cases tables made from ranges (full factorial) or drawn at random (Monte Carlo), written as
// the CSV text of cases.hpp so that a generated sweep is run, recorded and resumed from the same
// table as a hand-written one (docs/sweep.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace articula::sweep {

/// One factor of a full-factorial grid: `COLUMN=LO:HI:N` (N values from LO to HI, evenly spaced)
/// or `COLUMN=V1,V2,...`.
struct GridAxis {
  std::string column;
  std::vector<double> values;
};
/// Throws articula::Error saying what is wrong with the text.
GridAxis parseGridAxis(const std::string& spec);
/// Every combination, the last axis varying fastest; ids g1, g2, ... (zero-padded).
std::string fullFactorial(const std::vector<GridAxis>& axes);

/// One random input: `COLUMN=uniform(LO,HI)` or `COLUMN=normal(MEAN,SD)`.
struct Distribution {
  std::string column;
  bool normal = false;
  double a = 0.0, b = 0.0;  ///< LO, HI or MEAN, SD
};
/// Throws articula::Error saying what is wrong with the text.
Distribution parseDistribution(const std::string& spec);
/// n cases drawn from the distributions with a 64-bit Mersenne Twister seeded with `seed`
/// (uniform from the top 53 bits, normal by Box-Muller): the same table on every platform.
/// Ids mc1, mc2, ... (zero-padded).
std::string monteCarlo(const std::vector<Distribution>& inputs, int n, std::uint64_t seed);

}  // namespace articula::sweep
