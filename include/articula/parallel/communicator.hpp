// The processes of a run and the messages between them: MPI_COMM_WORLD when the process was
// started by an MPI launcher (mpirun, mpiexec) and Articula was built with MPI (ARTICULA_MPI),
// a world of one process otherwise. Used by the ensembles of `articula sweep` (sweep/sweep.hpp)
// and by the distributed formulation across ranks (dynamics/distributed_exchange.hpp), whose
// step loop uses only the span forms below: they send from and receive into buffers the caller
// allocated once, so an evaluation allocates nothing.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace articula::parallel {

class Communicator {
 public:
  /// Initialises MPI when launchedByMpi() (MPI_Init), and finalises it on destruction: one
  /// Communicator per process, created before any other MPI use.
  Communicator();
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  void barrier() const;
  /// Point to point: the matrix (its size, then its values) to rank `to` with `tag`; receive()
  /// takes the matrix that rank `from` sent with `tag`, of whatever size it was. Blocking.
  void send(const Eigen::MatrixXd& m, int to, int tag) const;
  Eigen::MatrixXd receive(int from, int tag) const;
  /// Point to point into preallocated buffers: `data.size()` doubles to rank `to`; receive() fills
  /// `data` from rank `from` and throws articula::Error when the message holds another count.
  /// Blocking (MPI_Send / MPI_Recv); small messages go out eagerly.
  void send(std::span<const double> data, int to, int tag) const;
  void receive(std::span<double> data, int from, int tag) const;
  /// Every rank's `mine` (counts[rank] doubles) into `all` at offsets[rank], on every rank
  /// (MPI_Allgatherv). counts and offsets have one entry per rank; nothing is allocated.
  void allGather(std::span<const double> mine, std::span<double> all, std::span<const int> counts,
                 std::span<const int> offsets) const;
  /// Ends every process of the run with `code` (MPI_Abort): for a failure on one rank that the
  /// others, waiting for its messages, would never learn of. Without MPI: std::exit(code).
  [[noreturn]] void abort(int code) const;
  /// Every rank gets root's `text` (other ranks' content is replaced).
  void broadcast(std::string& text, int root) const;
  /// On root, each rank's value in rank order; on the other ranks, empty.
  std::vector<double> gather(double value, int root) const;

  /// True when this process was started by an MPI launcher (Open MPI's OMPI_COMM_WORLD_SIZE,
  /// or PMI_SIZE / PMIX_RANK of other launchers).
  static bool launchedByMpi();
  /// True when Articula was built with MPI.
  static bool mpiBuilt();

 private:
  void checkPeer(int peer, const char* what) const;
  void checkGather(std::size_t mine, std::size_t all, std::span<const int> counts, std::span<const int> offsets) const;
  [[maybe_unused]] bool initialised_ = false;  // MPI_Init was called (builds with MPI)
  int rank_ = 0, size_ = 1;
};

}  // namespace articula::parallel
