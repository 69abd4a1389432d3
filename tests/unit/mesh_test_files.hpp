// Small mesh files written by the tests (test_mesh_file.cpp, test_animation.cpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace mesh_test_files {

using Triangle = std::array<std::array<float, 3>, 3>;

/// The unit tetrahedron at the origin, faces counter-clockwise seen from outside.
inline std::vector<Triangle> tetrahedron() {
  const std::array<float, 3> o{0, 0, 0}, x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
  return {Triangle{o, y, x}, Triangle{o, x, z}, Triangle{o, z, y}, Triangle{x, y, z}};
}

/// Binary STL: 80-byte header (`header`, zero-padded), count, 50 bytes per triangle (little-endian).
inline std::string binaryStl(const std::vector<Triangle>& triangles, const std::string& header) {
  std::string out = header;
  out.resize(80, '\0');
  auto put32 = [&](std::uint32_t u) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>(u >> (8 * k) & 0xFF);
  };
  put32(static_cast<std::uint32_t>(triangles.size()));
  for (const Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) put32(0);  // normal
    for (const auto& v : t)
      for (float x : v) put32(std::bit_cast<std::uint32_t>(x));
    out += std::string(2, '\0');
  }
  return out;
}

inline std::string asciiStl(const std::vector<Triangle>& triangles) {
  std::ostringstream out;
  out << "solid part\n";
  for (const Triangle& t : triangles) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (const auto& v : t) out << "      vertex " << v[0] << ' ' << v[1] << ' ' << v[2] << "\n";
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid part\n";
  return out.str();
}

}  // namespace mesh_test_files
