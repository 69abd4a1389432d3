// Exact binary serialisation of run state for restart files: numbers are stored as their
// bytes (so a restored double is the same double), strings and vectors with their sizes.
// Writers build the content in memory; saveArchive writes it atomically (write to a
// temporary file, flush, rename), so a reader never sees a half-written file.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace articula {

class ArchiveWriter {
 public:
  void put(double x);
  void put(std::int64_t x);
  void put(const std::string& s);
  void put(const Eigen::VectorXd& v);
  void put(const std::vector<double>& v);
  void put(const std::vector<float>& v);
  const std::string& bytes() const { return bytes_; }

 private:
  void raw(const void* p, std::size_t n);
  std::string bytes_;
};

/// Reads what an ArchiveWriter wrote, in the same order. Throws articula::Error naming
/// the file when the content ends early or a size is implausible.
class ArchiveReader {
 public:
  ArchiveReader(std::string bytes, std::string fileLabel);
  double getDouble();
  std::int64_t getInt();
  std::string getString();
  Eigen::VectorXd getVector();
  std::vector<double> getDoubles();
  std::vector<float> getFloats();
  bool atEnd() const { return pos_ == bytes_.size(); }
  const std::string& label() const { return label_; }

 private:
  void raw(void* p, std::size_t n);
  std::size_t count(std::size_t elementSize);
  std::string bytes_, label_;
  std::size_t pos_ = 0;
};

/// Writes `bytes` to `path.tmp`, flushes it and renames it to `path`: a reader sees the old file
/// or the whole new one. Throws articula::Error naming the path and `what` the file is.
void writeFileAtomically(const std::string& path, const std::string& bytes, const std::string& what);
/// Writes `path` atomically with the archive's bytes. Throws articula::Error naming the path.
void saveArchive(const ArchiveWriter& archive, const std::string& path);
/// Reads a whole file. Throws articula::Error naming the path.
ArchiveReader loadArchive(const std::string& path);

/// FNV-1a 64-bit hash: a fingerprint of model files and options in restart files.
std::uint64_t fingerprint(const std::string& bytes);

}  // namespace articula
