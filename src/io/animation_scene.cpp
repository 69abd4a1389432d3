#include "animation_scene.hpp"

#include <Eigen/Eigenvalues>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <vector>

#include "articula/io/mesh_file.hpp"
#include "articula/io/sample_signals.hpp"
#include "articula/model/builder.hpp"
#include "articula/io/summary_json.hpp"
#include "base64.hpp"

namespace articula {

namespace {

/// Compact JSON number with `digits` significant digits; "0" for tiny or non-finite values.
void appendNumber(std::string& out, double x, int digits = 6) {
  if (!std::isfinite(x) || std::abs(x) < 1e-12) {
    out += '0';
    return;
  }
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::general, digits);
  out.append(buf.data(), r.ptr);
}

void appendVec(std::string& out, const Vec3& v) {
  out += '[';
  for (int k = 0; k < 3; ++k) {
    if (k) out += ',';
    appendNumber(out, v[k]);
  }
  out += ']';
}

/// Row-major.
void appendMat(std::string& out, const Mat3& m) {
  out += '[';
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      if (r || c) out += ',';
      appendNumber(out, m(r, c));
    }
  out += ']';
}

/// JSON string literal that is also safe inside a <script> element ("</script>" cannot end it).
std::string scriptString(const std::string& s) {
  std::string out;
  for (char c : jsonString(s)) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string_view shapeType(Shape::Kind kind) {
  switch (kind) {
    case Shape::Kind::Box: return "box";
    case Shape::Kind::Cylinder: return "cylinder";
    case Shape::Kind::Sphere: return "sphere";
    case Shape::Kind::Capsule: return "capsule";
    case Shape::Kind::Mesh: return "mesh";
    case Shape::Kind::None: break;
  }
  return "none";
}

/// The uniform box with the body's mass and central inertia: edges along the principal axes,
/// a_i^2 = 6 (I_j + I_k - I_i) / m. Zero edges for a point mass (the page gives those a visible size).
Shape inertiaBox(const Body& body) {
  Shape s;
  s.kind = Shape::Kind::Box;
  s.position = body.com;
  if (!(body.mass > 0.0)) return s;
  const Eigen::SelfAdjointEigenSolver<Mat3> principal(body.inertiaCom);
  s.size = boxEdges(body.mass, principal.eigenvalues());
  s.rotation = principal.eigenvectors();
  if (s.rotation.determinant() < 0.0) s.rotation.col(2) *= -1.0;
  return s;
}

/// {"file", "vertices" (float32), "indices" (uint16 or uint32, "indexBytes"), base64}.
std::string meshJson(const std::string& path, const TriangleMesh& mesh) {
  std::string out = "{\"file\":" + scriptString(std::filesystem::path(path).filename().string()) + ",\"vertices\":\"";
  appendBase64(out, std::span<const float>(mesh.vertices));
  if (mesh.vertexCount() <= 0xFFFF) {
    const std::vector<std::uint16_t> narrow(mesh.triangles.begin(), mesh.triangles.end());
    out += "\",\"indexBytes\":2,\"indices\":\"";
    appendBase64(out, std::span<const std::uint16_t>(narrow));
  } else {
    out += "\",\"indexBytes\":4,\"indices\":\"";
    appendBase64(out, std::span<const std::uint32_t>(mesh.triangles));
  }
  return out + "\"}";
}

/// The mesh files of the model, each read once: their JSON, and the index of each file (-1: unreadable).
class MeshTable {
 public:
  /// `warn` hears once of every file that cannot be read, with the bodies that use it.
  MeshTable(const Model& model, const std::function<void(const std::string&)>& warn) {
    struct Failure {
      std::string reason;
      std::vector<std::string> bodies;
    };
    std::map<std::string, Failure> failures;  // ordered: the warnings come in a stable order
    for (std::size_t b = 0; b < model.bodies.size(); ++b)  // the ground's shapes too
      for (const Shape& s : model.bodies[b].shapes) {
        if (s.kind != Shape::Kind::Mesh) continue;
        const auto [it, added] = index_.try_emplace(s.mesh, -1);
        if (added) try {
            const TriangleMesh mesh = readMeshFile(s.mesh);
            it->second = static_cast<int>(json_.size());
            json_.push_back(meshJson(s.mesh, mesh));
          } catch (const Error& e) {
            failures[s.mesh].reason = e.what();
          }
        if (it->second >= 0) continue;
        std::vector<std::string>& bodies = failures[s.mesh].bodies;
        if (bodies.empty() || bodies.back() != model.bodies[b].name) bodies.push_back(model.bodies[b].name);
      }
    for (const auto& [file, failure] : failures) {
      std::string names;
      for (const std::string& name : failure.bodies) names += (names.empty() ? "'" : ", '") + name + "'";
      warn((failure.bodies.size() == 1 ? "body " : "bodies ") + names + ": " + failure.reason +
           "; the animation draws a box of the body's inertia instead");
    }
  }
  int index(const std::string& file) const { return index_.at(file); }
  const std::vector<std::string>& json() const { return json_; }

 private:
  std::map<std::string, int> index_;
  std::vector<std::string> json_;
};

/// {"type", "size" (box edges; cylinder/capsule: [2r, 2r, length]; sphere: [2r, 2r, 2r]; none for
///  meshes), "mesh" + "scale" (meshes), "pos", "rot" (row-major, shape axes in the body frame),
///  "color", "placeholder" (a box standing in for an unreadable mesh)}.
void appendShape(std::string& out, const Shape& s, int mesh = -1, bool placeholder = false) {
  out += "{\"type\":\"";
  out += shapeType(s.kind);
  out += '"';
  if (s.kind == Shape::Kind::Mesh) {
    out += ",\"mesh\":" + std::to_string(mesh) + ",\"scale\":";
    appendVec(out, s.scale);
  } else {
    Vec3 size = s.size;
    if (s.kind == Shape::Kind::Sphere) size.setConstant(2.0 * s.radius);
    if (s.kind == Shape::Kind::Cylinder || s.kind == Shape::Kind::Capsule) size = Vec3(2.0 * s.radius, 2.0 * s.radius, s.length);
    out += ",\"size\":";
    appendVec(out, size);
  }
  out += ",\"pos\":";
  appendVec(out, s.position);
  out += ",\"rot\":";
  appendMat(out, s.rotation);
  out += ",\"color\":";
  out += s.color.empty() ? "null" : scriptString(s.color);
  if (placeholder) out += ",\"placeholder\":true";
  out += '}';
}

}  // namespace

