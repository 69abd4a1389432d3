#include "articula/model/joint.hpp"

#include <array>
#include <cmath>

namespace articula {

namespace {
struct TypeInfo {
  JointType type;
  std::string_view name;
  int nq, nv;
};
constexpr std::array<TypeInfo, 8> kTypes{{{JointType::Fixed, "fixed", 0, 0},
                                          {JointType::Revolute, "revolute", 1, 1},
                                          {JointType::Prismatic, "prismatic", 1, 1},
                                          {JointType::Cylindrical, "cylindrical", 2, 2},
                                          {JointType::Universal, "universal", 2, 2},
                                          {JointType::Spherical, "spherical", 4, 3},
                                          {JointType::Planar, "planar", 3, 3},
                                          {JointType::Free, "free", 7, 6}}};

const TypeInfo& info(JointType type) { return kTypes[static_cast<std::size_t>(type)]; }

Quat quaternionAt(const double* q) { return Quat(q[0], q[1], q[2], q[3]); }

void storeQuaternion(const Quat& r, double* q) {
  q[0] = r.w();
  q[1] = r.x();
  q[2] = r.y();
  q[3] = r.z();
}

// Quaternion of the rotation by the rotation vector w (exponential map).
Quat rotationVectorQuaternion(const Vec3& w) {
  const double angle = w.norm();
  if (angle < 1e-12) return Quat(1.0, 0.5 * w.x(), 0.5 * w.y(), 0.5 * w.z()).normalized();
  return Quat(Eigen::AngleAxisd(angle, w / angle));
}
}  // namespace

std::string_view jointTypeName(JointType type) { return info(type).name; }

bool parseJointType(std::string_view name, JointType& type) {
  for (const auto& t : kTypes) {
    if (t.name == name) {
      type = t.type;
      return true;
    }
  }
  return false;
}

int jointNq(JointType type) { return info(type).nq; }
int jointNv(JointType type) { return info(type).nv; }

bool jointHasScalarCoordinates(JointType type) {
  return type != JointType::Spherical && type != JointType::Free && type != JointType::Fixed;
}

void jointKinematics(const Joint& joint, const double* q, const double* v, JointKinematics& out) {
  out.S.resize(6, joint.nv);
  out.S.setZero();
  out.cJ = Motion();
  const Vec3& a = joint.axis;
  switch (joint.type) {
    case JointType::Fixed:
      out.XJ = Transform();
      break;
    case JointType::Revolute:
      out.XJ = Transform::rotation(axisAngle(a, q[0]));
      out.S.col(0).head<3>() = a;
      break;
    case JointType::Prismatic:
      out.XJ = Transform::translation(a * q[0]);
      out.S.col(0).tail<3>() = a;
      break;
    case JointType::Cylindrical:
      // Rotation and translation about the same axis commute, so S is constant.
      out.XJ = Transform(axisAngle(a, q[0]).transpose(), a * q[1]);
      out.S.col(0).head<3>() = a;
      out.S.col(1).tail<3>() = a;
      break;
    case JointType::Universal: {
      const Mat3 R1 = axisAngle(a, q[0]);
      const Mat3 R2 = axisAngle(joint.axis2, q[1]);
      out.XJ = Transform::rotation(R1 * R2);
      const Vec3 a1c = R2.transpose() * a;  // first axis in child coordinates
      out.S.col(0).head<3>() = a1c;
      out.S.col(1).head<3>() = joint.axis2;
      // d/dt (R2^T a) = -qdot2 b x (R2^T a)
      out.cJ.ang = v[0] * v[1] * a1c.cross(joint.axis2);
      break;
    }
    case JointType::Spherical:
      out.XJ = Transform::rotation(quaternionAt(q).normalized().toRotationMatrix());
      out.S.topRows<3>().setIdentity();
      break;
    case JointType::Planar: {
      const double c = std::cos(q[2]), s = std::sin(q[2]);
      out.XJ = Transform(axisAngle(Vec3::UnitZ(), q[2]).transpose(), Vec3(q[0], q[1], 0.0));
      // Linear velocity of the child origin in child coordinates is Rz^T (xdot, ydot, 0).
      out.S(3, 0) = c;
      out.S(4, 0) = -s;
      out.S(3, 1) = s;
      out.S(4, 1) = c;
      out.S(2, 2) = 1.0;
      out.cJ.lin = Vec3(v[2] * (-s * v[0] + c * v[1]), v[2] * (-c * v[0] - s * v[1]), 0.0);
      break;
    }
    case JointType::Free: {
      const Mat3 R = quaternionAt(q + 3).normalized().toRotationMatrix();
      out.XJ = Transform(R.transpose(), Vec3(q[0], q[1], q[2]));
      out.S.setIdentity();
      break;
    }
  }
}

void jointNeutral(const Joint& joint, double* q) {
  for (int k = 0; k < joint.nq; ++k) q[k] = 0.0;
  if (joint.type == JointType::Spherical) q[0] = 1.0;
  if (joint.type == JointType::Free) q[3] = 1.0;
}

void jointConfigurationRate(const Joint& joint, const double* q, const double* v, double* qdot) {
  switch (joint.type) {
    case JointType::Spherical: {
      const Quat r = quaternionAt(q);
      const Quat d = r * Quat(0.0, v[0], v[1], v[2]);  // qdot = 1/2 q (x) (0, w_child)
      qdot[0] = 0.5 * d.w();
      qdot[1] = 0.5 * d.x();
      qdot[2] = 0.5 * d.y();
      qdot[3] = 0.5 * d.z();
      break;
    }
    case JointType::Free: {
      const Quat r = quaternionAt(q + 3);
      const Vec3 pdot = r.normalized().toRotationMatrix() * Vec3(v[3], v[4], v[5]);
      qdot[0] = pdot.x();
      qdot[1] = pdot.y();
      qdot[2] = pdot.z();
      const Quat d = r * Quat(0.0, v[0], v[1], v[2]);
      qdot[3] = 0.5 * d.w();
      qdot[4] = 0.5 * d.x();
      qdot[5] = 0.5 * d.y();
      qdot[6] = 0.5 * d.z();
      break;
    }
    default:
      for (int k = 0; k < joint.nv; ++k) qdot[k] = v[k];
  }
}

void jointIntegrate(const Joint& joint, double* q, const double* dv) {
  switch (joint.type) {
    case JointType::Spherical: {
      const Quat r = quaternionAt(q) * rotationVectorQuaternion(Vec3(dv[0], dv[1], dv[2]));
      storeQuaternion(r.normalized(), q);
      break;
    }
    case JointType::Free: {
      // The increment is a body-frame twist (phi, rho): the exponential map of SE(3) moves the
      // origin by R V(phi) rho, V = I + (1 - cos t)/t^2 [phi]x + (t - sin t)/t^3 [phi]x^2, which is
      // exact for a constant twist. (R rho alone, rotation and translation taken apart, made the
      // structural integrators first order in the translation of a spinning body.)
      const Mat3 R = quaternionAt(q + 3).normalized().toRotationMatrix();
      const Vec3 phi(dv[0], dv[1], dv[2]), rho(dv[3], dv[4], dv[5]);
      const double t2 = phi.squaredNorm(), t = std::sqrt(t2);
      // Series below 1e-4 rad: the closed forms lose digits to cancellation there.
      const double a = t < 1e-4 ? 0.5 - t2 / 24.0 : (1.0 - std::cos(t)) / t2;
      const double b = t < 1e-4 ? 1.0 / 6.0 - t2 / 120.0 : (t - std::sin(t)) / (t2 * t);
      const Vec3 pr = phi.cross(rho);
      const Vec3 dp = R * (rho + a * pr + b * phi.cross(pr));
      for (int k = 0; k < 3; ++k) q[k] += dp[k];
      const Quat r = quaternionAt(q + 3) * rotationVectorQuaternion(Vec3(dv[0], dv[1], dv[2]));
      storeQuaternion(r.normalized(), q + 3);
      break;
    }
    default:
      for (int k = 0; k < joint.nv; ++k) q[k] += dv[k];
  }
}

namespace {

// Jr(phi)^-1 x, Jr the right Jacobian of SO(3)'s exponential:
// Jr^-1 = I + [phi]x / 2 + (1 / t^2 - (1 + cos t) / (2 t sin t)) [phi]x^2, t = |phi|; the last
// coefficient by its series below 1e-4 rad, where the closed form cancels: 1/12 + t^2/720.
Vec3 inverseRightJacobian(const Vec3& phi, const Vec3& x) {
  const double t2 = phi.squaredNorm(), t = std::sqrt(t2);
  const double c = t < 1e-4 ? 1.0 / 12.0 + t2 / 720.0 : 1.0 / t2 - (1.0 + std::cos(t)) / (2.0 * t * std::sin(t));
  const Vec3 px = phi.cross(x);
  return x + 0.5 * px + c * phi.cross(px);
}

// Q_l(rho, phi) x, the coupling block of SE(3)'s left Jacobian [[J_l, Q_l], [0, J_l]] for the twist
// (rho, phi) (Barfoot, State Estimation for Robotics, eq. (7.86)); series below 1e-4 rad.
Vec3 leftJacobianCoupling(const Vec3& rho, const Vec3& phi, const Vec3& x) {
  const double t2 = phi.squaredNorm(), t = std::sqrt(t2);
  const bool small = t < 1e-4;
  const double c1 = small ? 1.0 / 6.0 - t2 / 120.0 : (t - std::sin(t)) / (t2 * t);
  const double c2 = small ? 1.0 / 24.0 - t2 / 720.0 : (t2 + 2.0 * std::cos(t) - 2.0) / (2.0 * t2 * t2);
  const double c3 =
      small ? 1.0 / 120.0 - t2 / 2520.0 : (2.0 * t - 3.0 * std::sin(t) + t * std::cos(t)) / (2.0 * t2 * t2 * t);
  const Mat3 P = skew(phi), R = skew(rho);
  const Mat3 PR = P * R, RP = R * P, PRP = PR * P;
  const Mat3 Q = 0.5 * R + c1 * (PR + RP + PRP) + c2 * (P * PR + RP * P - 3.0 * PRP) + c3 * (PRP * P + P * PRP);
  return Q * x;
}

}  // namespace

void jointIncrementFromTangent(const Joint& joint, const double* dv, double* d) {
  if (joint.type != JointType::Spherical && joint.type != JointType::Free) return;
  const Vec3 phi(dv[0], dv[1], dv[2]);
  const Vec3 angular = inverseRightJacobian(phi, Vec3(d[0], d[1], d[2]));
  for (int k = 0; k < 3; ++k) d[k] = angular[k];
  if (joint.type == JointType::Spherical) return;
  // The body twist (phi, rho) of a free joint moves on SE(3): with J_r(xi) = J_l(-xi) =
  // [[J_r(phi), Q_r], [0, J_r(phi)]] in (translation, rotation) order and Q_r = Q_l(-rho, -phi),
  // the translation part of J_r^-1 d is J_r(phi)^-1 (d_rho - Q_r e_phi).
  const Vec3 rho(dv[3], dv[4], dv[5]);
  const Vec3 linear = inverseRightJacobian(phi, Vec3(d[3], d[4], d[5]) - leftJacobianCoupling(-rho, -phi, angular));
  for (int k = 0; k < 3; ++k) d[3 + k] = linear[k];
}

void jointNormalize(const Joint& joint, double* q) {
  double* quat = joint.type == JointType::Spherical ? q : joint.type == JointType::Free ? q + 3 : nullptr;
  if (!quat) return;
  const double n = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
  for (int k = 0; k < 4; ++k) quat[k] /= n;
}

}  // namespace articula
