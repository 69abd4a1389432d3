#include "articula/core/archive.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "articula/core/error.hpp"

namespace articula {

void ArchiveWriter::raw(const void* p, std::size_t n) { bytes_.append(static_cast<const char*>(p), n); }
void ArchiveWriter::put(double x) { raw(&x, sizeof x); }
void ArchiveWriter::put(std::int64_t x) { raw(&x, sizeof x); }
void ArchiveWriter::put(const std::string& s) {
  put(static_cast<std::int64_t>(s.size()));
  raw(s.data(), s.size());
}
void ArchiveWriter::put(const Eigen::VectorXd& v) {
  put(static_cast<std::int64_t>(v.size()));
  raw(v.data(), sizeof(double) * static_cast<std::size_t>(v.size()));
}
void ArchiveWriter::put(const std::vector<double>& v) {
  put(static_cast<std::int64_t>(v.size()));
  raw(v.data(), sizeof(double) * v.size());
}
void ArchiveWriter::put(const std::vector<float>& v) {
  put(static_cast<std::int64_t>(v.size()));
  raw(v.data(), sizeof(float) * v.size());
}

ArchiveReader::ArchiveReader(std::string bytes, std::string fileLabel) : bytes_(std::move(bytes)), label_(std::move(fileLabel)) {}

void ArchiveReader::raw(void* p, std::size_t n) {
  if (n > bytes_.size() - pos_) throw Error(label_ + ": the restart file is truncated or damaged");
  std::memcpy(p, bytes_.data() + pos_, n);
  pos_ += n;
}
std::size_t ArchiveReader::count(std::size_t elementSize) {
  const std::int64_t n = getInt();
  if (n < 0 || static_cast<std::uint64_t>(n) > (bytes_.size() - pos_) / elementSize)
    throw Error(label_ + ": the restart file is truncated or damaged");
  return static_cast<std::size_t>(n);
}
double ArchiveReader::getDouble() {
  double x;
  raw(&x, sizeof x);
  return x;
}
std::int64_t ArchiveReader::getInt() {
  std::int64_t x;
  raw(&x, sizeof x);
  return x;
}
std::string ArchiveReader::getString() {
  std::string s(count(1), '\0');
  raw(s.data(), s.size());
  return s;
}
Eigen::VectorXd ArchiveReader::getVector() {
  Eigen::VectorXd v(static_cast<Eigen::Index>(count(sizeof(double))));
  raw(v.data(), sizeof(double) * static_cast<std::size_t>(v.size()));
  return v;
}
std::vector<double> ArchiveReader::getDoubles() {
  std::vector<double> v(count(sizeof(double)));
  raw(v.data(), sizeof(double) * v.size());
  return v;
}
std::vector<float> ArchiveReader::getFloats() {
  std::vector<float> v(count(sizeof(float)));
  raw(v.data(), sizeof(float) * v.size());
  return v;
}

void writeFileAtomically(const std::string& path, const std::string& bytes, const std::string& what) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error("cannot write " + what + " '" + tmp + "'");
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
  if (std::fclose(f) != 0 || !ok) throw Error("cannot write " + what + " '" + tmp + "'");
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

void saveArchive(const ArchiveWriter& archive, const std::string& path) {
  writeFileAtomically(path, archive.bytes(), "restart file");
}

ArchiveReader loadArchive(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read restart file '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return ArchiveReader(s.str(), path);
}

std::uint64_t fingerprint(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace articula
