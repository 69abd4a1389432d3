// Private to the absolute-coordinate Hamiltonian formulation (absolute_hamiltonian_system.cpp,
// absolute_hamiltonian_adjoint.cpp): the kinematics of a pair of bodies in absolute coordinates,
// written once for any scalar type. With double they give the equations of motion; with Eigen's
// forward-mode AutoDiffScalar over the two bodies' 26 state variables they give the exact local
// derivatives the adjoint needs (seed 002 (4.8), appendix B), element by element.
//
// Every force element and constraint is described by its power under a test velocity w (four
// 3-vectors: A's centre-of-mass velocity in world axes and angular velocity in body axes, then
// B's). The power is linear in w, so its gradient in w is the element's generalised force and
// its value at w = pbar is the adjoint's weighted force pbar^T f, whose gradient in the state is
// what (B.7) asks for.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <unsupported/Eigen/AutoDiff>

#include "articula/dynamics/handle_space.hpp"
#include "articula/model/model.hpp"

namespace articula::absolute {

template <class T>
using V4 = Eigen::Matrix<T, 4, 1>;

/// Derivatives over two bodies' state: r (3), e (4), rdot (3), omega (3) of A, then of B.
using Ad26 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 26, 1>>;
/// Derivatives over a test velocity w (12).
using Ad12 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 12, 1>>;

/// One body in absolute coordinates (seed 002 eq. (3.11), (3.14)): the centre of mass r (world),
/// Euler parameters e = (e0, e1, e2, e3) of any positive norm (the rotation is that of e / |e|, so
/// renormalising e changes nothing), the centre-of-mass velocity rdot (world) and the angular
/// velocity w in body axes; R (body to world) is filled by `finish`.
template <class T>
struct BodyState {
  Vec3T<T> r, rdot, w;
  V4<T> e;
  Mat3T<T> R;

  void finish() {
    const T e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3];
    const T s = T(1.0) / (e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3);
    R(0, 0) = s * (e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3);
    R(1, 1) = s * (e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3);
    R(2, 2) = s * (e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3);
    R(0, 1) = 2.0 * s * (e1 * e2 - e0 * e3);
    R(1, 0) = 2.0 * s * (e1 * e2 + e0 * e3);
    R(0, 2) = 2.0 * s * (e1 * e3 + e0 * e2);
    R(2, 0) = 2.0 * s * (e1 * e3 - e0 * e2);
    R(1, 2) = 2.0 * s * (e2 * e3 - e0 * e1);
    R(2, 1) = 2.0 * s * (e2 * e3 + e0 * e1);
  }
};

/// A test velocity of the two bodies.
template <class T>
struct PairVelocity {
  Vec3T<T> uA, aA, uB, aB;
};

template <class T, class S>
Vec3T<T> cast3(const Eigen::Matrix<S, 3, 1>& v) {
  return v.template cast<T>();
}

/// The relative twist of a frame F fixed on body B (axes EB and origin rhoB, from B's centre of
/// mass, in B's axes) with respect to body A, at F's origin and in F's axes, rows [angular;
/// linear], for the test velocity w. Linear in w; it depends on the poses only.
template <class T>
Eigen::Matrix<T, 6, 1> relativeTwist(const BodyState<T>& A, const BodyState<T>& B, const Mat3T<double>& EB,
                                     const Vec3T<double>& rhoB, const PairVelocity<T>& w) {
  const Mat3T<T> Q = B.R.transpose() * A.R;
  const Vec3T<T> rho = cast3<T>(rhoB);
  const Vec3T<T> g = B.R.transpose() * (B.r + B.R * rho - A.r);  // A's centre to F's origin, B axes
  const Vec3T<T> QaA = Q * w.aA;
  const Mat3T<T> E = EB.cast<T>();
  Eigen::Matrix<T, 6, 1> twist;
  twist.template head<3>() = E.transpose() * (w.aB - QaA);
  twist.template tail<3>() = E.transpose() * (B.R.transpose() * (w.uB - w.uA) + w.aB.cross(rho) - QaA.cross(g));
  return twist;
}

/// The time derivative of relativeTwist at a fixed test velocity w, as the poses move with the
/// bodies' own velocities (A.rdot, A.w, B.rdot, B.w): the twist's rows of C-dot w.
template <class T>
Eigen::Matrix<T, 6, 1> relativeTwistRate(const BodyState<T>& A, const BodyState<T>& B, const Mat3T<double>& EB,
                                         const Vec3T<double>& rhoB, const PairVelocity<T>& w) {
  const Mat3T<T> Q = B.R.transpose() * A.R;
  const Vec3T<T> rho = cast3<T>(rhoB);
  const Vec3T<T> g = B.R.transpose() * (B.r + B.R * rho - A.r);
  const Vec3T<T> QaA = Q * w.aA;
  // d/dt (R_B^T R_A) a = -w_B x (Q a) + Q (w_A x a), with R-dot = R [w]x for body-axis w
  const Vec3T<T> QaArate = -B.w.cross(QaA) + Q * A.w.cross(w.aA);
  const Vec3T<T> L1 = B.R.transpose() * (w.uB - w.uA);
  const Vec3T<T> distanceRate = B.rdot + B.R * B.w.cross(rho) - A.rdot;
  const Vec3T<T> gRate = -B.w.cross(g) + B.R.transpose() * distanceRate;
  const Mat3T<T> E = EB.cast<T>();
  Eigen::Matrix<T, 6, 1> rate;
  rate.template head<3>() = -(E.transpose() * QaArate);
  rate.template tail<3>() = E.transpose() * (-B.w.cross(L1) - QaArate.cross(g) - QaA.cross(gRate));
  return rate;
}

