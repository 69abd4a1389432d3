#include "urdf_visuals.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "articula/model/builder.hpp"

namespace articula::urdf_io {

namespace fs = std::filesystem;

namespace {

std::string hexColor(const urdf::Color& c) {
  const auto channel = [](float x) { return static_cast<int>(std::lround(255.0 * std::clamp(static_cast<double>(x), 0.0, 1.0))); };
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", channel(c.r), channel(c.g), channel(c.b));
  return text;
}

bool drawableMesh(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".stl" || ext == ".obj";
}

// A box with the principal moments of the link's inertia (a uniform box of the same mass), so a
// missing mesh still shows roughly where and how big the link is; 5 cm without an inertial.
Vec3 placeholderSize(const urdf::Link& link) {
  constexpr double kDefault = 0.05;
  if (!link.inertial || !(link.inertial->mass > 0.0)) return Vec3::Constant(kDefault);
  const urdf::Inertial& in = *link.inertial;
  Vec3 size = boxEdges(in.mass, Vec3(in.ixx, in.iyy, in.izz));
  for (int k = 0; k < 3; ++k)
    if (size[k] == 0.0) size[k] = kDefault;
  return size.cwiseMax(1e-3);
}

}  // namespace

Vec3 toVec3(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }

Pose toPose(const urdf::Pose& pose) {
  const urdf::Rotation& q = pose.rotation;
  return {toVec3(pose.position), Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized().toRotationMatrix()};
}

VisualMapper::VisualMapper(const std::string& urdfFile, std::vector<std::string>& warnings)
    : directory_(fs::absolute(fs::path(urdfFile)).parent_path().string()), warnings_(warnings) {}

std::string VisualMapper::findMesh(const std::string& uri) const {
  const std::string package = "package://", file = "file://";
  std::vector<fs::path> candidates;
  if (uri.rfind(package, 0) == 0) {
    // package://NAME/REST: NAME is the URDF's directory or one of its ancestors (the usual
    // NAME/urdf/robot.urdf layout), or a folder beside one of them.
    const std::string rest = uri.substr(package.size());
    const std::size_t slash = rest.find('/');
    const std::string name = rest.substr(0, slash), tail = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (fs::path dir = directory_; !dir.empty(); dir = dir.parent_path()) {
      if (dir.filename() == name) candidates.push_back(dir / tail);
      candidates.push_back(dir / name / tail);
      if (dir == dir.parent_path()) break;
    }
  } else if (uri.rfind(file, 0) == 0) {
    candidates.emplace_back(uri.substr(file.size()));
  } else {
    candidates.push_back(fs::path(uri).is_absolute() ? fs::path(uri) : fs::path(directory_) / uri);
  }
  std::error_code ec;
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return fs::absolute(c).lexically_normal().string();
  return "";
}

Shape VisualMapper::shape(const urdf::Visual& visual, const urdf::Link& link, const Pose& linkInBody,
                          const SourceLocation& where) {
  const Pose frame = linkInBody * toPose(visual.origin);
  Shape s;
  s.position = frame.p;
  s.rotation = frame.R;
  if (visual.material && visual.material->texture_filename.empty()) s.color = hexColor(visual.material->color);
  const urdf::Geometry* g = visual.geometry.get();
  if (!g) {
    warnings_.push_back("link '" + link.name + "': a <visual> without geometry is drawn as a placeholder box");
    s.kind = Shape::Kind::Box;
    s.size = placeholderSize(link);
    return s;
  }
  switch (g->type) {
    case urdf::Geometry::BOX:
      s.kind = Shape::Kind::Box;
      s.size = toVec3(static_cast<const urdf::Box*>(g)->dim);
      break;
    case urdf::Geometry::CYLINDER: {
      const auto* c = static_cast<const urdf::Cylinder*>(g);
      s.kind = Shape::Kind::Cylinder;  // along z in both formats
      s.radius = c->radius;
      s.length = c->length;
      break;
    }
    case urdf::Geometry::SPHERE:
      s.kind = Shape::Kind::Sphere;
      s.radius = static_cast<const urdf::Sphere*>(g)->radius;
      break;
    case urdf::Geometry::MESH: {
      const auto* m = static_cast<const urdf::Mesh*>(g);
      const std::string path = findMesh(m->filename);
      if (path.empty() || !drawableMesh(path)) {
        warnings_.push_back("link '" + link.name + "': mesh '" + m->filename + "' " +
                            (path.empty() ? "was not found" : "is not STL or OBJ, which the viewer draws") +
                            "; a placeholder box stands in for it");
        s.kind = Shape::Kind::Box;
        s.size = placeholderSize(link);
      } else {
        s.kind = Shape::Kind::Mesh;
        s.mesh = path;
        s.scale = toVec3(m->scale);
      }
      break;
    }
  }
  const bool positive = s.kind == Shape::Kind::Box    ? s.size.minCoeff() > 0.0
                        : s.kind == Shape::Kind::Mesh ? s.scale.minCoeff() > 0.0
                                                      : s.radius > 0.0 && (s.kind == Shape::Kind::Sphere || s.length > 0.0);
  if (!positive) throw ModelError(where, "link '" + link.name + "'", "a <visual> geometry has a size, radius, length or scale that is not positive");
  return s;
}

}  // namespace articula::urdf_io
