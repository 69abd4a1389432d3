// Private to AbsoluteHamiltonianSystem: the pieces its equations of motion
// (absolute_hamiltonian_system.cpp) and its adjoint product (absolute_hamiltonian_adjoint.cpp)
// share: the body poses, the constraint blocks' rows, the force elements' powers and the two ways
// of differentiating a power (in the test velocity: the generalised force; in the state: the
// adjoint's element terms).
#pragma once

#include <cmath>
#include <numbers>

#include "absolute_elements.hpp"
#include "articula/dynamics/absolute_hamiltonian_system.hpp"

namespace articula {

struct AbsoluteHamiltonianSystem::Pose : absolute::BodyState<double> {};

namespace absolute {

inline double valueOf(double x) { return x; }
template <class D>
double valueOf(const Eigen::AutoDiffScalar<D>& x) {
  return x.value();
}

template <class T>
using BlockRows = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, 6, 1>;

/// A constraint block's rows under the test velocity w (their C w): D^T twist, and for a
/// universal joint n . (relative angular velocity), n = (Q a) x b in B's axes.
template <class T>
BlockRows<T> blockTwist(const BodyState<T>& A, const BodyState<T>& B,
                        const AbsoluteHamiltonianSystem::ConstraintBlock& b, const PairVelocity<T>& w) {
  BlockRows<T> rows(b.rows());
  if (b.distance) {
    rows[0] = distanceDirection(A, B, b.originA, b.originB)
                  .dot(pointVelocity(B, b.originB, w.uB, w.aB) - pointVelocity(A, b.originA, w.uA, w.aA));
    return rows;
  }
  const Eigen::Matrix<T, 6, 1> twist = relativeTwist(A, B, b.axesB, b.originB, w);
  rows.head(b.D.cols()) = b.D.transpose().cast<T>() * twist;
  if (b.turning) {
    const Vec3T<T> n = (B.R.transpose() * (A.R * cast3<T>(b.turningA))).cross(cast3<T>(b.turningB));
    rows[b.D.cols()] = n.dot(twist.template head<3>());
  }
  return rows;
}
/// Their time derivative at fixed w (C-dot w).
template <class T>
BlockRows<T> blockRate(const BodyState<T>& A, const BodyState<T>& B, const AbsoluteHamiltonianSystem::ConstraintBlock& b,
                       const PairVelocity<T>& w) {
  BlockRows<T> rows(b.rows());
  if (b.distance) {  // d/dt [n . dv(w)] = n-dot . dv(w) + n . dv-dot(w), R-dot = R [w]x
    using std::sqrt;
    const Vec3T<T> rhoA = cast3<T>(b.originA), rhoB = cast3<T>(b.originB);
    const Vec3T<T> d = B.r + B.R * rhoB - A.r - A.R * rhoA;
    const T length = sqrt(d.squaredNorm());
    const Vec3T<T> n = d / length;
    const Vec3T<T> dRate = pointVelocity(B, b.originB, B.rdot, B.w) - pointVelocity(A, b.originA, A.rdot, A.w);
    const Vec3T<T> nRate = (dRate - n * n.dot(dRate)) / length;
    const Vec3T<T> dv = pointVelocity(B, b.originB, w.uB, w.aB) - pointVelocity(A, b.originA, w.uA, w.aA);
    const Vec3T<T> dvRate = B.R * B.w.cross(w.aB.cross(rhoB)) - A.R * A.w.cross(w.aA.cross(rhoA));
    rows[0] = nRate.dot(dv) + n.dot(dvRate);
    return rows;
  }
  const Eigen::Matrix<T, 6, 1> rate = relativeTwistRate(A, B, b.axesB, b.originB, w);
  rows.head(b.D.cols()) = b.D.transpose().cast<T>() * rate;
  if (b.turning) {
    const Vec3T<T> a = cast3<T>(b.turningA), bB = cast3<T>(b.turningB);
    const Vec3T<T> Qa = B.R.transpose() * (A.R * a);
    const Vec3T<T> QaRate = -B.w.cross(Qa) + B.R.transpose() * (A.R * A.w.cross(a));  // as in relativeTwistRate
    const Eigen::Matrix<T, 6, 1> twist = relativeTwist(A, B, b.axesB, b.originB, w);
    rows[b.D.cols()] = QaRate.cross(bB).dot(twist.template head<3>()) + Qa.cross(bB).dot(rate.template head<3>());
  }
  return rows;
}

/// Column k of a linear map of the test velocity: w = unit vector k.
inline PairVelocity<double> unitVelocity(int k) {
  PairVelocity<double> w{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  (k < 3 ? w.uA : k < 6 ? w.aA : k < 9 ? w.uB : w.aB)[k % 3] = 1.0;
  return w;
}

/// The rows of a block as a matrix acting on [uA; aA; uB; aB].
inline Eigen::Matrix<double, Eigen::Dynamic, 12, 0, 6, 12> blockMatrix(const BodyState<double>& A,
                                                                      const BodyState<double>& B,
                                                                      const AbsoluteHamiltonianSystem::ConstraintBlock& b) {
  Eigen::Matrix<double, Eigen::Dynamic, 12, 0, 6, 12> C(b.rows(), 12);
  for (int k = 0; k < 12; ++k) C.col(k) = blockTwist(A, B, b, unitVelocity(k));
  return C;
}

/// e-dot = e (x) (0, w) / 2 for Euler parameters e = (e0, eps) and body-axis angular velocity w.
inline Eigen::Vector4d eulerParameterRate(const Eigen::Vector4d& e, const Vec3& w) {
  const Vec3 eps = e.tail<3>();
  Eigen::Vector4d rate;
  rate[0] = -0.5 * eps.dot(w);
  rate.tail<3>() = 0.5 * (e[0] * w + eps.cross(w));
  return rate;
}

/// A test velocity of bodies a and b read from a vector of 6 per body (zero for the ground).
inline PairVelocity<double> pairOf(int a, int b, const Eigen::VectorXd& v) {
  PairVelocity<double> w{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  if (a > 0) {
    w.uA = v.segment<3>(6 * (a - 1));
    w.aA = v.segment<3>(6 * (a - 1) + 3);
  }
  if (b > 0) {
    w.uB = v.segment<3>(6 * (b - 1));
    w.aB = v.segment<3>(6 * (b - 1) + 3);
  }
  return w;
}

template <class T>
PairVelocity<T> castPair(const PairVelocity<double>& w) {
  return {w.uA.cast<T>(), w.aA.cast<T>(), w.uB.cast<T>(), w.aB.cast<T>()};
}

/// The motion-subspace column of a joint coordinate in the child's axes: constant, except for a
/// universal joint's first angle, whose axis a is fixed in the parent (Q a in the child's axes;
/// with a perpendicular to b the two columns are orthonormal, so the rates are their projections).
template <class T>
Eigen::Matrix<T, 6, 1> coordinateAxis(const BodyState<T>& A, const BodyState<T>& B,
                                      const AbsoluteHamiltonianSystem::JointCoordinate& c) {
  Eigen::Matrix<T, 6, 1> s = c.s.cast<T>();
  if (c.universal && c.dof == 0) s.template head<3>() = B.R.transpose() * (A.R * cast3<T>(Vec3(c.axesA * c.axis)));
  return s;
}

/// The coordinate's value: a revolute angle, a prismatic displacement, or a universal joint's
/// angles from the relative rotation Rot(a, q1) Rot(b, q2) written in the axes (a, b, a x b),
/// where it reads [[c2, 0, s2], [s1 s2, c1, -s1 c2], [-c1 s2, s1, c1 c2]] (|q2| < pi / 2).
template <class T>
T coordinateValue(const BodyState<T>& A, const BodyState<T>& B, const AbsoluteHamiltonianSystem::JointCoordinate& c) {
  const Mat3 I = Mat3::Identity();
  if (!c.angle) return prismaticDisplacement(A, B, c.axesA, c.originA, c.originB, c.axis);
  if (!c.universal) return revoluteAngle(A, B, c.axesA, I, c.axis);
  Mat3 F;
  F << c.axis, c.axis2, c.axis.cross(c.axis2);
  const Mat3T<T> M = F.transpose().cast<T>() * (c.axesA.transpose().cast<T>() * A.R.transpose() * B.R) * F.cast<T>();
  return c.dof == 0 ? angleOf(M(2, 1), M(1, 1)) : angleOf(M(0, 2), M(0, 0));
}

}  // namespace absolute

template <class F>
void AbsoluteHamiltonianSystem::forEachElement(double t, const F& f) const {
  using absolute::PairVelocity;
  for (const PointSpringDamper& s : model_.pointSprings) {
    const Vec3 rhoA = s.pointA + rhoCom_[static_cast<std::size_t>(s.bodyA)];
    const Vec3 rhoB = s.pointB + rhoCom_[static_cast<std::size_t>(s.bodyB)];
    f(s.bodyA, s.bodyB,
      [&](const auto& A, const auto& B, const auto& w) { return absolute::springPower(s, A, B, rhoA, rhoB, w); });
  }
  for (const BodyLoad& load : model_.bodyLoads) {
    const double magnitude = load.magnitude.value(t);
    const Vec3 rho = load.point + rhoCom_[static_cast<std::size_t>(load.body)];
    f(0, load.body, [&, magnitude](const auto&, const auto& B, const auto& w) {
      return absolute::bodyLoadPower(load, magnitude, B, rho, w);
    });
  }
  for (const JointCoordinate& c : coordinates_) {
    if (c.springs.empty() && c.frictions.empty() && c.loads.empty()) continue;
    const int parent = model_.joints[static_cast<std::size_t>(c.joint)].parent;
    f(parent, c.joint, [&](const auto& A, const auto& B, const auto& w) {
      using T = typename std::decay_t<decltype(A.r)>::Scalar;
      const Eigen::Matrix<T, 6, 1> s = absolute::coordinateAxis(A, B, c);
      const Mat3 I = Mat3::Identity();
      const T rate = s.dot(absolute::relativeTwist(A, B, I, c.originB, PairVelocity<T>{A.rdot, A.w, B.rdot, B.w}));
      T tau(0.0);
      if (!c.springs.empty()) {
        const T coordinate = absolute::coordinateValue(A, B, c);
        for (int k : c.springs) {
          const JointSpringDamper& spring = model_.jointSprings[static_cast<std::size_t>(k)];
          T deflection = coordinate - spring.rest(t);
          // An angle is known modulo 2 pi: the spring acts on the deflection's representative in
          // (-pi, pi] (a constant shift, so its derivatives are those of the angle).
          if (c.angle)
            deflection -= 2.0 * std::numbers::pi *
                          std::round(absolute::valueOf(deflection) / (2.0 * std::numbers::pi));
          tau -= spring.stiffness * deflection + spring.damping * (rate - spring.restRate(t));
        }
      }
      for (int k : c.frictions) {
        const JointFriction& friction = model_.jointFrictions[static_cast<std::size_t>(k)];
        using std::tanh;
        tau -= friction.force * tanh(rate / friction.slipVelocity);
      }
      for (int k : c.loads) tau += model_.jointLoads[static_cast<std::size_t>(k)].magnitude.value(t);
      return T(tau * s.dot(absolute::relativeTwist(A, B, I, c.originB, w)));
    });
  }
}

template <class Power>
void AbsoluteHamiltonianSystem::addGeneralisedForce(int a, int b, const Power& power,
                                                    Eigen::Ref<Eigen::VectorXd> out) const {
  const Pose& A = poses_[static_cast<std::size_t>(a)];
  const Pose& B = poses_[static_cast<std::size_t>(b)];
  for (int k = 0; k < 12; ++k) {
    const int body = k < 6 ? a : b;
    if (body == 0) continue;
    out[6 * (body - 1) + k % 6] += power(static_cast<const absolute::BodyState<double>&>(A),
                                         static_cast<const absolute::BodyState<double>&>(B), absolute::unitVelocity(k));
  }
}

template <class Power, class W>
void AbsoluteHamiltonianSystem::addStateGradient(int a, int b, const Power& power, const W& w, double scale,
                                                 Eigen::Ref<Eigen::VectorXd> qbar,
                                                 Eigen::Ref<Eigen::VectorXd> vbar) const {
  using absolute::Ad26;
  // The state of body i seeded at derivative offset o: r, e, rdot, w (13 each; the ground is
  // constant).
  const auto seeded = [&](int i, int o) {
    const Pose& p = poses_[static_cast<std::size_t>(i)];
    absolute::BodyState<Ad26> s;
    const auto seed = [&](double value, int k) { return i > 0 ? Ad26(value, 26, o + k) : Ad26(value); };
    for (int k = 0; k < 3; ++k) {
      s.r[k] = seed(p.r[k], k);
      s.rdot[k] = seed(p.rdot[k], 7 + k);
      s.w[k] = seed(p.w[k], 10 + k);
    }
    for (int k = 0; k < 4; ++k) s.e[k] = seed(p.e[k], 3 + k);
    s.finish();
    return s;
  };
  const absolute::BodyState<Ad26> A = seeded(a, 0), B = seeded(b, 13);
  const Ad26 value = power(A, B, absolute::castPair<Ad26>(w));
  const Eigen::Matrix<double, 26, 1>& d = value.derivatives();
  for (const auto& [i, o] : {std::pair{a, 0}, std::pair{b, 13}}) {
    if (i == 0) continue;
    qbar.segment<7>(7 * (i - 1)) += scale * d.segment<7>(o);
    vbar.segment<6>(6 * (i - 1)) += scale * d.segment<6>(o + 7);
  }
}

}  // namespace articula
