#include "articula/io/mesh_file.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "articula/core/error.hpp"
#include "mesh_formats.hpp"

namespace articula {

namespace mesh_formats {

std::size_t MeshBuilder::PointHash::operator()(const Point& p) const {
  std::size_t h = 0;
  for (float x : p) h = h * 1000003u ^ std::bit_cast<std::uint32_t>(x);
  return h;
}

std::uint32_t MeshBuilder::vertex(const Point& p) {
  const Point key{p[0] + 0.0f, p[1] + 0.0f, p[2] + 0.0f};  // -0 and +0 are one vertex
  const auto [it, added] = index_.try_emplace(key, static_cast<std::uint32_t>(mesh_.vertexCount()));
  if (added) mesh_.vertices.insert(mesh_.vertices.end(), key.begin(), key.end());
  return it->second;
}

void MeshBuilder::triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  mesh_.triangles.insert(mesh_.triangles.end(), {a, b, c});
}

bool TextScanner::nextLine() {
  if (rest_.empty()) return false;
  const std::size_t end = rest_.find('\n');
  line_ = rest_.substr(0, end);
  rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
  ++lineNumber_;
  return true;
}

std::string_view TextScanner::word() {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  std::size_t begin = 0;
  while (begin < line_.size() && space(line_[begin])) ++begin;
  std::size_t end = begin;
  while (end < line_.size() && !space(line_[end])) ++end;
  const std::string_view w = line_.substr(begin, end - begin);
  line_.remove_prefix(end);
  return w;
}

float TextScanner::number() {
  const std::string_view w = word();
  float x = 0.0f;
  const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), x);
  if (w.empty() || ec != std::errc() || ptr != w.data() + w.size() || !std::isfinite(x))
    fail(w.empty() ? "expected a number" : "expected a finite number, got '" + std::string(w) + "'");
  return x;
}

void TextScanner::fail(const std::string& why) const {
  throw Error("cannot read the mesh '" + path_ + "': line " + std::to_string(lineNumber_) + ": " + why);
}

}  // namespace mesh_formats

TriangleMesh readMeshFile(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension != ".stl" && extension != ".obj")
    throw Error("cannot read the mesh '" + path + "': unknown format '" + extension + "' (expected .stl or .obj)");

  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw Error("cannot read the mesh '" + path + "': no such file");
  if (!std::filesystem::is_regular_file(status)) throw Error("cannot read the mesh '" + path + "': not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read the mesh '" + path + "': " + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw Error("cannot read the mesh '" + path + "': read error");
  const std::string bytes = content.str();

  mesh_formats::MeshBuilder builder;
  if (extension == ".stl")
    mesh_formats::parseStl(bytes, path, builder);
  else
    mesh_formats::parseObj(bytes, path, builder);
  TriangleMesh mesh = builder.take();
  if (mesh.triangles.empty()) throw Error("cannot read the mesh '" + path + "': it holds no triangle");
  return mesh;
}

}  // namespace articula
