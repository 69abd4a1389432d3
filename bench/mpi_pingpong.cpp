// Message latency and bandwidth between two MPI ranks through parallel::Communicator's span send
// and receive (the calls of the distributed formulation's step loop), for the distributed
// formulation's cost model (bench/distributed_model.py, docs/distributed.md "Projection").
// Rank 0 sends m doubles, rank 1 sends them back; the half round trip, median of REPEAT rounds
// of 200 trips, for m = 1 .. 8192 doubles, then the least-squares fit t(bytes) = latency +
// bytes / bandwidth. Output: one "bytes seconds" line per size and a "fit" line.
// Run: tests/mpi/mpirun.sh 2 build/bin/mpi_pingpong [REPEAT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "articula/parallel/communicator.hpp"

using articula::parallel::Communicator;

int main(int argc, char** argv) {
  const Communicator world;
  if (world.size() != 2) {
    std::fprintf(stderr, "mpi_pingpong: run on 2 ranks (size %d)\n", world.size());
    return 1;
  }
  const int repeat = argc > 1 ? std::atoi(argv[1]) : 7;
  const int trips = 200;
  std::vector<double> buffer(8192, 1.0), sizes, times;
  for (std::size_t m = 1; m <= buffer.size(); m *= 4) {
    const std::span<double> data(buffer.data(), m);
    std::vector<double> rounds;
    for (int r = 0; r < repeat; ++r) {
      world.barrier();
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < trips; ++k) {
        if (world.rank() == 0) {
          world.send(std::span<const double>(data), 1, 5);
          world.receive(data, 1, 6);
        } else {
          world.receive(data, 0, 5);
          world.send(std::span<const double>(data), 0, 6);
        }
      }
      rounds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / (2.0 * trips));
    }
    std::nth_element(rounds.begin(), rounds.begin() + repeat / 2, rounds.end());
    sizes.push_back(static_cast<double>(m * sizeof(double)));
    times.push_back(rounds[static_cast<std::size_t>(repeat / 2)]);
  }
  if (world.rank() != 0) return 0;
  // Least squares t = a + b * bytes.
  const double n = static_cast<double>(sizes.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    sx += sizes[k];
    sy += times[k];
    sxx += sizes[k] * sizes[k];
    sxy += sizes[k] * times[k];
  }
  const double b = (n * sxy - sx * sy) / (n * sxx - sx * sx), a = (sy - b * sx) / n;
  for (std::size_t k = 0; k < sizes.size(); ++k) std::printf("%.0f bytes %.3e s\n", sizes[k], times[k]);
  std::printf("fit: latency %.3e s, bandwidth %.3e bytes/s\n", a, 1.0 / b);
  return 0;
}