/// The body's shapes as a JSON list; a mesh that could not be read becomes the body's inertia box.
void appendShapes(std::string& d, const Body& b, const MeshTable& meshes) {
  d += '[';
  bool first = true;
  for (const Shape& s : b.shapes) {
    if (s.kind == Shape::Kind::None) continue;
    if (!first) d += ',';
    first = false;
    const int mesh = s.kind == Shape::Kind::Mesh ? meshes.index(s.mesh) : -1;
    if (s.kind == Shape::Kind::Mesh && mesh < 0)
      appendShape(d, inertiaBox(b), -1, true);
    else
      appendShape(d, s, mesh);
  }
  d += ']';
}

namespace {

// A thin slab of the road from a to b (x, z; across y, `width` wide), its top face on the line.
Shape roadSlab(double xa, double za, double xb, double zb, double width) {
  constexpr double kThickness = 0.02;
  const double dx = xb - xa, dz = zb - za, length = std::hypot(dx, dz), angle = std::atan2(dz, dx);
  const Vec3 normal(-std::sin(angle), 0.0, std::cos(angle));
  Shape s = boxShape(Vec3(length, width, kThickness), Vec3(0.5 * (xa + xb), 0.0, 0.5 * (za + zb)) - 0.5 * kThickness * normal,
                     "#8a8d91");
  s.rotation = Eigen::AngleAxisd(-angle, Vec3::UnitY()).toRotationMatrix();
  return s;
}

// The road as fixed slabs for the viewer, for models with tyres: a profile segment by segment
// (steps as vertical slabs) with 5 m of level road beyond its ends; a flat road 20 m long; a
// height map cell by cell, each cell a slab through its centre tilted by its mean slopes (up to
// 4000 cells; a larger map is not drawn).
std::vector<Shape> roadShapes(const Road& road) {
  constexpr double kWidth = 3.0;
  std::vector<Shape> shapes;
  switch (road.kind()) {
    case Road::Kind::Flat:
      shapes.push_back(roadSlab(-10.0, road.flatHeight(), 10.0, road.flatHeight(), kWidth));
      break;
    case Road::Kind::Profile: {
      const auto& p = road.points();
      shapes.push_back(roadSlab(p.front().x - 5.0, p.front().z, p.front().x, p.front().z, kWidth));
      for (std::size_t k = 0; k + 1 < p.size(); ++k)
        if (p[k].x != p[k + 1].x || p[k].z != p[k + 1].z) shapes.push_back(roadSlab(p[k].x, p[k].z, p[k + 1].x, p[k + 1].z, kWidth));
      shapes.push_back(roadSlab(p.back().x, p.back().z, p.back().x + 5.0, p.back().z, kWidth));
      break;
    }
    case Road::Kind::HeightMap: {
      if ((road.nx() - 1) * (road.ny() - 1) > 4000) break;
      for (int j = 0; j + 1 < road.ny(); ++j)
        for (int i = 0; i + 1 < road.nx(); ++i) {
          const double x = road.x0() + (i + 0.5) * road.dx(), y = road.y0() + (j + 0.5) * road.dy();
          const Vec3 n = road.normal(x, y);
          Shape s;
          s.kind = Shape::Kind::Box;
          s.size = Vec3(road.dx(), road.dy(), 0.02);
          s.rotation = frameWithZ(n);
          // Keep the slab's own x and y near the grid's, so that the cells tile.
          const Vec3 ex = (Vec3::UnitX() - n * n.x()).normalized();
          s.rotation.col(0) = ex;
          s.rotation.col(1) = n.cross(ex);
          s.position = Vec3(x, y, road.height(x, y)) - 0.01 * n;
          s.color = "#8a8d91";
          shapes.push_back(s);
        }
      break;
    }
  }
  return shapes;
}

}  // namespace

