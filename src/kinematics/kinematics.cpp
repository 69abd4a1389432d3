#include "articula/kinematics/kinematics.hpp"

#include <algorithm>
#include <iterator>

namespace articula {

void updatePositions(const Model& model, Workspace& ws, const Eigen::VectorXd& q) {
  static const double zeros[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    jointKinematics(j, q.data() + j.iq, zeros, ws.joint[i]);
    ws.Xup[i] = ws.joint[i].XJ * j.placement;
    ws.X0[i] = j.parent == 0 ? ws.Xup[i] : ws.Xup[i] * ws.X0[j.parent];
  }
}

void updateVelocities(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    JointKinematics& jk = ws.joint[i];
    jointKinematics(j, q.data() + j.iq, v.data() + j.iv, jk);
    ws.Xup[i] = jk.XJ * j.placement;
    ws.X0[i] = j.parent == 0 ? ws.Xup[i] : ws.Xup[i] * ws.X0[j.parent];
    const Motion vJ = Motion::fromVector(jk.S * v.segment(j.iv, j.nv));
    ws.v[i] = ws.Xup[i].apply(ws.v[j.parent]) + vJ;  // v[0] stays zero
    ws.c[i] = jk.cJ + crossMotion(ws.v[i], vJ);      // RBDA eq. (5.7)
  }
}

void updateAccelerations(const Model& model, Workspace& ws, const Eigen::VectorXd& vdot) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    ws.a[i] = ws.Xup[i].apply(ws.a[j.parent]) + Motion::fromVector(ws.joint[i].S * vdot.segment(j.iv, j.nv)) + ws.c[i];
  }
}

Vec3 pointPosition(const Workspace& ws, int body, const Vec3& p) { return ws.X0[body].inverseTransformPoint(p); }

Vec3 pointVelocity(const Workspace& ws, int body, const Vec3& p) {
  const Motion& v = ws.v[body];
  return ws.X0[body].E.transpose() * v.velocityAt(p);
}

Vec3 pointAcceleration(const Workspace& ws, int body, const Vec3& p) {
  const Motion& v = ws.v[body];
  const Motion& a = ws.a[body];
  return ws.X0[body].E.transpose() * (a.velocityAt(p) + v.ang.cross(v.velocityAt(p)));
}

Vec3 angularVelocity(const Workspace& ws, int body) { return ws.X0[body].E.transpose() * ws.v[body].ang; }
Vec3 angularAcceleration(const Workspace& ws, int body) { return ws.X0[body].E.transpose() * ws.a[body].ang; }

std::vector<int> pathCoordinates(const Model& model, int body) {
  std::vector<int> coordinates;
  for (int b = body; b > 0; b = model.parent(b))
    for (int k = 0; k < model.joints[b].nv; ++k) coordinates.push_back(model.joints[b].iv + k);
  std::sort(coordinates.begin(), coordinates.end());
  return coordinates;
}

std::vector<int> pathCoordinates(const Model& model, int bodyA, int bodyB) {
  const std::vector<int> a = pathCoordinates(model, bodyA), b = pathCoordinates(model, bodyB);
  std::vector<int> coordinates;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(coordinates));
  return coordinates;
}

void bodyJacobian(const Model& model, const Workspace& ws, int body, Eigen::Ref<Eigen::MatrixXd> J) {
  J.setZero();
  for (int k = body; k != 0; k = model.joints[k].parent) {
    const Joint& j = model.joints[k];
    for (int col = 0; col < j.nv; ++col)
      J.col(j.iv + col) = worldMotionColumn(ws, k, col).vector();
  }
}

void pointJacobian(const Model& model, const Workspace& ws, int body, const Vec3& p, Eigen::Ref<Eigen::MatrixXd> J) {
  J.setZero();
  const Vec3 pw = pointPosition(ws, body, p);
  for (int k = body; k != 0; k = model.joints[k].parent) {
    const Joint& j = model.joints[k];
    for (int col = 0; col < j.nv; ++col) {
      J.col(j.iv + col) = worldMotionColumn(ws, k, col).velocityAt(pw);
    }
  }
}

void worldMotionColumns(const Model& model, const Workspace& ws, WorldMotionColumns& S) {
  for (int k = 1; k <= model.bodyCount(); ++k)
    for (int col = 0; col < model.joints[k].nv; ++col)
      S.col(model.joints[k].iv + col) = worldMotionColumn(ws, k, col).vector();
}

void configurationRate(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       Eigen::Ref<Eigen::VectorXd> qdot) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    jointConfigurationRate(j, q.data() + j.iq, v.data() + j.iv, qdot.data() + j.iq);
  }
}

void integrateConfiguration(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& dv) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    jointIntegrate(j, q.data() + j.iq, dv.data() + j.iv);
  }
}

void incrementFromTangent(const Model& model, const Eigen::VectorXd& dv, Eigen::VectorXd& d) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    jointIncrementFromTangent(j, dv.data() + j.iv, d.data() + j.iv);
  }
}

void normalizeConfiguration(const Model& model, Eigen::VectorXd& q) {
  for (int i = 1; i <= model.bodyCount(); ++i) jointNormalize(model.joints[i], q.data() + model.joints[i].iq);
}

}  // namespace articula
