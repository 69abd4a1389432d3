#include "articula/dynamics/forward_dynamics_adjoint.hpp"

#include "aba_passes.hpp"
#include "constraint_adjoint.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// Joints whose coordinates are their velocities and whose columns are screws fixed in the body
// after them (a universal joint's second axis in the body between its two rotations): raising
// one coordinate moves the subtree after that column by the column's screw.
bool screwChainJoint(JointType type) {
  return type == JointType::Revolute || type == JointType::Prismatic || type == JointType::Cylindrical ||
         type == JointType::Universal || type == JointType::Planar || type == JointType::Fixed;
}

}  // namespace

ForwardDynamicsAdjoint::ForwardDynamicsAdjoint(const Model& model, const FormulationOptions& options, MassSolve massSolve)
    : model_(model),
      ws_(model),
      zero_(Eigen::VectorXd::Zero(model.nv)),
      w_(model.nv),
      v_(model.nv),
      residual_(model.nv),
      inertia_(model.joints.size()),
      c_(model.joints.size()),
      A_(model.joints.size()),
      W_(model.joints.size()),
      F_(model.joints.size()),
      P_(model.joints.size()),
      G_(model.joints.size()),
      fext_(model.joints.size()),
      turn_(model.joints.size()),
      constraints_(model.hasConstraints() ? std::make_unique<ConstraintAdjoint>(model, options) : nullptr) {
  if (massSolve == MassSolve::DivideAndConquer) {
    if (model.hasConstraints()) throw Error("the divide-and-conquer adjoint (HADCA) takes open trees only");
    handles_ = std::make_unique<HandleAssembly>(model, balancedPairing, options.threads, "hadca");
  }
}

ForwardDynamicsAdjoint::~ForwardDynamicsAdjoint() = default;

std::string ForwardDynamicsAdjoint::unsupported(const Model& model) {
  for (int i = 1; i <= model.bodyCount(); ++i)
    if (!screwChainJoint(model.joints[i].type))
      return "joint '" + model.joints[i].name + "' is " + std::string(jointTypeName(model.joints[i].type)) +
           " (only revolute, prismatic, cylindrical, universal, planar and fixed joints are differentiated "
           "analytically)";
  if (!model.tyres.empty()) return "the model has tyres";
  return "";
}

const Eigen::VectorXd& ForwardDynamicsAdjoint::accumulate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                          const Eigen::VectorXd& vdot, const Eigen::VectorXd& abar,
                                                          Eigen::Ref<Eigen::VectorXd> qbar,
                                                          Eigen::Ref<Eigen::VectorXd> vbar) {
  v_ = v;
  solveMass(q, v, abar);
  if (constraints_) constraints_->project(t, q, v, vdot, w_);
  bodyLoads(t);
  inverseDynamicsSweep(t, v, vdot, qbar, vbar);
  jointForceElements(q, v, qbar, vbar);
  pointSprings(qbar, vbar);
  if (constraints_) constraints_->accumulate(t, q, v, qbar, vbar);
  return w_;
}

double ForwardDynamicsAdjoint::weightedResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                const Eigen::VectorXd& vdot) {
  residualForces(model_, ws_, t, q, v, vdot, residual_);
  return -w_.dot(residual_);
}

// The ABA's first pass at (q, v) gives the world poses, motion subspaces, velocities,
// velocity-product terms and rigid-body inertias that the sweep needs; the sweep keeps them
// (pass 2 turns the inertias into articulated ones) and then w = M^-1 abar comes from passes 2
// and 3 without the velocity terms and without gravity.
void ForwardDynamicsAdjoint::solveMass(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& abar) {
  auto& a = ws_.aba;
  articulatedBodiesFirstPass(model_, ws_, q, v, nullptr);
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Mat6& I = a.IA[i];  // [Ibar h x; (h x)^T m 1], aba.cpp's storeInertia
    inertia_[i] = SpatialInertia(I(3, 3), Vec3(I(2, 4), I(0, 5), I(1, 3)), I.topLeftCorner<3, 3>());
    c_[i] = Motion::fromVector(a.c[i]);
    a.c[i].setZero();
    a.pA[i].setZero();
  }
  if (handles_) {
    divideAndConquerSolve(q, abar);
    return;
  }
  for (int i = model_.bodyCount(); i >= 1; --i) {
    const Joint& j = model_.joints[i];
    articulatedProjection(a, i, j.parent, j, abar);
  }
  articulatedAccelerations(model_, ws_, Vec6::Zero(), w_);
}

