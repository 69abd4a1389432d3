// The vector space the handle equations of the divide-and-conquer family live in: 6D spatial
// vectors [angular; linear] (world axes, about a chosen point), or, for mechanisms whose bodies
// all move in planes parallel to the world x-y plane (model/planarity.hpp), the three in-plane
// coordinates [w_z; v_x; v_y] / [n_z; f_x; f_y] of spatial/planar.hpp. The out-of-plane
// components of a planar mechanism's forces are joint reactions that never enter its motion, so
// the planar handle equations are the 6D ones restricted to the plane (3x3 instead of 6x6).
//
// Each space gives its vector and matrix types in a scalar type, the conversions from and to 6D
// world vectors, the change of reference point (the thesis's shift matrices, eq. (3.18)-(3.23)),
// the force cross product, and what the handle equations read of the body poses: each body's
// origin, its joint's motion subspace in world axes and its mobility (inverse inertia) about its
// origin. The 6D space reads the poses of the workspace's X0 (updatePositions or TreePositions),
// the plane those of ws.planar.pose (PlanarTreePoses).
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "articula/kinematics/workspace.hpp"
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
  /// T^T G, in place, for any number of columns (forceAt applied to each column).
  template <class S, class Mat>
  static void shiftForces(Mat& G, const Offset<S>& s) {
    G.template topRows<3>().noalias() += cross(s) * G.template bottomRows<3>();
  }
  /// T G, in place, for any number of columns (motionAt applied to each column).
  template <class S, class Mat>
  static void shiftMotions(Mat& G, const Offset<S>& s) {
    G.template bottomRows<3>().noalias() -= cross(s) * G.template topRows<3>();
  }
  /// rate_k += Sw_k^T (T F - V x* P) for the columns Sw_k of a subspace, with T F the force F
  /// moved by -r (forceAt): HDCA's momentum-rate load (hdca.hpp). The two halves stay 3-vectors:
  /// a 6-vector assembled from them and read back at once as SIMD pairs stalls on the store
  /// forwarding (its middle pair spans both halves' stores).
  template <class S, class SubT, class Rate>
  static void addTransportedLoad(const SubT& Sw, const Vec<S>& F, const Offset<S>& r, const Vec<S>& V,
                                 const Vec<S>& P, Rate&& rate) {
    const Vec3T<S> w = V.template head<3>(), u = V.template tail<3>();
    const Vec3T<S> n = P.template head<3>(), f = P.template tail<3>(), lin = F.template tail<3>();
    const Vec3T<S> ang = Vec3T<S>(F.template head<3>()) - r.cross(lin) - w.cross(n) - u.cross(f);
    const Vec3T<S> force = lin - w.cross(f);
    for (Eigen::Index k = 0; k < Sw.cols(); ++k)
      rate[k] += Sw.col(k).template head<3>().dot(ang) + Sw.col(k).template tail<3>().dot(force);
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

  /// Body i's origin, world coordinates.
  template <class S>
  static Offset<S> origin(const Workspace& ws, int i) {
    return ws.X0[static_cast<std::size_t>(i)].r.cast<S>();
  }
  /// Joint i's motion subspace in world axes (about the child's origin): ws.joint[i].S rotated.
  template <class Sub>
  static void subspace(const Model& /*model*/, const Workspace& ws, int i, Sub& out) {
    const auto idx = static_cast<std::size_t>(i);
    const Mat3 R = ws.X0[idx].E.transpose();  // body axes in world axes
    const auto& S = ws.joint[idx].S;
    for (Eigen::Index k = 0; k < S.cols(); ++k) {
      out.col(k).template head<3>() = (R * S.col(k).head<3>()).cast<typename Sub::Scalar>();
      out.col(k).template tail<3>() = (R * S.col(k).tail<3>()).cast<typename Sub::Scalar>();
    }
  }
  /// Body i's mobility about its origin, world axes (mobility above).
  template <class S>
  static Mat<S> leafMobility(const Model& model, const Workspace& ws, int i, const Mat3& invIc) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Mat3 R = ws.X0[idx].E.transpose();
    return mobility<S>(R, body.inertiaCom, invIc, R * body.com, body.mass);
  }
  /// Body i's spatial inertia about the point at -r from its origin, world axes, into I:
  /// [Ic - m cx cx, m cx; -m cx, m 1] with Ic its central inertia and c its centre of mass from
  /// that point (r plus the centre of mass from the origin), both in world axes
  /// (-cx cx = |c|^2 1 - c c^T).
  template <class S>
  static void leafInertia(const Model& model, const Workspace& ws, int i, const Offset<S>& r, Mat<S>& I) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Mat3& E = ws.X0[idx].E;  // world axes to body axes: Ic in world axes is E^T Ic E
    const Vec3 c = E.transpose() * body.com + r.template cast<double>(), mc = body.mass * c;
    const Mat3 IcE = body.inertiaCom * E;
    const double mc2 = mc.dot(c);
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j)  // the symmetric block by its lower triangle
#pragma GCC unroll 3
      for (int i = j; i < 3; ++i)
        I(i, j) = I(j, i) = static_cast<S>(E.col(i).dot(IcE.col(j)) + (i == j ? mc2 : 0.0) - mc[i] * c[j]);
    const Mat3 mcx = cross(Vec3T<double>(mc));
    I.template topRightCorner<3, 3>() = mcx.cast<S>();
    I.template bottomLeftCorner<3, 3>() = -mcx.cast<S>();
    I.template bottomRightCorner<3, 3>() = Mat3T<S>::Identity() * static_cast<S>(body.mass);
  }
  /// Whether S = sign e_0 for every configuration (an axis joint): none in 6D (a joint axis
  /// turns with the bodies above it).
  static bool axisJoint(const Joint& /*joint*/, double& /*sign*/) { return false; }
  /// The weight m g of body i about the point at -r from its origin, world axes, into F (written
  /// by halves, not read back here: see addTransportedLoad).
  template <class S>
  static void weight(const Model& model, const Workspace& ws, int i, const Offset<S>& r, Vec<S>& F) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Vec3 w = body.mass * model.gravity;
    const Vec3 arm = ws.X0[idx].E.transpose() * body.com + r.template cast<double>();
    F.template head<3>() = arm.cross(w).cast<S>();
    F.template tail<3>() = w.cast<S>();
  }
  /// (dS/dt|child)^T P for a joint whose subspace turns in its child's axes, from its world
  /// subspace Sw (about the child's origin), its rates v and the momentum P: a universal
  /// joint's first axis turns with the second angle, d/dt S_0 = v_1 (S_0 x S_1); a planar
  /// joint's translations turn with its angle, d/dt S_k = v_2 (n x S_k) for its rotation
  /// axis n. Added to `rate`.
  template <class S, class SubT, class Rate>
  static void addSubspaceRate(JointType type, const SubT& Sw, const Vec<S>& P, const S* v, Rate&& rate) {
    const Vec3T<S> n = P.template head<3>(), f = P.template tail<3>();
    if (type == JointType::Universal) {
      const Vec3T<S> a1 = Sw.col(0).template head<3>(), a2 = Sw.col(1).template head<3>();
      rate[0] += v[1] * a1.cross(a2).dot(n);
    } else if (type == JointType::Planar) {
      const Vec3T<S> axis = Sw.col(2).template head<3>();
      for (int k = 0; k < 2; ++k) rate[k] += v[2] * f.cross(Vec3T<S>(Sw.col(k).template tail<3>())).dot(axis);
    }
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
  template <class S, class Mat>
  static void shiftForces(Mat& G, const Offset<S>& s) {
    G.row(0) += s.x() * G.row(2) - s.y() * G.row(1);
  }
  template <class S, class Mat>
  static void shiftMotions(Mat& G, const Offset<S>& s) {
    G.row(1) -= s.y() * G.row(0);
    G.row(2) += s.x() * G.row(0);
  }
  /// As SpatialSpace::addTransportedLoad in the plane (V x* P: spatial/planar.hpp,
  /// planarCrossForce).
  template <class S, class SubT, class Rate>
  static void addTransportedLoad(const SubT& Sw, const Vec<S>& F, const Offset<S>& r, const Vec<S>& V,
                                 const Vec<S>& P, Rate&& rate) {
    const Vec<S> load = forceAt<S>(F, Offset<S>(-r)) -
                        Vec<S>(V[1] * P[2] - V[2] * P[1], -V[0] * P[2], V[0] * P[1]);
    for (Eigen::Index k = 0; k < Sw.cols(); ++k) rate[k] += Sw.col(k).dot(load);
  }
  template <class S>
  static Offset<S> origin(const Workspace& ws, int i) {
    return ws.planar.pose[static_cast<std::size_t>(i)].p.cast<S>();
  }
  /// In world axes about the child's origin: a prismatic joint's direction turned with the
  /// body, a planar joint's translations along its frame's axes and its rotation (a revolute
  /// joint is an axis joint, axisJoint: S = (sign, 0, 0) is constant and not read here).
  template <class Sub>
  static void subspace(const Model& model, const Workspace& ws, int i, Sub& out) {
    using S = typename Sub::Scalar;
    const auto idx = static_cast<std::size_t>(i);
    const PlanarJoint& pj = ws.planar.joint[idx];
    const PlanarPose& pose = ws.planar.pose[idx];
    switch (model.joints[idx].type) {
      case JointType::Prismatic: {
        const Vec2 d = pose.rotate(pj.direction);
        out.col(0) << S(0), S(d.x()), S(d.y());
        break;
      }
      case JointType::Planar: {  // the joint frame's axes
        const Vec2& rotation = ws.planar.jointRotation[idx];
        const S c = S(rotation.x()), s = S(rotation.y());
        out.col(0) << S(0), c, s;
        out.col(1) << S(0), -s, c;
        out.col(2) << S(1), S(0), S(0);
        break;
      }
      default:
        break;
    }
  }
  /// The inverse of planarInertia in closed form: with J the moment of inertia about the centre
  /// of mass c (world axes, from the origin), [1, cy, -cx; cy, J/m + cy^2, -cx cy;
  /// -cx, -cx cy, J/m + cx^2] / J. Body z axes are the world's (model/planarity.hpp), so J is
  /// the central inertia's zz entry.
  template <class S>
  static Mat<S> leafMobility(const Model& model, const Workspace& ws, int i, const Mat3& /*invIc*/) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Vec2 c = ws.planar.pose[idx].rotate(body.com.head<2>());
    const double invJ = 1.0 / body.inertiaCom(2, 2), invM = 1.0 / body.mass;
    const double a = c.y() * invJ, b = -c.x() * invJ;
    Mat<S> phi;
    phi << S(invJ), S(a), S(b),                              //
        S(a), S(invM + c.y() * a), S(c.y() * b),               //
        S(b), S(c.y() * b), S(invM - c.x() * b);
    return phi;
  }
  /// The planar inertia about the point at -r from the origin, into I (about the origin, the inverse
  /// of leafMobility): [J + m |c|^2, -m cy, m cx; -m cy, m, 0; m cx, 0, m] with c the centre of
  /// mass from that point.
  template <class S>
  static void leafInertia(const Model& model, const Workspace& ws, int i, const Offset<S>& r, Mat<S>& I) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Vec2 c = ws.planar.pose[idx].rotate(body.com.head<2>()) + r.template cast<double>();
    const double m = body.mass, mx = m * c.x(), my = m * c.y();
    I << S(body.inertiaCom(2, 2) + mx * c.x() + my * c.y()), S(-my), S(mx),  //
        S(-my), S(m), S(0),                                                  //
        S(mx), S(0), S(m);
  }
  /// Revolute joints turn about the world z axis: S = sign e_0 for every configuration.
  static bool axisJoint(const Joint& joint, double& sign) {
    if (joint.type != JointType::Revolute) return false;
    sign = joint.axis.z() > 0.0 ? 1.0 : -1.0;
    return true;
  }
  /// The weight about the point at -r from the origin: the moment (c x m g)_z of the centre of
  /// mass c from that point.
  template <class S>
  static void weight(const Model& model, const Workspace& ws, int i, const Offset<S>& r, Vec<S>& F) {
    const auto idx = static_cast<std::size_t>(i);
    const Body& body = model.bodies[idx];
    const Vec2 c = ws.planar.pose[idx].rotate(body.com.head<2>()) + r.template cast<double>();
    const double wx = body.mass * model.gravity.x(), wy = body.mass * model.gravity.y();
    F = Vec<S>(S(c.x() * wy - c.y() * wx), S(wx), S(wy));
  }
  /// As SpatialSpace::addSubspaceRate in the plane (planar joints alone; n = z).
  template <class S, class SubT, class Rate>
  static void addSubspaceRate(JointType type, const SubT& Sw, const Vec<S>& P, const S* v, Rate&& rate) {
    if (type != JointType::Planar) return;
    for (int k = 0; k < 2; ++k) rate[k] += v[2] * (P[1] * Sw(2, k) - P[2] * Sw(1, k));
  }
};

}  // namespace articula
