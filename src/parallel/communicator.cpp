#include "articula/parallel/communicator.hpp"

#include <cstdint>
#include <cstdlib>

#include "articula/core/error.hpp"

#ifdef ARTICULA_HAVE_MPI
#include <mpi.h>
#endif

namespace articula::parallel {

bool Communicator::launchedByMpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

#ifdef ARTICULA_HAVE_MPI

// IPOPT's MUMPS (Debian's libdmumps_seq) exports stubs of MPI_Init, MPI_Comm_rank and
// MPI_Finalize for its sequential build; linked before Open MPI, they take those names, and
// MPI_Init would initialise nothing. Their profiling-interface names (PMPI_, which every MPI
// library provides) reach Open MPI.

bool Communicator::mpiBuilt() { return true; }

Communicator::Communicator() {
  if (!launchedByMpi()) return;
  int already = 0;
  MPI_Initialized(&already);
  if (already) throw Error("MPI is already initialised: one Communicator per process");
  PMPI_Init(nullptr, nullptr);
  initialised_ = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Communicator::~Communicator() {
  if (initialised_) PMPI_Finalize();
}

void Communicator::barrier() const {
  if (initialised_) MPI_Barrier(MPI_COMM_WORLD);
}

void Communicator::send(const Eigen::MatrixXd& m, int to, int tag) const {
  checkPeer(to, "send to");
  const std::int64_t shape[2] = {m.rows(), m.cols()};
  MPI_Send(shape, 2, MPI_INT64_T, to, tag, MPI_COMM_WORLD);
  MPI_Send(m.data(), static_cast<int>(m.size()), MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
}

Eigen::MatrixXd Communicator::receive(int from, int tag) const {
  checkPeer(from, "receive from");
  std::int64_t shape[2] = {0, 0};
  MPI_Recv(shape, 2, MPI_INT64_T, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Eigen::MatrixXd m(shape[0], shape[1]);
  MPI_Recv(m.data(), static_cast<int>(m.size()), MPI_DOUBLE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

void Communicator::broadcast(std::string& text, int root) const {
  if (!initialised_) return;
  std::int64_t n = static_cast<std::int64_t>(text.size());
  MPI_Bcast(&n, 1, MPI_INT64_T, root, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(n));
  MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, root, MPI_COMM_WORLD);
}

std::vector<double> Communicator::gather(double value, int root) const {
  if (!initialised_) return {value};
  std::vector<double> all(rank_ == root ? static_cast<std::size_t>(size_) : 0);
  MPI_Gather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  return all;
}

#else  // built without MPI: a world of one process

bool Communicator::mpiBuilt() { return false; }
Communicator::Communicator() = default;
Communicator::~Communicator() = default;
void Communicator::barrier() const {}
void Communicator::send(const Eigen::MatrixXd&, int to, int) const { checkPeer(to, "send to"); }
Eigen::MatrixXd Communicator::receive(int from, int) const {
  checkPeer(from, "receive from");
  return {};
}
void Communicator::broadcast(std::string&, int) const {}
std::vector<double> Communicator::gather(double value, int) const { return {value}; }

#endif

void Communicator::checkPeer(int peer, const char* what) const {
  if (peer < 0 || peer >= size_ || peer == rank_)
    throw Error(std::string("Communicator: cannot ") + what + " rank " + std::to_string(peer) + " from rank " +
                std::to_string(rank_) + " of " + std::to_string(size_));
}

}  // namespace articula::parallel
