#include "articula/io/csv_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "articula/io/sample_signals.hpp"

namespace articula {

std::vector<std::string> CsvWriter::columns(const Model& model) {
  std::vector<std::string> c{"time"};
  for (auto& signal : sampleSignals(model)) c.push_back(std::move(signal.name));
  return c;
}

CsvWriter::CsvWriter(const Model& model, const std::string& path, bool resume)
    : model_(model), path_(path), values_(sampleSignals(model).size()) {
  line_.reserve(32 * (values_.size() + 2));
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
  sampleValues(model_, s, values_);
  for (double x : values_) number(x);
  line_ += '\n';
  // One fwrite per complete line, flushed: a killed run leaves whole lines only (up to the OS).
  if (std::fwrite(line_.data(), 1, line_.size(), file_) != line_.size() || std::fflush(file_) != 0)
    throw Error("writing '" + path_ + "' failed: " + std::strerror(errno));
}

}  // namespace articula
