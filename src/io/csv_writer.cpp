#include "articula/io/csv_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

std::vector<std::string> CsvWriter::columns(const Model& model) {
  std::vector<std::string> c{"time"};
  auto perJoint = [&](const char* kind, bool positions) {
    for (int i = 1; i <= model.bodyCount(); ++i) {
      const Joint& j = model.joints[i];
      const int n = positions ? j.nq : j.nv;
      for (int k = 0; k < n; ++k) c.push_back(j.name + "." + kind + (n > 1 ? std::to_string(k) : ""));
    }
  };
  perJoint("q", true);
  perJoint("v", false);
  for (const auto& m : model.markers)
    for (const char* axis : {".x", ".y", ".z"}) c.push_back(m.name + axis);
  for (const char* name : {"kinetic_energy", "potential_energy", "total_energy", "constraint_position_error",
                           "constraint_velocity_error"})
    c.push_back(name);
  return c;
}

CsvWriter::CsvWriter(const Model& model, const std::string& path, bool resume) : model_(model), path_(path) {
  line_.reserve(32 * (columns(model).size() + 1));
  if (resume) return;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  std::string header;
  for (const auto& name : columns(model)) header += (header.empty() ? "" : ",") + name;
  header += '\n';
  std::fputs(header.c_str(), file_);
  std::fflush(file_);
}

void CsvWriter::saveState(ArchiveWriter& out) const {
  // Every line is flushed as written, so the file length is that of the samples so far.
  out.put(static_cast<std::int64_t>(std::ftell(file_)));
}

void CsvWriter::restoreState(ArchiveReader& in) {
  const std::int64_t length = in.getInt();
  std::error_code ec;
  const auto size = std::filesystem::file_size(path_, ec);
  if (ec || length < 0 || size < static_cast<std::uintmax_t>(length))
    throw Error("cannot resume '" + path_ + "': the results file is missing or shorter than at the checkpoint");
  // Samples written after the checkpoint are written again by the resumed run.
  std::filesystem::resize_file(path_, static_cast<std::uintmax_t>(length), ec);
  if (ec) throw Error("cannot resume '" + path_ + "': " + ec.message());
  if (file_) std::fclose(file_);
  file_ = std::fopen(path_.c_str(), "a");
  if (!file_) throw Error("cannot write '" + path_ + "': " + std::strerror(errno));
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::number(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest representation that round-trips
  if (!line_.empty()) line_ += ',';
  line_.append(buf, r.ptr);
}

void CsvWriter::write(const Sample& s) {
  line_.clear();
  number(s.t);
  for (Eigen::Index k = 0; k < s.q.size(); ++k) number(s.q[k]);
  for (Eigen::Index k = 0; k < s.v.size(); ++k) number(s.v[k]);
  for (const auto& m : model_.markers) {
    const Vec3 p = pointPosition(s.ws, m.body, m.position);
    for (int k = 0; k < 3; ++k) number(p[k]);
  }
  number(s.kineticEnergy);
  number(s.potentialEnergy);
  number(s.kineticEnergy + s.potentialEnergy);
  number(s.positionError);
  number(s.velocityError);
  line_ += '\n';
  // One fwrite per complete line, flushed: a killed run leaves whole lines only (up to the OS).
  if (std::fwrite(line_.data(), 1, line_.size(), file_) != line_.size() || std::fflush(file_) != 0)
    throw Error("writing '" + path_ + "' failed: " + std::strerror(errno));
}

}  // namespace articula