// HADCA's solve (seed 002 eq. (4.41)-(4.54) with the joint-space load abar): the handle equations
// of the bodies at rest (no velocity products, no gravity, no applied forces: the leaf biases and
// joint biases stay zero) loaded by abar at the joints, assembled up the tree, connected to the
// ground and disassembled down it; the joint rates it returns are w = M^-1 abar.
void ForwardDynamicsAdjoint::divideAndConquerSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& abar) {
  updatePositions(model_, ws_, q);
  handles_->run([&] {
    handles_->solve(ws_, Vec6::Zero(), abar, w_, [&](int i) {
      handles_->leaf(ws_, i);
      handles_->clearLeafForce(i);
    }, [](int) {});
  });
  handles_->throwIfSingular("hadca");
}

// The loads on bodies at time t as spatial forces in world axes about the world origin (the ID
// subtracts them), at the poses of the first pass.
void ForwardDynamicsAdjoint::bodyLoads(double t) {
  for (int i = 1; i <= model_.bodyCount(); ++i) fext_[i] = Force();
  for (const BodyLoad& l : model_.bodyLoads) {
    const Vec3 d = loadDirection(l) * l.magnitude.value(t);
    fext_[l.body] += l.torque ? Force(d, Vec3::Zero()) : Force(pointPosition(l.body, l.point).cross(d), d);
  }
}

Vec3 ForwardDynamicsAdjoint::loadDirection(const BodyLoad& l) const {
  return l.worldFrame ? l.direction : Vec3(ws_.aba.X0[l.body].E.transpose() * l.direction);
}

double ForwardDynamicsAdjoint::loadWeight(const BodyLoad& l) const { return loadDirection(l).dot(virtualLoadRate(l)); }

Vec3 ForwardDynamicsAdjoint::virtualLoadRate(const BodyLoad& l) const {
  return l.torque ? W_[l.body].ang : W_[l.body].velocityAt(pointPosition(l.body, l.point));
}

Motion ForwardDynamicsAdjoint::jointAxis(int body, int e) const {
  const auto& a = ws_.aba;
  return Motion::fromVector(model_.joints[body].nv == 1 ? a.s1[body] : Vec6(a.S[body].col(e)));
}

// qbar -= dphi/dq and vbar -= dphi/dv for phi = w^T ID(q, v, vdot), in world axes about the
// world origin, where a child's quantities add to its parent's as they stand.
void ForwardDynamicsAdjoint::inverseDynamicsSweep(double t, const Eigen::VectorXd& v, const Eigen::VectorXd& vdot,
                                                  Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar) {
  const auto& a = ws_.aba;
  const int n = model_.bodyCount();
  const Motion gravity(Vec3::Zero(), -model_.gravity);  // as a base acceleration
  // S x for joint i's motion subspace in world axes (s1 for one degree of freedom).
  const auto subspaceTimes = [&](int i, const Joint& j, const Eigen::VectorXd& x) {
    return Motion::fromVector(j.nv == 1 ? Vec6(a.s1[i] * x[j.iv]) : Vec6(a.S[i] * x.segment(j.iv, j.nv)));
  };
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model_.joints[i];
    const SpatialInertia& I = inertia_[i];
    A_[i] = (j.parent == 0 ? gravity : A_[j.parent]) + c_[i];
    W_[i] = j.parent == 0 ? Motion() : W_[j.parent];
    if (j.nv > 0) {
      A_[i] += subspaceTimes(i, j, vdot);
      W_[i] += subspaceTimes(i, j, w_);
    }
    const Motion V = Motion::fromVector(a.v[i]);
    const Force h = I * V;
    F_[i] = I * A_[i] + crossForce(V, h) - fext_[i];
    P_[i] = I * W_[i];
    turn_[i].setZero();
    // d(W^T (V x* I V))/dV = I (W x V) - W x* I V, plus this body's share of the subtree's
    // V_j x* I_j W_j (the parent's part, -V_p x* Abar, is taken at the joint).
    G_[i] = I * crossMotion(W_[i], V) - crossForce(W_[i], h) + crossForce(V, P_[i]);
  }
  // The sweep's rule moves every load of a turned subtree with it; a load fixed in world axes does
  // not turn, which adds omega_k . sum (F x the point's velocity under W) (a torque tau: tau x
  // W_ang) over the subtree to dphi/dq_k (omega_k: the angular part of the joint's axis).
  for (const BodyLoad& l : model_.bodyLoads)
    if (l.worldFrame) turn_[l.body] += (l.direction * l.magnitude.value(t)).cross(virtualLoadRate(l));
  for (int i = n; i >= 1; --i) {
    const Joint& j = model_.joints[i];
    const int p = j.parent;
    const Force &F = F_[i], &P = P_[i];
    // A joint of several coordinates is a chain of one-coordinate joints through massless
    // bodies, in the order of its columns (a universal joint's second axis turns with the first):
    // column e sees, as its parent's, the velocity, acceleration and virtual velocity after the
    // columns before it (V_u, A_u, W_u), and the body's subtree sums, which the massless bodies
    // leave as they are.
    Motion Vu = p == 0 ? Motion() : Motion::fromVector(a.v[p]);
    Motion Au = p == 0 ? gravity : A_[p];
    Motion Wu = p == 0 ? Motion() : W_[p];
    for (int e = 0; e < j.nv; ++e) {
      const Motion s = jointAxis(i, e);
      const Force Vbar = G_[i] - crossForce(Vu, P);
      qbar[j.iq + e] +=
          dot(crossMotion(s, Vu), Vbar) + dot(crossMotion(s, Au), P) + dot(crossMotion(s, Wu), F) - s.ang.dot(turn_[i]);
      const Motion sv = s * v[j.iv + e];
      Vu = Vu + sv;
      vbar[j.iv + e] -= dot(s, Vbar) + dot(crossMotion(Vu, s), P);
      Au = Au + s * vdot[j.iv + e] + crossMotion(Vu, sv);
      Wu = Wu + s * w_[j.iv + e];
    }
    if (p != 0) {
      F_[p] += F;
      P_[p] += P;
      G_[p] += G_[i];
      turn_[p] += turn_[i];
    }
  }
}

