// The parsers behind readMeshFile (mesh_file.cpp): each reads a whole file's bytes and hands
// its triangles to a MeshBuilder, which merges repeated vertices.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

#include "articula/io/mesh_file.hpp"

namespace articula::mesh_formats {

using Point = std::array<float, 3>;

class MeshBuilder {
 public:
  /// Index of the vertex at p, added when it is new.
  std::uint32_t vertex(const Point& p);
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c);
  TriangleMesh take() { return std::move(mesh_); }

 private:
  struct PointHash {
    std::size_t operator()(const Point& p) const;
  };
  std::unordered_map<Point, std::uint32_t, PointHash> index_;
  TriangleMesh mesh_;
};

/// The words of a text mesh file, line by line; errors name the file and the line.
class TextScanner {
 public:
  TextScanner(std::string_view text, const std::string& path) : rest_(text), path_(path) {}
  /// Moves to the next line; false at the end of the file.
  bool nextLine();
  /// The next word of the current line; empty at its end.
  std::string_view word();
  /// The next word as a finite number (fails otherwise).
  float number();
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string_view rest_, line_;
  const std::string& path_;
  int lineNumber_ = 0;
};

/// Binary STL (84 + 50 n bytes) or ASCII STL ("solid ... facet normal ... outer loop
/// vertex x y z ... endloop endfacet ... endsolid"). `path` names the file in errors.
void parseStl(std::string_view bytes, const std::string& path, MeshBuilder& out);
/// OBJ: "v x y z" and "f i j k ..." lines (indices 1-based or negative, "i/t/n" forms; polygons
/// are split into fans); every other statement is ignored.
void parseObj(std::string_view bytes, const std::string& path, MeshBuilder& out);

}  // namespace articula::mesh_formats
