// URDF robot descriptions (urdfdom, Debian liburdfdom-dev) as Articula models.
//
// Mapping (docs/model-format.md, "URDF"):
//  - the root link is part of the ground (a fixed base; a floating base is a `floating` joint
//    from a link named "world", as in Gazebo);
//  - revolute, continuous, prismatic, planar and floating joints become revolute, revolute,
//    prismatic, planar and free joints; a fixed joint merges its child link into the parent's
//    body (inertia lumped, shapes carried over, a marker named after the link at its origin);
//  - <limit lower upper> becomes a joint_limit stop, <dynamics damping> a joint damper and
//    <dynamics friction> a joint_friction element; initial coordinates are 0 clamped into the
//    limits; gravity is 9.81 m/s^2 along -z;
//  - visuals become shapes (box, cylinder, sphere, mesh with package://, file:// or relative
//    paths); a mesh that cannot be found or drawn becomes a placeholder box and a warning.
// Mimic joints, and moving links without mass, are errors that name the element.
#pragma once

#include <string>

#include "articula/model/builder.hpp"

namespace articula {

/// Stiffness and damping of the penalty stops made from URDF limits.
inline constexpr double kUrdfLimitStiffness = 1e4;  ///< N m/rad or N/m
inline constexpr double kUrdfLimitDamping = 10.0;   ///< N m s/rad or N s/m
/// Slip velocity of the regularised Coulomb friction made from <dynamics friction>.
inline constexpr double kUrdfFrictionSlipVelocity = 0.01;  ///< rad/s or m/s

/// Builds a model from URDF text. `fileLabel` names the file in errors and is the directory
/// against which relative mesh paths are resolved. Throws ModelError.
ModelBuilder parseUrdf(const std::string& xml, const std::string& fileLabel);

/// True when `path` names a URDF file (extension .urdf, any case).
bool isUrdfPath(const std::string& path);

}  // namespace articula
