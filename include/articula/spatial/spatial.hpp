// Spatial (6D) vector algebra in Plücker coordinates, after Featherstone,
// "Rigid Body Dynamics Algorithms" (2008), chapter 2.
//
// Conventions: a motion vector is [angular; linear] = [w; v_O] where v_O is the
// velocity of the body-fixed point that coincides with the frame origin; a force
// vector is [moment about the origin; force]. Everything here is fixed-size and
// allocation-free.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace articula {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

/// Skew-symmetric matrix such that skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

/// Spatial motion vector (velocity, acceleration, motion-subspace column).
struct Motion {
  Vec3 ang = Vec3::Zero();
  Vec3 lin = Vec3::Zero();

  Motion() = default;
  Motion(const Vec3& w, const Vec3& v) : ang(w), lin(v) {}
  static Motion fromVector(const Vec6& m) { return {m.head<3>(), m.tail<3>()}; }
  Vec6 vector() const {
    Vec6 m;
    m << ang, lin;
    return m;
  }
  Motion operator+(const Motion& o) const { return {ang + o.ang, lin + o.lin}; }
  /// The velocity of the material point at p (this motion's frame and origin) of a body with it.
  Vec3 velocityAt(const Vec3& p) const { return lin + ang.cross(p); }
  Motion operator-(const Motion& o) const { return {ang - o.ang, lin - o.lin}; }
  Motion operator-() const { return {-ang, -lin}; }
  Motion operator*(double s) const { return {ang * s, lin * s}; }
  Motion& operator+=(const Motion& o) {
    ang += o.ang;
    lin += o.lin;
    return *this;
  }
};

/// Spatial force vector (moment about the frame origin, force).
struct Force {
  Vec3 ang = Vec3::Zero();
  Vec3 lin = Vec3::Zero();

  Force() = default;
  Force(const Vec3& n, const Vec3& f) : ang(n), lin(f) {}
  static Force fromVector(const Vec6& f) { return {f.head<3>(), f.tail<3>()}; }
  Vec6 vector() const {
    Vec6 f;
    f << ang, lin;
    return f;
  }
  Force operator+(const Force& o) const { return {ang + o.ang, lin + o.lin}; }
  Force operator-(const Force& o) const { return {ang - o.ang, lin - o.lin}; }
  Force operator-() const { return {-ang, -lin}; }
  Force operator*(double s) const { return {ang * s, lin * s}; }
  Force& operator+=(const Force& o) {
    ang += o.ang;
    lin += o.lin;
    return *this;
  }
  Force& operator-=(const Force& o) {
    ang -= o.ang;
    lin -= o.lin;
    return *this;
  }
};

/// Power pairing of a motion and a force vector.
inline double dot(const Motion& m, const Force& f) { return m.ang.dot(f.ang) + m.lin.dot(f.lin); }

/// Motion cross product m x n (RBDA eq. 2.31).
inline Motion crossMotion(const Motion& m, const Motion& n) {
  return {m.ang.cross(n.ang), m.ang.cross(n.lin) + m.lin.cross(n.ang)};
}

/// Force cross product m x* f (RBDA eq. 2.32); the dual of crossMotion:
/// dot(n, crossForce(m, f)) == -dot(crossMotion(m, n), f).
inline Force crossForce(const Motion& m, const Force& f) {
  return {m.ang.cross(f.ang) + m.lin.cross(f.lin), m.ang.cross(f.lin)};
}

/// 6x6 matrix of the motion cross product operator (m x).
inline Mat6 crossMotionMatrix(const Motion& m) {
  Mat6 x = Mat6::Zero();
  x.topLeftCorner<3, 3>() = skew(m.ang);
  x.bottomRightCorner<3, 3>() = skew(m.ang);
  x.bottomLeftCorner<3, 3>() = skew(m.lin);
  return x;
}

/// Plücker transform ^B X_A from frame A to frame B: E rotates A coordinates into
/// B coordinates, r is the origin of B expressed in A (RBDA section 2.8).
struct Transform {
  Mat3 E = Mat3::Identity();
  Vec3 r = Vec3::Zero();

  Transform() = default;
  Transform(const Mat3& rot, const Vec3& pos) : E(rot), r(pos) {}

  static Transform identity() { return {}; }
  static Transform translation(const Vec3& p) { return {Mat3::Identity(), p}; }
  /// Frame B rotated by R (columns: B axes in A) relative to A, same origin.
  static Transform rotation(const Mat3& R) { return {R.transpose(), Vec3::Zero()}; }
  /// Frame B with origin p and orientation R (B axes in A coordinates) in A.
  static Transform fromPose(const Mat3& R, const Vec3& p) { return {R.transpose(), p}; }

  /// Orientation of B in A: columns are B's axes in A coordinates.
  Mat3 rotationInParent() const { return E.transpose(); }

  Motion apply(const Motion& m) const { return {E * m.ang, E * (m.lin - r.cross(m.ang))}; }
  Motion applyInverse(const Motion& m) const {
    const Vec3 w = E.transpose() * m.ang;
    return {w, E.transpose() * m.lin + r.cross(w)};
  }
  Force apply(const Force& f) const { return {E * (f.ang - r.cross(f.lin)), E * f.lin}; }
  Force applyInverse(const Force& f) const {
    const Vec3 n = E.transpose() * f.lin;
    return {E.transpose() * f.ang + r.cross(n), n};
  }
  /// Point given in A coordinates, returned in B coordinates.
  Vec3 transformPoint(const Vec3& p) const { return E * (p - r); }
  /// Point given in B coordinates, returned in A coordinates.
  Vec3 inverseTransformPoint(const Vec3& p) const { return E.transpose() * p + r; }

