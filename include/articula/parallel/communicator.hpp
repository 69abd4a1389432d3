// The processes of a run and the messages between them: MPI_COMM_WORLD when the process was
// started by an MPI launcher (mpirun, mpiexec) and Articula was built with MPI (ARTICULA_MPI),
// a world of one process otherwise. Used by the ensembles of `articula sweep` (sweep/sweep.hpp)
// and meant for the distributed formulation's interface matrices.
#pragma once

#include <Eigen/Core>
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
  [[maybe_unused]] bool initialised_ = false;  // MPI_Init was called (builds with MPI)
  int rank_ = 0, size_ = 1;
};

}  // namespace articula::parallel
