#include "articula/model/planarity.hpp"

#include <cmath>

namespace articula {

namespace {
// Model data is entered in decimal and built with rotations of double precision;
// a component this small is a zero that rounding did not reproduce exactly.
constexpr double kZero = 1e-12;

bool rotatesAboutZ(const Mat3& E) {
  return std::abs(E(0, 2)) <= kZero && std::abs(E(1, 2)) <= kZero && std::abs(E(2, 0)) <= kZero &&
         std::abs(E(2, 1)) <= kZero && E(2, 2) > 0.0;
}
}  // namespace

bool describePlanar(const Model& model, std::vector<PlanarJoint>& joints) {
  joints.assign(model.joints.size(), PlanarJoint{});
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    if (!rotatesAboutZ(j.placement.E)) return false;
    PlanarJoint& pj = joints[i];
    // E = R^T with R the joint axes in the parent: E(0, 1) = sin(angle), E(0, 0) = cos(angle).
    pj.placementAngle = std::atan2(j.placement.E(0, 1), j.placement.E(0, 0));
    pj.placementOrigin = j.placement.r.head<2>();
    switch (j.type) {
      case JointType::Fixed:
      case JointType::Planar:
        break;
      case JointType::Revolute:
        if (std::abs(j.axis.x()) > kZero || std::abs(j.axis.y()) > kZero) return false;
        pj.axisSign = j.axis.z() > 0.0 ? 1.0 : -1.0;
        break;
      case JointType::Prismatic:
        if (std::abs(j.axis.z()) > kZero) return false;
        pj.direction = j.axis.head<2>();
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace articula
