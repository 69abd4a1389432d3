// The vector space the handle equations of the divide-and-conquer family live in: 6D spatial
// vectors [angular; linear] (world axes, about a chosen point), or, for mechanisms whose bodies
// all move in planes parallel to the world x-y plane (model/planarity.hpp), the three in-plane
// coordinates [w_z; v_x; v_y] / [n_z; f_x; f_y] of spatial/planar.hpp. The out-of-plane
// components of a planar mechanism's forces are joint reactions that never enter its motion, so
// the planar handle equations are the 6D ones restricted to the plane (3x3 instead of 6x6).
//
// Each space gives its vector and matrix types in a scalar type, the conversions from and to 6D
// world vectors, the change of reference point (the thesis's shift matrices, eq. (3.18)-(3.23)),
// the force cross product, and a body's mobility (inverse inertia) about its origin.
#pragma once

#include <Eigen/Core>

#include "articula/model/model.hpp"

namespace articula {

template <class S>
using Vec3T = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3T = Eigen::Matrix<S, 3, 3>;
template <class S>
using Vec6T = Eigen::Matrix<S, 6, 1>;
template <class S>
using Mat6T = Eigen::Matrix<S, 6, 6>;
template <class S>
using VectorXT = Eigen::Matrix<S, Eigen::Dynamic, 1>;

/// Changes of reference point of 6D vectors, world axes. With s = Q - P, a motion vector about P
/// is T m about Q, T = [1 0; -sx 1] (the transpose of the thesis's shift matrix S_PQ, eq.
/// (3.18)-(3.19)); a force about Q is T^T f about P (eq. (3.23)).
template <class M, class P>
Vec6T<typename M::Scalar> motionAt(const Eigen::MatrixBase<M>& m, const Eigen::MatrixBase<P>& s) {
  using S = typename M::Scalar;
  Vec6T<S> out = m;
  out.template tail<3>() -= Vec3T<S>(s).cross(Vec3T<S>(out.template head<3>()));
  return out;
}
template <class F, class P>
Vec6T<typename F::Scalar> forceAt(const Eigen::MatrixBase<F>& f, const Eigen::MatrixBase<P>& s) {
  using S = typename F::Scalar;
  Vec6T<S> out = f;
  out.template head<3>() += Vec3T<S>(s).cross(Vec3T<S>(out.template tail<3>()));
  return out;
}

struct SpatialSpace {
  static constexpr int D = 6;
  template <class S>
  using Vec = Vec6T<S>;
  template <class S>
  using Mat = Mat6T<S>;
  template <class S>
  using Offset = Vec3T<S>;

  template <class S>
  static Vec<S> fromWorld(const Vec6& x) {
    return x.cast<S>();
  }
  template <class S>
  static Vec6 toWorld(const Vec<S>& x) {
    return x.template cast<double>();
  }
  template <class S>
  static Offset<S> offset(const Vec3& s) {
    return s.cast<S>();
  }
  template <class S>
  static Vec<S> motionAt(const Vec<S>& m, const Offset<S>& s) {
    return articula::motionAt(m, s);
  }
  template <class S>
  static Vec<S> forceAt(const Vec<S>& f, const Offset<S>& s) {
    return articula::forceAt(f, s);
  }
  /// T M and M T^T (see motionAt).
  template <class S>
  static Mat<S> shiftRows(const Mat<S>& M, const Offset<S>& s) {
    Mat<S> out = M;
    out.template bottomRows<3>().noalias() -= cross(s) * M.template topRows<3>();
    return out;
  }
  template <class S>
  static Mat<S> shiftColumns(const Mat<S>& M, const Offset<S>& s) {
    Mat<S> out = M;
    out.template rightCols<3>().noalias() += M.template leftCols<3>() * cross(s);
    return out;
  }
  /// V x* P.
  template <class S>
  static Vec<S> crossForce(const Vec<S>& V, const Vec<S>& P) {
    const Vec3T<S> w = V.template head<3>(), u = V.template tail<3>();
    const Vec3T<S> n = P.template head<3>(), f = P.template tail<3>();
    Vec<S> out;
    out << w.cross(n) + u.cross(f), w.cross(f);
    return out;
  }
  /// Phi = I^-1 for the spatial inertia I about the body's origin, from the body's rotation R
  /// (body axes in world axes), its central inertia Ic and inverse (body axes), its centre of
  /// mass c (world axes, from the origin) and mass: [Ic^-1, -Ic^-1 cx; cx Ic^-1, 1/m - cx Ic^-1 cx]
  /// in world axes.
  template <class S>
  static Mat<S> mobility(const Mat3& R, const Mat3& /*Ic*/, const Mat3& invIc, const Vec3& c, double mass) {
    const Mat3T<S> inv = (R * invIc * R.transpose()).cast<S>(), cx = cross(Vec3T<S>(c.cast<S>()));
    const Mat3T<S> invCx = inv * cx;
    Mat<S> phi;
    phi.template topLeftCorner<3, 3>() = inv;
    phi.template topRightCorner<3, 3>() = -invCx;
    phi.template bottomLeftCorner<3, 3>() = -invCx.transpose();  // cx Ic^-1
    phi.template bottomRightCorner<3, 3>() = Mat3T<S>::Identity() / static_cast<S>(mass);
    phi.template bottomRightCorner<3, 3>().noalias() -= cx * invCx;
    return phi;
  }

