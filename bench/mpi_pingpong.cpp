// Message latency and bandwidth between two MPI ranks through parallel::Communicator's span send
// and receive (the calls of the distributed formulation's step loop), for the distributed
// formulation's cost model (bench/distributed_model.py, docs/distributed.md "Projection").
// Rank 0 sends m doubles, rank 1 sends them back, TRIPS times (default 200) for m = 1 .. 8192
// doubles; each trip is timed alone, and half of its time is one message. Printed per size: the
// median and the minimum of those (the minimum approximates an idle machine: on a loaded one a
// rank that yields while it waits may wait for a time slice), then least-squares fits
// t(bytes) = latency + bytes / bandwidth of the medians and of the minima.
// Run: tests/mpi/mpirun.sh 2 build/bin/mpi_pingpong [TRIPS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <utility>
#include <vector>

#include "articula/parallel/communicator.hpp"

using articula::parallel::Communicator;

namespace {

// Least squares t = a + b x.
std::pair<double, double> fit(const std::vector<double>& x, const std::vector<double>& t) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    sx += x[k];
    sy += t[k];
    sxx += x[k] * x[k];
    sxy += x[k] * t[k];
  }
  const double b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - b * sx) / n, b};
}

}  // namespace

int main(int argc, char** argv) {
  const Communicator world;
  if (world.size() != 2) {
    std::fprintf(stderr, "mpi_pingpong: run on 2 ranks (size %d)\n", world.size());
    return 1;
  }
  const int trips = argc > 1 ? std::atoi(argv[1]) : 200;
  std::vector<double> buffer(8192, 1.0), sizes, medians, minima;
  for (std::size_t m = 1; m <= buffer.size(); m *= 4) {
    const std::span<double> data(buffer.data(), m);
    std::vector<double> halves;
    world.barrier();
    for (int k = 0; k < trips; ++k) {
      const auto start = std::chrono::steady_clock::now();
      if (world.rank() == 0) {
        world.send(std::span<const double>(data), 1, 5);
        world.receive(data, 1, 6);
      } else {
        world.receive(data, 0, 5);
        world.send(std::span<const double>(data), 0, 6);
      }
      halves.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 2.0);
    }
    std::sort(halves.begin(), halves.end());
    sizes.push_back(static_cast<double>(m * sizeof(double)));
    medians.push_back(halves[halves.size() / 2]);
    minima.push_back(halves.front());
  }
  if (world.rank() != 0) return 0;
  for (std::size_t k = 0; k < sizes.size(); ++k)
    std::printf("%.0f bytes: median %.3e s, minimum %.3e s\n", sizes[k], medians[k], minima[k]);
  const auto [a, b] = fit(sizes, medians);
  const auto [a0, b0] = fit(sizes, minima);
  std::printf("fit: latency %.3e s, bandwidth %.3e bytes/s (medians)\n", a, 1.0 / b);
  std::printf("fit of the minima: latency %.3e s, bandwidth %.3e bytes/s\n", a0, 1.0 / b0);
  return 0;
}
