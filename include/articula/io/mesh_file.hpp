// Triangle meshes from STL (binary or ASCII) and Wavefront OBJ files, for the viewer: vertices
// shared by several triangles are stored once, so a mesh is a vertex list and an index list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace articula {

struct TriangleMesh {
  std::vector<float> vertices;           ///< x, y, z per vertex, in the file's own units and axes
  std::vector<std::uint32_t> triangles;  ///< three vertex indices per triangle, in the file's order

  std::size_t vertexCount() const { return vertices.size() / 3; }
  std::size_t triangleCount() const { return triangles.size() / 3; }
};

/// Reads an STL (binary or ASCII) or OBJ file, the format chosen by the extension (.stl, .obj,
/// any case). Throws articula::Error naming the file, and the line in text formats, when it
/// cannot be read, is malformed, or holds no triangle.
TriangleMesh readMeshFile(const std::string& path);

}  // namespace articula
