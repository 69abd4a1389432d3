// STL, binary and ASCII (the "solid" keyword does not tell them apart: binary files may begin
// with it too; the length does, a binary file being exactly 84 + 50 n bytes).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "articula/core/error.hpp"
#include "mesh_formats.hpp"

namespace articula::mesh_formats {

namespace {

std::uint32_t littleEndian32(const char* p) {
  std::uint32_t u = 0;
  for (int k = 3; k >= 0; --k) u = u << 8 | static_cast<unsigned char>(p[k]);
  return u;
}

bool isBinaryStl(std::string_view bytes) {
  return bytes.size() >= 84 && bytes.size() == 84 + 50 * static_cast<std::uint64_t>(littleEndian32(bytes.data() + 80));
}

/// 80-byte header, triangle count, then per triangle: normal (3 floats, ignored), 3 vertices
/// (3 floats each), a 2-byte attribute.
void parseBinary(std::string_view bytes, const std::string& path, MeshBuilder& out) {
  const std::uint32_t count = littleEndian32(bytes.data() + 80);
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* record = bytes.data() + 84 + 50 * static_cast<std::size_t>(t);
    std::uint32_t corner[3];
    for (int v = 0; v < 3; ++v) {
      Point p;
      for (int k = 0; k < 3; ++k) {
        p[k] = std::bit_cast<float>(littleEndian32(record + 12 + 12 * v + 4 * k));
        if (!std::isfinite(p[k]))
          throw Error("cannot read the mesh '" + path + "': triangle " + std::to_string(t + 1) + " has a non-finite coordinate");
      }
      corner[v] = out.vertex(p);
    }
    out.triangle(corner[0], corner[1], corner[2]);
  }
}

void parseAscii(std::string_view bytes, const std::string& path, MeshBuilder& out) {
  TextScanner in(bytes, path);
  std::uint32_t corner[3];
  int corners = -1;  // vertices read in the current "outer loop"; -1 outside one
  bool solid = false;
  while (in.nextLine()) {
    const std::string_view keyword = in.word();
    if (keyword.empty()) continue;
    if (!solid) {
      if (keyword != "solid") in.fail("expected 'solid' (an ASCII STL) or a binary STL of 84 + 50 n bytes");
      solid = true;
    } else if (keyword == "outer") {
      if (corners >= 0) in.fail("'outer loop' inside another loop");
      corners = 0;
    } else if (keyword == "vertex") {
      if (corners < 0) in.fail("'vertex' outside an 'outer loop'");
      if (corners == 3) in.fail("more than 3 vertices in a facet");
      Point p;
      for (float& x : p) x = in.number();
      corner[corners++] = out.vertex(p);
    } else if (keyword == "endloop") {
      if (corners != 3) in.fail("a facet needs 3 vertices, got " + std::to_string(std::max(corners, 0)));
      out.triangle(corner[0], corner[1], corner[2]);
      corners = -1;
    } else if (keyword != "facet" && keyword != "endfacet" && keyword != "endsolid" && keyword != "solid") {
      in.fail("unexpected '" + std::string(keyword) + "'");
    }
  }
  if (!solid) in.fail("empty file");
  if (corners >= 0) in.fail("the file ends inside a facet");
}

}  // namespace

void parseStl(std::string_view bytes, const std::string& path, MeshBuilder& out) {
  if (isBinaryStl(bytes))
    parseBinary(bytes, path, out);
  else
    parseAscii(bytes, path, out);
}

}  // namespace articula::mesh_formats
