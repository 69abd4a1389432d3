// Mesh files for the viewer: binary and ASCII STL, OBJ; shared vertices merged; malformed files
// rejected with the file (and line) named.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "articula/core/error.hpp"
#include "articula/io/mesh_file.hpp"
#include "mesh_test_files.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
namespace fs = std::filesystem;

namespace {

class MeshFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("articula-mesh-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  /// The error message of reading `bytes` as file `name`.
  std::string errorOf(const std::string& name, const std::string& bytes) const {
    const std::string path = write(name, bytes);
    try {
      readMeshFile(path);
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      return what;
    }
    ADD_FAILURE() << name << " was accepted";
    return "";
  }

  fs::path dir_;
};

/// Vertex k of the mesh.
std::array<float, 3> vertex(const TriangleMesh& m, std::uint32_t k) { return {m.vertices[3 * k], m.vertices[3 * k + 1], m.vertices[3 * k + 2]}; }

}  // namespace

TEST_F(MeshFileTest, BinaryStlTetrahedronSharesItsFourVertices) {
  // The header starts with "solid", as some exporters write it: the length says binary.
  const TriangleMesh m = readMeshFile(write("tetra.STL", mesh_test_files::binaryStl(mesh_test_files::tetrahedron(), "solid exported")));
  EXPECT_EQ(m.triangleCount(), 4u);
  EXPECT_EQ(m.vertexCount(), 4u);
  EXPECT_EQ(vertex(m, m.triangles[0]), (std::array<float, 3>{0, 0, 0}));
  EXPECT_EQ(vertex(m, m.triangles[1]), (std::array<float, 3>{0, 1, 0}));
  EXPECT_EQ(vertex(m, m.triangles[2]), (std::array<float, 3>{1, 0, 0}));
}

TEST_F(MeshFileTest, AsciiStlReadsLikeTheBinaryOne) {
  const auto tetra = mesh_test_files::tetrahedron();
  const TriangleMesh ascii = readMeshFile(write("tetra.stl", mesh_test_files::asciiStl(tetra)));
  const TriangleMesh binary = readMeshFile(write("tetra-bin.stl", mesh_test_files::binaryStl(tetra, "")));
  EXPECT_EQ(ascii.vertices, binary.vertices);
  EXPECT_EQ(ascii.triangles, binary.triangles);
}

TEST_F(MeshFileTest, ObjPolygonsBecomeFansAndIndicesMayBeRelative) {
  const TriangleMesh m = readMeshFile(write("quad.obj",
                                            "# a unit square and a triangle on top\n"
                                            "o square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\n"
                                            "f 1/1/1 2/1/1 3//1 4\n"
                                            "v 0.5 0.5 1\n"
                                            "f -5 -4 -1\n"
                                            "usemtl steel\ns off\n"));
  EXPECT_EQ(m.vertexCount(), 5u);
  EXPECT_EQ(m.triangles, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 0, 1, 4}));
}

TEST_F(MeshFileTest, BadFilesAreRejectedNamingFileAndLine) {
  EXPECT_NE(errorOf("part.ply", "ply\n").find("unknown format '.ply'"), std::string::npos);
  EXPECT_NE(errorOf("bad.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n").find("line 4: expected a finite number, got 'zero'"),
            std::string::npos);
  EXPECT_NE(errorOf("short.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n").find("line 6: a facet needs 3 vertices"),
            std::string::npos);
  EXPECT_NE(errorOf("garbage.stl", std::string(100, '\x07')).find("expected 'solid'"), std::string::npos);
  EXPECT_NE(errorOf("empty.stl", "solid x\nendsolid x\n").find("holds no triangle"), std::string::npos);
  EXPECT_NE(errorOf("index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n").find("line 4: vertex index 4 out of range (3 vertices so far)"),
            std::string::npos);
  EXPECT_NE(errorOf("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n").find("vertex index 0 out of range"), std::string::npos);
  EXPECT_NE(errorOf("line.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n").find("line 3: a face needs at least 3 vertices, got 2"), std::string::npos);
  EXPECT_NE(errorOf("nan.obj", "v 0 nan 0\n").find("line 1: expected a finite number, got 'nan'"), std::string::npos);

  std::string truncated = mesh_test_files::binaryStl(mesh_test_files::tetrahedron(), "");
  truncated.pop_back();  // no longer 84 + 50 n bytes, and no "solid": neither form
  EXPECT_NE(errorOf("cut.stl", truncated).find("expected 'solid'"), std::string::npos);

  const std::string missing = (dir_ / "missing.stl").string();
  try {
    readMeshFile(missing);
    FAIL() << "a missing file was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read the mesh '" + missing + "': no such file");
  }
  EXPECT_THROW(readMeshFile(dir_.string() + "/.obj"), Error);
}

}  // namespace ARTICULA_TEST_FILE