std::string sceneJson(const Model& model, const std::function<void(const std::string&)>& warn) {
  const MeshTable meshes(model, warn);

  std::string d = "\"name\":" + scriptString(model.name) + ",\"gravity\":";
  appendVec(d, model.gravity);
  d += ",\"constraints\":" + std::to_string(model.constraintCount()) + ",\"bodies\":[";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Body& b = model.bodies[static_cast<std::size_t>(i)];
    if (i > 1) d += ',';
    d += "{\"name\":" + scriptString(b.name) + ",\"com\":";
    appendVec(d, b.com);
    d += ",\"shapes\":";
    appendShapes(d, b, meshes);
    d += '}';
  }
  d += "],\"groundShapes\":";  // fixed in the world (a robot's base; the road of a vehicle)
  if (model.tyres.empty()) {
    appendShapes(d, model.bodies[0], meshes);
  } else {
    Body ground = model.bodies[0];
    for (const Shape& s : roadShapes(model.road)) ground.shapes.push_back(s);
    appendShapes(d, ground, meshes);
  }
  d += ",\"meshes\":[";
  for (std::size_t m = 0; m < meshes.json().size(); ++m) d += (m ? "," : "") + meshes.json()[m];
  d += "],\"markers\":[";
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    const Marker& mk = model.markers[m];
    if (m) d += ',';
    d += "{\"name\":" + scriptString(mk.name) + ",\"body\":" + std::to_string(mk.body - 1) + ",\"pos\":";
    appendVec(d, mk.position);
    d += '}';
  }
  d += "],\"loops\":[";  // loop-closure points, drawn as pins
  for (std::size_t l = 0; l < model.loops.size(); ++l) {
    const LoopConstraint& c = model.loops[l];
    if (l) d += ',';
    d += "{\"name\":" + scriptString(c.name) + ",\"bodyA\":" + std::to_string(c.bodyA - 1) +
         ",\"bodyB\":" + std::to_string(c.bodyB - 1) + ",\"pointA\":";
    appendVec(d, c.pointA);
    d += ",\"pointB\":";
    appendVec(d, c.pointB);
    d += '}';
  }
  d += "],\"signals\":[";
  const std::vector<SignalColumn> signals = sampleSignals(model);
  for (std::size_t k = 0; k < signals.size(); ++k) {
    if (k) d += ',';
    d += "{\"name\":" + scriptString(signals[k].name) + ",\"group\":\"";
    d += signalGroupName(signals[k].group);
    d += "\"}";
  }
  d += ']';
  return d;
}

}  // namespace articula