  /// Composition: (^C X_B) * (^B X_A) = ^C X_A.
  Transform operator*(const Transform& XBA) const { return {E * XBA.E, XBA.r + XBA.E.transpose() * r}; }
  Transform inverse() const { return {E.transpose(), -E * r}; }

  /// 6x6 matrix acting on motion vectors.
  Mat6 motionMatrix() const {
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomRightCorner<3, 3>() = E;
    X.bottomLeftCorner<3, 3>() = -E * skew(r);
    return X;
  }
};

/// Rotation matrix of a rotation by angle about a unit axis (frame-rotation form:
/// columns are the rotated axes expressed in the original frame).
inline Mat3 axisAngle(const Vec3& unitAxis, double angle) {
  return Eigen::AngleAxisd(angle, unitAxis).toRotationMatrix();
}

/// Rotation from roll-pitch-yaw (fixed axes x, then y, then z), as in URDF.
inline Mat3 rpyRotation(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

/// Rigid-body spatial inertia expressed in some frame: mass m, first moment h = m c,
/// and rotational inertia Ibar about the frame origin (RBDA eq. 2.63).
struct SpatialInertia {
  double m = 0.0;
  Vec3 h = Vec3::Zero();
  Mat3 Ibar = Mat3::Zero();

  SpatialInertia() = default;
  SpatialInertia(double mass, const Vec3& hh, const Mat3& I) : m(mass), h(hh), Ibar(I) {}

  /// From mass, centre of mass c and inertia about the centre of mass.
  static SpatialInertia fromMassComInertia(double mass, const Vec3& c, const Mat3& Ic) {
    const Mat3 cx = skew(c);
    return {mass, mass * c, Ic + mass * cx * cx.transpose()};
  }

  Force operator*(const Motion& v) const { return {Ibar * v.ang + h.cross(v.lin), m * v.lin - h.cross(v.ang)}; }
  SpatialInertia operator+(const SpatialInertia& o) const { return {m + o.m, h + o.h, Ibar + o.Ibar}; }
  SpatialInertia& operator+=(const SpatialInertia& o) {
    m += o.m;
    h += o.h;
    Ibar += o.Ibar;
    return *this;
  }

  Mat6 matrix() const {
    Mat6 I;
    const Mat3 hx = skew(h);
    I.topLeftCorner<3, 3>() = Ibar;
    I.topRightCorner<3, 3>() = hx;
    I.bottomLeftCorner<3, 3>() = hx.transpose();
    I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
    return I;
  }

  /// Inertia expressed in B, given this inertia in A and X = ^B X_A (RBDA eq. 2.66).
  SpatialInertia transformedBy(const Transform& X) const {
    const Vec3 hr = h - m * X.r;
    const Mat3 rx = skew(X.r);
    const Mat3 hx = skew(h);
    const Mat3 hrx = skew(hr);
    const Mat3 I = Ibar + rx * hx + hrx * rx;
    return {m, X.E * hr, X.E * I * X.E.transpose()};
  }
  /// Inertia expressed in A, given this inertia in B and X = ^B X_A.
  SpatialInertia transformedByInverse(const Transform& X) const { return transformedBy(X.inverse()); }
};

/// M * skew(r), column by column (18 multiplications instead of 27).
inline Mat3 timesSkew(const Mat3& M, const Vec3& r) {
  Mat3 out;
  out.col(0) = r.z() * M.col(1) - r.y() * M.col(2);
  out.col(1) = r.x() * M.col(2) - r.z() * M.col(0);
  out.col(2) = r.y() * M.col(0) - r.x() * M.col(1);
  return out;
}

/// X^T I X for a symmetric 6x6 (articulated) inertia I given in frame B, returned in
/// frame A, with X = ^B X_A: the projection to the parent in the articulated-body algorithm.
inline Mat6 transformInertiaToParent(const Transform& X, const Mat6& I) {
  // X = diag(E, E) * [1 0; -rx 1]: rotate the blocks into A's axes, then shift the
  // reference point by r. With blocks [A B; B^T C] (A, C symmetric) and rx = skew(r):
  //   C' = C,  B' = B + rx C = B - (C rx)^T,  A' = A - B' rx - (B rx)^T.
  const Mat3 Et = X.E.transpose();
  const Mat3 A = Et * (I.topLeftCorner<3, 3>() * X.E);
  const Mat3 B = Et * (I.topRightCorner<3, 3>() * X.E);
  const Mat3 C = Et * (I.bottomRightCorner<3, 3>() * X.E);
  const Mat3 Bn = B - timesSkew(C, X.r).transpose();
  Mat6 out;
  out.topLeftCorner<3, 3>() = A - timesSkew(Bn, X.r) - timesSkew(B, X.r).transpose();
  out.topRightCorner<3, 3>() = Bn;
  out.bottomLeftCorner<3, 3>() = Bn.transpose();
  out.bottomRightCorner<3, 3>() = C;
  return out;
}

}  // namespace articula