Vec3 ForwardDynamicsAdjoint::pointPosition(int body, const Vec3& p) const {
  return ws_.aba.X0[body].inverseTransformPoint(p);
}

void ForwardDynamicsAdjoint::addPointForce(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar) const {
  const Vec3 r = pointPosition(body, p);
  const Force F(r.cross(f), f);  // f at r as a spatial force about the world origin
  for (int k = body; k != 0; k = model_.joints[k].parent) {
    const Joint& j = model_.joints[k];
    for (int e = 0; e < j.nv; ++e) qbar[j.iq + e] += dot(jointAxis(k, e), F);
  }
}

Vec3 ForwardDynamicsAdjoint::pointVelocity(int body, const Vec3& p) const {
  return bodyVelocity(body, false).velocityAt(pointPosition(body, p));
}

void ForwardDynamicsAdjoint::addPointVelocityGradient(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar,
                                                      Eigen::Ref<Eigen::VectorXd> vbar) const {
  addRateGradient(body, pointPosition(body, p), f, false, 1.0, qbar);
  addPointForce(body, p, f, vbar);
}

Mat3 ForwardDynamicsAdjoint::bodyRotation(int body) const { return ws_.aba.X0[body].E.transpose(); }

Vec3 ForwardDynamicsAdjoint::angularVelocity(int body) const { return bodyVelocity(body, false).ang; }

// omega_b = sum of s_k.ang v_k over the columns on the body's path; turning column k turns the
// columns after it, so d omega_b / dq_k = s_k.ang x (omega_b - omega before column k).
void ForwardDynamicsAdjoint::addAngularVelocityGradient(int body, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar,
                                                        Eigen::Ref<Eigen::VectorXd> vbar) const {
  const Vec3 omega = angularVelocity(body);
  for (int k = body; k != 0; k = model_.joints[k].parent) {
    const Joint& j = model_.joints[k];
    Vec3 before = bodyVelocity(j.parent, false).ang;  // after the joint's earlier columns
    for (int e = 0; e < j.nv; ++e) {
      const Vec3 s = jointAxis(k, e).ang;
      qbar[j.iq + e] += g.dot(s.cross(omega - before));
      vbar[j.iv + e] += g.dot(s);
      before += s * v_[j.iv + e];
    }
  }
}

