// Planar specialisation of the spatial algebra, for mechanisms whose bodies all move
// in planes parallel to the x-y plane of the world.
//
// Only three of the six Plücker coordinates are then nonzero: a motion vector is
// [w_z; v_x; v_y] and a force vector [n_z; f_x; f_y] (same reference point and
// axes as the 6D vectors they come from). The operations below are the 6D ones of
// spatial.hpp restricted to those coordinates; test_spatial.cpp checks each against
// its 6D counterpart. Out-of-plane components (moments about x and y, forces along z)
// are reactions of the joints that keep the motion planar and never enter the
// joint-space dynamics.
#pragma once

#include <cmath>

#include "articula/spatial/spatial.hpp"

namespace articula {

using Vec2 = Eigen::Vector2d;
using PlanarVector = Eigen::Vector3d;  ///< [w_z; v_x; v_y] or [n_z; f_x; f_y]
using PlanarMatrix = Eigen::Matrix3d;

/// Planar motion cross product m x n (RBDA eq. 2.31 restricted to the plane).
inline PlanarVector planarCrossMotion(const PlanarVector& m, const PlanarVector& n) {
  return {0.0, m[2] * n[0] - m[0] * n[2], m[0] * n[1] - m[1] * n[0]};
}

/// Planar force cross product m x* f (RBDA eq. 2.32 restricted to the plane).
inline PlanarVector planarCrossForce(const PlanarVector& m, const PlanarVector& f) {
  return {m[1] * f[2] - m[2] * f[1], -m[0] * f[2], m[0] * f[1]};
}

/// Planar rigid-body inertia about the frame origin, from the mass, the centre of
/// mass c (in-plane coordinates) and the moment of inertia about the z axis through c.
inline PlanarMatrix planarInertia(double m, const Vec2& c, double Izz) {
  PlanarMatrix I;
  I << Izz + m * c.squaredNorm(), -m * c.y(), m * c.x(),  //
      -m * c.y(), m, 0.0,                                  //
      m * c.x(), 0.0, m;
  return I;
}

/// Pose of a frame in the plane of a base frame: rotation by `angle` about z and
/// origin p. Converts vectors given in the posed frame into the base frame
/// (the planar Transform::applyInverse).
struct PlanarPose {
  double cos = 1.0, sin = 0.0;  ///< of the rotation angle
  Vec2 p = Vec2::Zero();        ///< origin of the posed frame in the base frame

  PlanarPose() = default;
  PlanarPose(double angle, const Vec2& origin) : cos(std::cos(angle)), sin(std::sin(angle)), p(origin) {}

  /// In-plane vector rotated into base axes.
  Vec2 rotate(const Vec2& x) const { return {cos * x.x() - sin * x.y(), sin * x.x() + cos * x.y()}; }
  /// Point given in the posed frame, in base coordinates.
  Vec2 point(const Vec2& x) const { return p + rotate(x); }
  /// Motion vector: the linear part moves to the base origin, v_O = v_p + w z x (O - p).
  PlanarVector motion(const PlanarVector& m) const {
    const Vec2 v = rotate(m.tail<2>());
    return {m[0], v.x() + m[0] * p.y(), v.y() - m[0] * p.x()};
  }
  /// Force vector: the moment moves to the base origin, n_O = n_p + (p x f)_z.
  PlanarVector force(const PlanarVector& f) const {
    const Vec2 F = rotate(f.tail<2>());
    return {f[0] + p.x() * F.y() - p.y() * F.x(), F.x(), F.y()};
  }
};

/// The planar coordinates [w_z; v_x; v_y] of a 6D motion or [n_z; f_x; f_y] of a force.
inline PlanarVector planarPart(const Vec6& x) { return {x[2], x[3], x[4]}; }

}  // namespace articula
