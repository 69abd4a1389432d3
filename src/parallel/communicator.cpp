#include "articula/parallel/communicator.hpp"

#include <algorithm>
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

void Communicator::send(std::span<const double> data, int to, int tag) const {
  checkPeer(to, "send to");
  PMPI_Send(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
}

void Communicator::receive(std::span<double> data, int from, int tag) const {
  checkPeer(from, "receive from");
  MPI_Status status;
  PMPI_Recv(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  PMPI_Get_count(&status, MPI_DOUBLE, &count);
  if (count != static_cast<int>(data.size()))
    throw Error("Communicator: rank " + std::to_string(rank_) + " expected " + std::to_string(data.size()) +
                " doubles from rank " + std::to_string(from) + " (tag " + std::to_string(tag) + "), got " +
                std::to_string(count));
}

void Communicator::allGather(std::span<const double> mine, std::span<double> all, std::span<const int> counts,
                             std::span<const int> offsets) const {
  checkGather(mine.size(), all.size(), counts, offsets);
  if (!initialised_) {
    std::copy(mine.begin(), mine.end(), all.begin() + offsets[0]);
    return;
  }
  PMPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
                  MPI_DOUBLE, MPI_COMM_WORLD);
}

void Communicator::abort(int code) const {
  if (initialised_) PMPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
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
void Communicator::send(std::span<const double>, int to, int) const { checkPeer(to, "send to"); }
void Communicator::receive(std::span<double>, int from, int) const { checkPeer(from, "receive from"); }
void Communicator::allGather(std::span<const double> mine, std::span<double> all, std::span<const int> counts,
                             std::span<const int> offsets) const {
  checkGather(mine.size(), all.size(), counts, offsets);
  std::copy(mine.begin(), mine.end(), all.begin() + offsets[0]);
}
void Communicator::abort(int code) const { std::exit(code); }
void Communicator::broadcast(std::string&, int) const {}
std::vector<double> Communicator::gather(double value, int) const { return {value}; }

#endif

void Communicator::checkGather(std::size_t mine, std::size_t all, std::span<const int> counts,
                               std::span<const int> offsets) const {
  const auto r = static_cast<std::size_t>(rank_);
  bool ok = counts.size() == static_cast<std::size_t>(size_) && offsets.size() == counts.size() &&
            static_cast<std::size_t>(counts[r]) == mine;
  for (std::size_t k = 0; ok && k < counts.size(); ++k)
    ok = counts[k] >= 0 && offsets[k] >= 0 && static_cast<std::size_t>(offsets[k]) + static_cast<std::size_t>(counts[k]) <= all;
  if (!ok)
    throw Error("Communicator: allGather on rank " + std::to_string(rank_) + " of " + std::to_string(size_) +
                ": the counts and offsets do not fit " + std::to_string(mine) + " doubles in and " + std::to_string(all) +
                " out");
}

void Communicator::checkPeer(int peer, const char* what) const {
  if (peer < 0 || peer >= size_ || peer == rank_)
    throw Error(std::string("Communicator: cannot ") + what + " rank " + std::to_string(peer) + " from rank " +
                std::to_string(rank_) + " of " + std::to_string(size_));
}

}  // namespace articula::parallel