// d(R a)/dq_k = s_k.ang x (R a) for every column on the path: g . (s x Ra) = s . (Ra x g).
void ForwardDynamicsAdjoint::addBodyVectorGradient(int body, const Vec3& a, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar) const {
  const Vec3 turn = (bodyRotation(body) * a).cross(g);
  for (int k = body; k != 0; k = model_.joints[k].parent) {
    const Joint& j = model_.joints[k];
    for (int e = 0; e < j.nv; ++e) qbar[j.iq + e] += jointAxis(k, e).ang.dot(turn);
  }
}

// Body velocity under the actual joint rates (virtualRates false) or under the rates w.
Motion ForwardDynamicsAdjoint::bodyVelocity(int body, bool virtualRates) const {
  if (body == 0) return Motion();
  return virtualRates ? W_[body] : Motion::fromVector(ws_.aba.v[body]);
}

// qbar += scale d/dq [u . (velocity of the point r of `body`)] with u fixed in world axes: turning
// the subtree of a joint k on the body's path moves the point and the body's velocity relative to
// k's parent (the term -(s_k x Y_p) . F_u, as in the sweep) while u stays (omega_k . (pdot x u)).
void ForwardDynamicsAdjoint::addRateGradient(int body, const Vec3& r, const Vec3& u, bool virtualRates, double scale,
                                             Eigen::Ref<Eigen::VectorXd> qbar) const {
  const Force Fu(r.cross(u), u);
  const Vec3 turn = bodyVelocity(body, virtualRates).velocityAt(r).cross(u);
  for (int k = body; k != 0; k = model_.joints[k].parent) {
    const Joint& j = model_.joints[k];
    const Eigen::VectorXd& rates = virtualRates ? w_ : v_;
    Motion Yu = bodyVelocity(j.parent, virtualRates);  // after the joint's earlier columns (the sweep's chain)
    for (int e = 0; e < j.nv; ++e) {
      const Motion s = jointAxis(k, e);
      qbar[j.iq + e] += scale * (s.ang.dot(turn) - dot(crossMotion(s, Yu), Fu));
      Yu = Yu + s * rates[j.iv + e];
    }
  }
}

// Point springs: psi = W_A . f_A + W_B . f_B = -T(L, Ldot) Ldot_w, with Ldot_w the rate of the
// spring's length under the rates w; its gradient in q and v (the sweep left the springs out).
void ForwardDynamicsAdjoint::pointSprings(Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar) const {
  for (const PointSpringDamper& spring : model_.pointSprings) {
    const Vec3 rA = pointPosition(spring.bodyA, spring.pointA), rB = pointPosition(spring.bodyB, spring.pointB);
    const Vec3 d = rB - rA;
    const double L = d.norm();
    if (L < 1e-12) continue;  // no direction: the force is zero (or the run has already stopped)
    const Vec3 u = d / L;
    const auto relative = [&](bool virtualRates) {
      return Vec3(bodyVelocity(spring.bodyB, virtualRates).velocityAt(rB) -
                  bodyVelocity(spring.bodyA, virtualRates).velocityAt(rA));
    };
    const Vec3 dv = relative(false), dw = relative(true);
    const double Ld = u.dot(dv), Lw = u.dot(dw);
    const JointForce T = pointSpringTension(spring, L, Ld);
    const double cv = -T.dqd * Lw, cw = -T.tau;  // weights of grad Ldot and of grad Ldot_w
    // The parts through the points' positions: L itself and the direction u in Ldot and Ldot_w.
    const Vec3 atB = (-T.dq * Lw) * u + (cv / L) * (dv - u.dot(dv) * u) + (cw / L) * (dw - u.dot(dw) * u);
    addPointForce(spring.bodyB, spring.pointB, atB, qbar);
    addPointForce(spring.bodyA, spring.pointA, -atB, qbar);
    // The parts through the points' velocities at fixed u.
    addRateGradient(spring.bodyB, rB, u, false, cv, qbar);
    addRateGradient(spring.bodyA, rA, u, false, -cv, qbar);
    addRateGradient(spring.bodyB, rB, u, true, cw, qbar);
    addRateGradient(spring.bodyA, rA, u, true, -cw, qbar);
    // v enters through Ldot alone: d Ldot / dv = J_B^T u - J_A^T u.
    addPointForce(spring.bodyB, spring.pointB, cv * u, vbar);
    addPointForce(spring.bodyA, spring.pointA, -cv * u, vbar);
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
