// Joint types and their kinematics ("jcalc", RBDA section 4.4): the joint
// transform X_J(q), the motion subspace S(q) in child coordinates and the
// velocity-product term c_J = (dS/dt) qdot.
#pragma once

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "articula/spatial/spatial.hpp"

namespace articula {

enum class JointType { Fixed, Revolute, Prismatic, Cylindrical, Universal, Spherical, Planar, Free };

/// Name used in model files ("revolute", ...); parseJointType returns false for unknown names.
std::string_view jointTypeName(JointType type);
bool parseJointType(std::string_view name, JointType& type);

/// Number of position coordinates (quaternions count 4) and of velocity coordinates.
int jointNq(JointType type);
int jointNv(JointType type);

/// A joint connecting a parent body to a child body. The child body's frame is
/// the joint's child frame: at q = 0 (identity quaternion) it coincides with the
/// joint frame, which is placed in the parent body frame by `placement`.
///
/// Coordinates, by type (axis a, second axis b, in the joint frame):
///  - revolute: angle about a; prismatic: displacement along a;
///  - cylindrical: (angle about a, displacement along a);
///  - universal: (angle about a, then angle about b in the once-rotated frame);
///  - spherical: unit quaternion (w, x, y, z); velocity = angular velocity in child frame;
///  - planar: (x, y, angle about z) in the joint frame's x-y plane; qdot = v;
///  - free: (position of the child origin, unit quaternion (w, x, y, z)); velocity =
///    (angular velocity, velocity of the child origin), both in child coordinates;
///  - fixed: none.
struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  int parent = -1;      ///< parent body index (0 = ground)
  int child = 0;        ///< child body index
  Transform placement;  ///< ^J X_parent: from the parent body frame to the joint frame
  Vec3 axis = Vec3::UnitZ();
  Vec3 axis2 = Vec3::UnitY();
  int iq = 0, iv = 0;  ///< offsets in the model's q and v vectors
  int nq = 0, nv = 0;
};

/// Motion subspace with at most six columns; never allocates.
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

struct JointKinematics {
  Transform XJ;      ///< ^child X_jointframe
  MotionSubspace S;  ///< 6 x nv, child coordinates, rows [angular; linear]
  Motion cJ;         ///< (dS/dt) v in child coordinates
};

/// Evaluates X_J, S and c_J at the joint's coordinates q (nq) and velocities v (nv).
void jointKinematics(const Joint& joint, const double* q, const double* v, JointKinematics& out);

/// Writes the zero configuration (identity quaternions) into q (nq values).
void jointNeutral(const Joint& joint, double* q);

/// qdot = G(q) v for this joint's coordinates.
void jointConfigurationRate(const Joint& joint, const double* q, const double* v, double* qdot);

/// q <- q (+) dv: moves the configuration along the velocity-space increment dv
/// (exact exponential map for the rotational parts), keeping quaternions unit.
void jointIntegrate(const Joint& joint, double* q, const double* dv);

/// Turns a change d of the velocity-space coordinates at q (+) dv (a Newton correction computed with
/// Jacobians at that configuration) into the change of the increment dv that produces it to first
/// order: q (+) (dv + e) = (q (+) dv) (+) (Jr(dv) e), so d <- Jr(dv)^-1 d, Jr the right Jacobian of
/// the exponential map (SO(3) for a spherical joint, SE(3) for a free joint's body twist); other
/// coordinates add up and stay as they are.
void jointIncrementFromTangent(const Joint& joint, const double* dv, double* d);

/// Renormalises quaternions; no-op for other joints.
void jointNormalize(const Joint& joint, double* q);

/// True when every coordinate is a plain scalar with qdot = v (springs, loads and
/// prescribed motion may act on such joints per coordinate).
bool jointHasScalarCoordinates(JointType type);

}  // namespace articula