/// World velocity of the point rho (from the centre of mass, body axes) of body X under the test
/// velocity (u, a).
template <class T>
Vec3T<T> pointVelocity(const BodyState<T>& X, const Vec3T<double>& rho, const Vec3T<T>& u, const Vec3T<T>& a) {
  return u + X.R * a.cross(cast3<T>(rho));
}

/// The unit vector from the point rhoA of A to the point rhoB of B (from the centres of mass,
/// body axes).
template <class T>
Vec3T<T> distanceDirection(const BodyState<T>& A, const BodyState<T>& B, const Vec3T<double>& rhoA,
                           const Vec3T<double>& rhoB) {
  using std::sqrt;
  const Vec3T<T> d = B.r + B.R * cast3<T>(rhoB) - A.r - A.R * cast3<T>(rhoA);
  return d / sqrt(d.squaredNorm());
}

/// atan2(s, c), with its derivatives for automatic differentiation (Eigen's atan2 of
/// AutoDiffScalar allocates a dynamic derivative vector).
inline double angleOf(double s, double c) { return std::atan2(s, c); }
template <class D>
Eigen::AutoDiffScalar<D> angleOf(const Eigen::AutoDiffScalar<D>& s, const Eigen::AutoDiffScalar<D>& c) {
  const double sv = s.value(), cv = c.value(), h = sv * sv + cv * cv;
  return Eigen::AutoDiffScalar<D>(std::atan2(sv, cv), (cv * s.derivatives() - sv * c.derivatives()) / h);
}

/// Angle of a revolute joint: the rotation about `axis` (unit, joint axes) of the child frame
/// (axes EB on B) relative to the joint frame (axes EA on A), in (-pi, pi].
template <class T>
T revoluteAngle(const BodyState<T>& A, const BodyState<T>& B, const Mat3T<double>& EA, const Mat3T<double>& EB,
                const Vec3T<double>& axis) {
  const Mat3T<T> Rrel = EA.cast<T>().transpose() * A.R.transpose() * B.R * EB.cast<T>();
  const Vec3T<double> u0 = axis.unitOrthogonal();
  const Vec3T<T> u = cast3<T>(u0), a = cast3<T>(axis);
  const Vec3T<T> turned = Rrel * u;
  return angleOf(a.dot(u.cross(turned)), u.dot(turned));
}

/// Displacement of a prismatic joint along `axis` (joint axes): the child frame's origin (rhoB on
/// B) from the joint frame's origin (rhoA on A, axes EA), in joint axes.
template <class T>
T prismaticDisplacement(const BodyState<T>& A, const BodyState<T>& B, const Mat3T<double>& EA, const Vec3T<double>& rhoA,
                        const Vec3T<double>& rhoB, const Vec3T<double>& axis) {
  const Vec3T<T> oA = A.r + A.R * cast3<T>(rhoA), oB = B.r + B.R * cast3<T>(rhoB);
  return cast3<T>(axis).dot(EA.cast<T>().transpose() * (A.R.transpose() * (oB - oA)));
}

/// The power of a linear spring-damper between the points rhoA of A and rhoB of B (from the
/// centres of mass, body axes) under the test velocity w: -T dL/dt(w), T = k (L - L0) + c dL/dt.
template <class T>
T springPower(const PointSpringDamper& spring, const BodyState<T>& A, const BodyState<T>& B, const Vec3T<double>& rhoA,
              const Vec3T<double>& rhoB, const PairVelocity<T>& w) {
  using std::sqrt;
  const Vec3T<T> d = B.r + B.R * cast3<T>(rhoB) - A.r - A.R * cast3<T>(rhoA);
  const T length = sqrt(d.squaredNorm());
  const Vec3T<T> n = d / length;
  const T rate = n.dot(pointVelocity(B, rhoB, B.rdot, B.w) - pointVelocity(A, rhoA, A.rdot, A.w));
  const T tension = spring.stiffness * (length - spring.restLength) + spring.damping * rate;
  return -tension * n.dot(pointVelocity(B, rhoB, w.uB, w.aB) - pointVelocity(A, rhoA, w.uA, w.aA));
}

/// The power of a load on body B (point rhoB from its centre of mass) of the given magnitude
/// under the test velocity w.
template <class T>
T bodyLoadPower(const BodyLoad& load, double magnitude, const BodyState<T>& B, const Vec3T<double>& rhoB,
                const PairVelocity<T>& w) {
  const Vec3T<T> direction = load.worldFrame ? cast3<T>(load.direction) : Vec3T<T>(B.R * cast3<T>(load.direction));
  const Vec3T<T> rate = load.torque ? Vec3T<T>(B.R * w.aB) : pointVelocity(B, rhoB, w.uB, w.aB);
  return magnitude * direction.dot(rate);
}

}  // namespace articula::absolute
