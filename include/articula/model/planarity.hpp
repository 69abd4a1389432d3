// Whether a model's bodies all move in planes parallel to the world x-y plane, and
// the in-plane description of its joints used by the planar recursive kernels.
#pragma once

#include <vector>

#include "articula/model/model.hpp"
#include "articula/spatial/planar.hpp"

namespace articula {

/// A joint of a planar model, seen in the plane.
struct PlanarJoint {
  double placementAngle = 0.0;        ///< joint frame rotation about z in the parent frame
  Vec2 placementOrigin = Vec2::Zero();  ///< joint frame origin in the parent frame (x, y)
  double axisSign = 1.0;              ///< revolute: +1 about +z, -1 about -z
  Vec2 direction = Vec2::Zero();      ///< prismatic: sliding direction in the joint frame
};

/// Fills `joints` (index = body, 0 unused) and returns true when every joint keeps
/// its child in a plane parallel to the world x-y plane: placements rotate about z
/// only (without turning z over), revolute axes are +-z, prismatic axes lie in the
/// x-y plane, planar joints move in their frame's x-y plane, and fixed joints are
/// allowed; cylindrical, universal, spherical and free joints are not. Gravity and
/// centres of mass may have z components: they do no work in planar motion.
bool describePlanar(const Model& model, std::vector<PlanarJoint>& joints);

}  // namespace articula
