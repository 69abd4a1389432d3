#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// Recursive Newton-Euler passes over an already updated velocity state;
// vdot == nullptr means zero joint accelerations.
void rneaPasses(const Model& model, Workspace& ws, const Eigen::VectorXd* vdot, const ForceList* fext,
                Eigen::Ref<Eigen::VectorXd> tau) {
  const Motion a0(Vec3::Zero(), -model.gravity);  // gravity as a base acceleration
  const int n = model.bodyCount();
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const Motion& ap = j.parent == 0 ? a0 : ws.a[j.parent];
    ws.a[i] = ws.Xup[i].apply(ap) + ws.c[i];
    if (vdot) ws.a[i] += Motion::fromVector(ws.joint[i].S * vdot->segment(j.iv, j.nv));
    const SpatialInertia& I = model.bodies[i].inertia;
    ws.f[i] = I * ws.a[i] + crossForce(ws.v[i], I * ws.v[i]);
    if (fext) ws.f[i] -= (*fext)[i];
  }
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    tau.segment(j.iv, j.nv) = ws.joint[i].S.transpose() * ws.f[i].vector();
    if (j.parent != 0) ws.f[j.parent] += ws.Xup[i].applyInverse(ws.f[i]);
  }
}
}  // namespace

void inverseDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& vdot, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> tau) {
  updateVelocities(model, ws, q, v);
  rneaPasses(model, ws, &vdot, fext, tau);
}

void biasForces(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const ForceList* fext, Eigen::Ref<Eigen::VectorXd> C) {
  updateVelocities(model, ws, q, v);
  rneaPasses(model, ws, nullptr, fext, C);
}

double kineticEnergy(const Model& model, const Workspace& ws) {
  double T = 0.0;
  for (int i = 1; i <= model.bodyCount(); ++i) T += 0.5 * dot(ws.v[i], model.bodies[i].inertia * ws.v[i]);
  return T;
}

Force systemMomentum(const Model& model, const Workspace& ws) {
  Force h;
  for (int i = 1; i <= model.bodyCount(); ++i) h += ws.X0[i].applyInverse(model.bodies[i].inertia * ws.v[i]);
  return h;
}

double gravitationalEnergy(const Model& model, const Workspace& ws) {
  double V = 0.0;
  for (int i = 1; i <= model.bodyCount(); ++i)
    V -= model.bodies[i].mass * model.gravity.dot(pointPosition(ws, i, model.bodies[i].com));
  return V;
}

}  // namespace articula
