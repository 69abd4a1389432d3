#include "articula/dynamics/dca.hpp"

#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

DcaFormulation::DcaFormulation(const Model& model, const DcaOptions& options)
    : model_(model), ws_(model), handles_(model, options.pairing, options.threads, "dca") {
  checkTopology("dca", model);
}

// Leaf coefficients at acceleration level (thesis eq. (3.29)-(3.31) differentiated, (4.49)): a
// rigid body with spatial inertia I about its origin obeys I a + v x* I v = f_1 + f_2 + f_ext, so
// b = Phi (f_ext - v x* I v); the joint's bias is its velocity-product acceleration c.
void DcaFormulation::leafEquations(int i) {
  const auto idx = static_cast<std::size_t>(i);
  const Body& body = model_.bodies[idx];
  handles_.leaf(ws_, i);
  const Mat3 R = ws_.X0[idx].E.transpose();  // body axes in world axes
  handles_.jointBias(i) << R * ws_.c[idx].ang, R * ws_.c[idx].lin;
  const Motion& v = ws_.v[idx];
  const Force applied = ws_.fext[idx] - crossForce(v, body.inertia * v);  // body coordinates
  Vec6 appliedWorld;
  appliedWorld << R * applied.ang, R * applied.lin;
  handles_.setLeafForce(i, appliedWorld);
}

// Leaves, assembly, base connection (the ground accelerates at -g so that gravity acts on every
// body), disassembly.
void DcaFormulation::sweep(Eigen::VectorXd& vdot) {
  Vec6 groundAcceleration;
  groundAcceleration << Vec3::Zero(), -model_.gravity;
  handles_.solve(ws_, groundAcceleration, ws_.tau, vdot, [&](int i) { leafEquations(i); }, [](int) {});
}

void DcaFormulation::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Eigen::VectorXd& vdot) {
  updateVelocities(model_, ws_, q, v);
  evaluateForceElements(model_, ws_, t, q, v);
  handles_.run([&] { sweep(vdot); });
  handles_.throwIfSingular("dca");
}

}  // namespace articula
