// Wavefront OBJ: the geometry statements "v" and "f"; texture coordinates, normals, groups,
// materials and the rest are ignored (the viewer shades flat, in the body's colour).
#include <charconv>
#include <cstdint>
#include <vector>

#include "mesh_formats.hpp"

namespace articula::mesh_formats {

namespace {

/// The vertex of a face corner "i", "i/t", "i//n" or "i/t/n": i is 1-based, or negative (counted
/// back from the last vertex read), among the vertices read so far.
std::uint32_t cornerIndex(TextScanner& in, std::string_view corner, const std::vector<std::uint32_t>& vertices) {
  const std::string_view text = corner.substr(0, corner.find('/'));
  long long i = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    in.fail("expected a vertex index, got '" + std::string(corner) + "'");
  const long long count = static_cast<long long>(vertices.size());
  const long long k = i < 0 ? count + i : i - 1;
  if (i == 0 || k < 0 || k >= count)
    in.fail("vertex index " + std::to_string(i) + " out of range (" + std::to_string(count) + " vertices so far)");
  return vertices[static_cast<std::size_t>(k)];
}

}  // namespace

void parseObj(std::string_view bytes, const std::string& path, MeshBuilder& out) {
  TextScanner in(bytes, path);
  std::vector<std::uint32_t> vertices;  // the file's vertex k is the builder's vertices[k]
  std::vector<std::uint32_t> face;
  while (in.nextLine()) {
    const std::string_view keyword = in.word();
    if (keyword == "v") {
      Point p;
      for (float& x : p) x = in.number();
      vertices.push_back(out.vertex(p));
    } else if (keyword == "f") {
      face.clear();
      for (std::string_view corner = in.word(); !corner.empty(); corner = in.word())
        face.push_back(cornerIndex(in, corner, vertices));
      if (face.size() < 3) in.fail("a face needs at least 3 vertices, got " + std::to_string(face.size()));
      for (std::size_t k = 1; k + 1 < face.size(); ++k) out.triangle(face[0], face[k], face[k + 1]);
    }
  }
}

}  // namespace articula::mesh_formats
