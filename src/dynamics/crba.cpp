#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

void massMatrix(const Model& model, Workspace& ws, const Eigen::VectorXd& q, Eigen::Ref<Eigen::MatrixXd> H) {
  updatePositions(model, ws, q);
  const int n = model.bodyCount();
  H.setZero();  // blocks between bodies on different branches stay zero
  for (int i = 1; i <= n; ++i) ws.Ic[i] = model.bodies[i].inertia;
  for (int i = n; i >= 1; --i) {
    const Joint& ji = model.joints[i];
    if (ji.parent != 0) ws.Ic[ji.parent] += ws.Ic[i].transformedByInverse(ws.Xup[i]);
    const auto& Si = ws.joint[i].S;
    ws.F.resize(6, ji.nv);
    for (int col = 0; col < ji.nv; ++col) ws.F.col(col) = (ws.Ic[i] * Motion::fromVector(Si.col(col))).vector();
    H.block(ji.iv, ji.iv, ji.nv, ji.nv).noalias() = Si.transpose().lazyProduct(ws.F);
    // Carry the force block up to each ancestor: H_ij = F^T S_j (RBDA table 6.2).
    for (int j = i; model.joints[j].parent != 0;) {
      for (int col = 0; col < ji.nv; ++col) ws.F.col(col) = ws.Xup[j].applyInverse(Force::fromVector(ws.F.col(col))).vector();
      j = model.joints[j].parent;
      const Joint& jj = model.joints[j];
      H.block(ji.iv, jj.iv, ji.nv, jj.nv).noalias() = ws.F.transpose().lazyProduct(ws.joint[j].S);
      H.block(jj.iv, ji.iv, jj.nv, ji.nv) = H.block(ji.iv, jj.iv, ji.nv, jj.nv).transpose();
    }
  }
}

}  // namespace articula
