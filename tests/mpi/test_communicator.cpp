// parallel::Communicator under mpirun -np 2 (tests/mpi/mpirun.sh): Eigen matrices go from one
// rank to the other and back bit for bit with their shapes, and so do doubles into preallocated
// buffers (a message shorter than the buffer is an error naming both counts); the all-gather puts
// each rank's part where the offsets say; broadcast and gather deliver what they should, and a
// message to oneself is refused. Exit status 0 when every check holds.
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <span>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/parallel/communicator.hpp"

using articula::parallel::Communicator;

namespace {

int failures = 0;

void check(bool ok, const std::string& what, int rank) {
  if (ok) return;
  std::cerr << "rank " << rank << ": " << what << "\n";
  ++failures;
}

bool sameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

int main() {
  const Communicator world;
  const int rank = world.rank();
  if (world.size() != 2) {
    std::cerr << "run on 2 ranks (size " << world.size() << ")\n";
    return 1;
  }
  // Values a text or float path would change: 0.1, -0.0, a subnormal, the largest double, NaN bits.
  Eigen::MatrixXd m(3, 4);
  m << 0.1, -0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(), 1.0 / 3.0, -2.5e-300,
      std::nan("7"), 4.0, 5.0, 6.0, 7.0, 8.0;
  const Eigen::MatrixXd empty(0, 5);
  if (rank == 0) {
    world.send(m, 1, 7);
    world.send(empty, 1, 8);
    const Eigen::MatrixXd back = world.receive(1, 9);
    const Eigen::MatrixXd expected = (2.0 * m).transpose();
    check(sameBits(back, expected), "the matrix sent back differs", rank);
  } else {
    const Eigen::MatrixXd got = world.receive(0, 7);
    check(sameBits(got, m), "received matrix differs from the one sent", rank);
    const Eigen::MatrixXd none = world.receive(0, 8);
    check(none.rows() == 0 && none.cols() == 5, "the empty matrix lost its shape", rank);
    world.send((2.0 * got).transpose(), 0, 9);
  }
  // Into preallocated buffers: 3 doubles there and back; then 2 doubles where 3 are expected.
  std::vector<double> three{0.1, -0.0, 1.0 / 3.0}, got(3, 0.0);
  if (rank == 0) {
    world.send(std::span<const double>(three), 1, 10);
    world.receive(got, 1, 11);
    check(got == std::vector<double>{0.2, -0.0, 2.0 / 3.0}, "the doubles sent back differ", rank);
    world.send(std::span<const double>(three.data(), 2), 1, 12);
  } else {
    world.receive(got, 0, 10);
    check(std::memcmp(got.data(), three.data(), sizeof(double) * 3) == 0, "received doubles differ", rank);
    for (double& x : got) x *= 2.0;
    world.send(std::span<const double>(got), 0, 11);
    std::string message;
    try {
      world.receive(got, 0, 12);
    } catch (const articula::Error& e) {
      message = e.what();
    }
    check(message.find("expected 3 doubles from rank 0") != std::string::npos && message.find("got 2") != std::string::npos,
          "a short message was not refused: '" + message + "'", rank);
  }
  // All-gather of uneven parts: rank 0 gives 1 double, rank 1 gives 2, at offsets 0 and 1.
  const std::vector<int> counts{1, 2}, offsets{0, 1};
  const std::vector<double> mine = rank == 0 ? std::vector<double>{5.0} : std::vector<double>{6.0, 7.0};
  std::vector<double> gathered(3, 0.0);
  world.allGather(mine, gathered, counts, offsets);
  check(gathered == std::vector<double>{5.0, 6.0, 7.0}, "allGather", rank);
  std::string text = rank == 1 ? std::string("from rank 1\n,\0 with a zero", 27) : "";
  world.broadcast(text, 1);
  check(text == std::string("from rank 1\n,\0 with a zero", 27), "broadcast text differs", rank);
  const std::vector<double> all = world.gather(rank + 0.5, 0);
  check(rank == 0 ? all == std::vector<double>{0.5, 1.5} : all.empty(), "gather", rank);
  bool refused = false;
  try {
    world.send(m, rank, 1);
  } catch (const articula::Error&) {
    refused = true;
  }
  check(refused, "a send to itself was not refused", rank);
  world.barrier();
  if (failures == 0 && rank == 0) std::cout << "communicator: every check passed on 2 ranks\n";
  return failures == 0 ? 0 : 1;
}
