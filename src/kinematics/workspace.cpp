#include "articula/kinematics/workspace.hpp"

namespace articula {

Workspace::Workspace(const Model& model) {
  const std::size_t n = model.bodies.size();
  joint.resize(n);
  Xup.resize(n);
  X0.resize(n);
  v.resize(n);
  c.resize(n);
  a.resize(n);
  f.resize(n);
  fext.resize(n);
  Ic.resize(n);
  IA.resize(n, Mat6::Zero());
  pA.resize(n);
  U.resize(n);
  Dinv.resize(n);
  u.resize(n);
  s1.resize(n, Vec6::Zero());
  U1.resize(n, Vec6::Zero());
  invD1.resize(n, 0.0);
  u1.resize(n, 0.0);
  for (std::size_t i = 1; i < n; ++i) {
    const int nv = model.joints[i].nv;
    joint[i].S.resize(6, nv);
    U[i].resize(6, nv);
    Dinv[i].resize(nv, nv);
    u[i].resize(nv);
  }
  tau = Eigen::VectorXd::Zero(model.nv);
}

}  // namespace articula
