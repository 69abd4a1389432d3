// URDF poses and <visual> elements as Articula frames and shapes, with mesh files looked up the
// way ROS tools look them up (package://, file:// or relative to the URDF file).
#pragma once

#include <string>
#include <vector>

#include <urdf_model/link.h>
#include <urdf_model/pose.h>

#include "articula/model/model.hpp"

namespace articula::urdf_io {

/// A frame F in a body frame B: origin p and axes R of F, both in B coordinates.
struct Pose {
  Vec3 p = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  /// The frame G given in F, expressed in B.
  Pose operator*(const Pose& g) const { return {R * g.p + p, R * g.R}; }
};

Vec3 toVec3(const urdf::Vector3& v);
Pose toPose(const urdf::Pose& pose);

class VisualMapper {
 public:
  /// `urdfFile` anchors relative mesh paths; warnings about meshes are appended to `warnings`.
  VisualMapper(const std::string& urdfFile, std::vector<std::string>& warnings);

  /// The shape of `visual` on `link` (declared at `where`), whose frame is `linkInBody` in its
  /// body. A mesh that cannot be found, or is not STL or OBJ, becomes a placeholder box (and a
  /// warning); a non-positive dimension is a ModelError.
  Shape shape(const urdf::Visual& visual, const urdf::Link& link, const Pose& linkInBody, const SourceLocation& where);

 private:
  std::string findMesh(const std::string& uri) const;

  std::string directory_;
  std::vector<std::string>& warnings_;
};

}  // namespace articula::urdf_io
