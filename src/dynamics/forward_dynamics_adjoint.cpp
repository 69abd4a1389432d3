#include "articula/dynamics/forward_dynamics_adjoint.hpp"

#include "aba_passes.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// Joints whose motion subspace is constant in the child frame and whose coordinates are their
// velocities: raising one coordinate moves the child's subtree by the screw of its column.
bool constantSubspace(JointType type) {
  return type == JointType::Revolute || type == JointType::Prismatic || type == JointType::Cylindrical ||
         type == JointType::Fixed;
}

}  // namespace

ForwardDynamicsAdjoint::ForwardDynamicsAdjoint(const Model& model)
    : model_(model),
      ws_(model),
      zero_(Eigen::VectorXd::Zero(model.nv)),
      w_(model.nv),
      residual_(model.nv),
      W_(model.joints.size()),
      P_(model.joints.size()),
      G_(model.joints.size()) {}

std::string ForwardDynamicsAdjoint::unsupported(const Model& model) {
  if (model.hasConstraints()) return "the model has constraints (loops or prescribed motions)";
  for (int i = 1; i <= model.bodyCount(); ++i)
    if (!constantSubspace(model.joints[i].type))
      return "joint '" + model.joints[i].name + "' is " + std::string(jointTypeName(model.joints[i].type)) +
             " (only revolute, prismatic, cylindrical and fixed joints are differentiated analytically)";
  if (!model.pointSprings.empty()) return "spring_damper '" + model.pointSprings.front().name + "' acts between bodies";
  if (!model.tyres.empty()) return "the model has tyres";
  if (!model.bodyLoads.empty()) return "the model has loads on bodies";
  return "";
}

const Eigen::VectorXd& ForwardDynamicsAdjoint::accumulate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                          const Eigen::VectorXd& vdot, const Eigen::VectorXd& abar,
                                                          Eigen::Ref<Eigen::VectorXd> qbar,
                                                          Eigen::Ref<Eigen::VectorXd> vbar) {
  solveMass(q, abar);
  inverseDynamicsSweep(q, v, vdot, qbar, vbar);
  jointForceElements(q, v, qbar, vbar);
  return w_;
}

double ForwardDynamicsAdjoint::weightedResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                const Eigen::VectorXd& vdot) {
  evaluateForceElements(model_, ws_, t, q, v);  // joint-level only (unsupported() rules out the rest)
  inverseDynamics(model_, ws_, q, v, vdot, nullptr, residual_);
  return w_.dot(ws_.tau - residual_);
}

// w = M^-1 abar: the articulated-body passes with zero velocity (no bias forces) and no gravity.
void ForwardDynamicsAdjoint::solveMass(const Eigen::VectorXd& q, const Eigen::VectorXd& abar) {
  articulatedBodiesFirstPass(model_, ws_, q, zero_, nullptr);
  for (int i = model_.bodyCount(); i >= 1; --i) {
    const Joint& j = model_.joints[i];
    articulatedProjection(ws_.aba, i, j.parent, j, abar);
  }
  articulatedAccelerations(model_, ws_, Vec6::Zero(), w_);
}

// qbar -= dphi/dq and vbar -= dphi/dv for phi = w^T ID(q, v, vdot), in body coordinates (the
// header's formulas hold in any frame; each body's own is the cheapest).
void ForwardDynamicsAdjoint::inverseDynamicsSweep(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                  const Eigen::VectorXd& vdot, Eigen::Ref<Eigen::VectorXd> qbar,
                                                  Eigen::Ref<Eigen::VectorXd> vbar) {
  updateVelocities(model_, ws_, q, v);
  const int n = model_.bodyCount();
  const Motion a0(Vec3::Zero(), -model_.gravity);  // gravity as a base acceleration
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model_.joints[i];
    const Transform& X = ws_.Xup[i];
    const auto& S = ws_.joint[i].S;
    ws_.a[i] = X.apply(j.parent == 0 ? a0 : ws_.a[j.parent]) + ws_.c[i];
    W_[i] = j.parent == 0 ? Motion() : X.apply(W_[j.parent]);
    if (j.nv > 0) {
      ws_.a[i] += Motion::fromVector(S * vdot.segment(j.iv, j.nv));
      W_[i] += Motion::fromVector(S * w_.segment(j.iv, j.nv));
    }
    const SpatialInertia& I = model_.bodies[i].inertia;
    const Motion& V = ws_.v[i];
    const Force h = I * V;
    ws_.f[i] = I * ws_.a[i] + crossForce(V, h);
    P_[i] = I * W_[i];
    // d(W^T (V x* I V))/dV = I (W x V) - W x* I V, plus this body's share of the subtree's
    // V_j x* I_j W_j (the parent's part, -V_p x* Abar, is taken at the joint).
    G_[i] = I * crossMotion(W_[i], V) - crossForce(W_[i], h) + crossForce(V, P_[i]);
  }
  for (int i = n; i >= 1; --i) {
    const Joint& j = model_.joints[i];
    const Motion& V = ws_.v[i];
    const Force &F = ws_.f[i], &P = P_[i];
    if (j.nv > 0) {
      const auto& S = ws_.joint[i].S;
      // The parent's velocity, acceleration and virtual velocity in this body's coordinates.
      const Motion Vp = V - Motion::fromVector(S * v.segment(j.iv, j.nv));
      const Motion Ap = ws_.a[i] - ws_.c[i] - Motion::fromVector(S * vdot.segment(j.iv, j.nv));
      const Motion Wp = W_[i] - Motion::fromVector(S * w_.segment(j.iv, j.nv));
      const Force Vbar = G_[i] - crossForce(Vp, P);
      for (int e = 0; e < j.nv; ++e) {
        const Motion s = Motion::fromVector(S.col(e));
        qbar[j.iq + e] += dot(crossMotion(s, Vp), Vbar) + dot(crossMotion(s, Ap), P) + dot(crossMotion(s, Wp), F);
        vbar[j.iv + e] -= dot(s, Vbar) + dot(crossMotion(V, s), P);
      }
    }
    if (j.parent != 0) {
      const Transform& X = ws_.Xup[i];
      ws_.f[j.parent] += X.applyInverse(F);
      P_[j.parent] += X.applyInverse(P);
      G_[j.parent] += X.applyInverse(G_[i]);
    }
  }
}

// qbar += d(w^T tau_app)/dq, vbar likewise, for the elements acting on joint coordinates (their
// tau depends on their own coordinate and rate only; loads depend on neither).
void ForwardDynamicsAdjoint::jointForceElements(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar) const {
  for (const auto& s : model_.jointSprings) {
    const Joint& j = model_.joints[s.joint];
    const double w = w_[j.iv + s.dof];
    qbar[j.iq + s.dof] -= w * s.stiffness;
    vbar[j.iv + s.dof] -= w * s.damping;
  }
  for (const auto& l : model_.jointLimits) {
    const Joint& j = model_.joints[l.joint];
    const JointForce f = jointLimitForce(l, q[j.iq + l.dof], v[j.iv + l.dof]);
    qbar[j.iq + l.dof] += w_[j.iv + l.dof] * f.dq;
    vbar[j.iv + l.dof] += w_[j.iv + l.dof] * f.dqd;
  }
  for (const auto& f : model_.jointFrictions) {
    const int i = model_.joints[f.joint].iv + f.dof;
    vbar[i] += w_[i] * jointFrictionForce(f, v[i]).dqd;
  }
}

}  // namespace articula