 private:
  template <class S>
  static Mat3T<S> cross(const Vec3T<S>& s) {
    Mat3T<S> m;
    m << S(0), -s.z(), s.y(), s.z(), S(0), -s.x(), -s.y(), s.x(), S(0);
    return m;
  }
};

struct PlanarSpace {
  static constexpr int D = 3;
  template <class S>
  using Vec = Vec3T<S>;
  template <class S>
  using Mat = Mat3T<S>;
  template <class S>
  using Offset = Eigen::Matrix<S, 2, 1>;

  template <class S>
  static Vec<S> fromWorld(const Vec6& x) {
    return Vec<S>(static_cast<S>(x[2]), static_cast<S>(x[3]), static_cast<S>(x[4]));
  }
  template <class S>
  static Vec6 toWorld(const Vec<S>& x) {
    Vec6 out;
    out << 0.0, 0.0, static_cast<double>(x[0]), static_cast<double>(x[1]), static_cast<double>(x[2]), 0.0;
    return out;
  }
  template <class S>
  static Offset<S> offset(const Vec3& s) {
    return Offset<S>(static_cast<S>(s.x()), static_cast<S>(s.y()));
  }
  /// v_Q = v_P + w z x s: T = [1 0 0; -sy 1 0; sx 0 1].
  template <class S>
  static Vec<S> motionAt(const Vec<S>& m, const Offset<S>& s) {
    return Vec<S>(m[0], m[1] - m[0] * s.y(), m[2] + m[0] * s.x());
  }
  /// n_P = n_Q + (s x f)_z: T^T.
  template <class S>
  static Vec<S> forceAt(const Vec<S>& f, const Offset<S>& s) {
    return Vec<S>(f[0] + s.x() * f[2] - s.y() * f[1], f[1], f[2]);
  }
  template <class S>
  static Mat<S> shiftRows(const Mat<S>& M, const Offset<S>& s) {
    Mat<S> out = M;
    out.row(1) -= s.y() * M.row(0);
    out.row(2) += s.x() * M.row(0);
    return out;
  }
  template <class S>
  static Mat<S> shiftColumns(const Mat<S>& M, const Offset<S>& s) {
    Mat<S> out = M;
    out.col(1) -= s.y() * M.col(0);
    out.col(2) += s.x() * M.col(0);
    return out;
  }
  /// V x* P in the plane (spatial/planar.hpp, planarCrossForce).
  template <class S>
  static Vec<S> crossForce(const Vec<S>& V, const Vec<S>& P) {
    return Vec<S>(V[1] * P[2] - V[2] * P[1], -V[0] * P[2], V[0] * P[1]);
  }
  /// The inverse of the planar inertia about the body's origin (spatial/planar.hpp,
  /// planarInertia), from the same data as SpatialSpace::mobility: the moment of inertia about the
  /// world z axis through the centre of mass, (R Ic R^T)_zz.
  template <class S>
  static Mat<S> mobility(const Mat3& R, const Mat3& Ic, const Mat3& /*invIc*/, const Vec3& c, double mass) {
    const double Izz = R.row(2) * Ic * R.row(2).transpose();
    Mat3 I;
    I << Izz + mass * (c.x() * c.x() + c.y() * c.y()), -mass * c.y(), mass * c.x(),  //
        -mass * c.y(), mass, 0.0,                                                    //
        mass * c.x(), 0.0, mass;
    return I.inverse().cast<S>();
  }
};

}  // namespace articula
