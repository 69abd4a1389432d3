#include "articula/dynamics/hdca_kernel.hpp"

#include <string>
#include <type_traits>

#include "articula/core/error.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/parallel/thread_team.hpp"

namespace articula {

namespace {
// Relative threshold of the numerical rank of J M^-1 J^T: far above round-off, far below the
// conditioning of a mechanism away from a singular position (the reference formulation's choice
// in double precision; in single precision about 1000 eps).
template <class Scalar>
constexpr double kImpulseRankThreshold = std::is_same_v<Scalar, float> ? 1e-4 : 1e-10;

// x itself in double precision, else x rounded into `buffer`.
template <class Scalar>
const Eigen::VectorXd& inDouble(const VectorXT<Scalar>& x, Eigen::VectorXd& buffer) {
  if constexpr (std::is_same_v<Scalar, double>) {
    return x;
  } else {
    buffer = x.template cast<double>();
    return buffer;
  }
}
}  // namespace

template <class Scalar, class Space>
HdcaKernel<Scalar, Space>::HdcaKernel(const Model& model, const HdcaOptions& options)
    : model_(model),
      ws_(model),
      handles_(model, options.pairing, options.threads, "hdca"),
      positions_(model, handles_.tree()),
      bodyForces_(forceElementsNeedKinematics(model)),
      impulses_(model),
      constraints_(model) {
  if constexpr (Space::D == 3) planarPoses_.emplace(model, handles_.tree());
  kinematics3D_ = Space::D == 6 || bodyForces_ || impulses_.size() > 0;
  const auto bodies = static_cast<std::size_t>(model.bodyCount()) + 1;
  const auto rows = static_cast<Eigen::Index>(impulses_.size());
  J_.setZero(rows, model.nv);
  G_.setZero(model.nv, rows);
  compliance_.setZero(rows, rows);
  cod_ = Eigen::CompleteOrthogonalDecomposition<MatX>(rows, rows);
  cod_.setThreshold(kImpulseRankThreshold<Scalar>);
  sigma_.setZero(rows);
  rhs_.setZero(rows);
  unitLoad_.setZero(model.nv);
  load_.setZero(model.nv);
  column_.setZero(model.nv);
  loopImpulse_.assign(bodies, V::Zero());
  impulseRate_.assign(bodies, Vec6::Zero());
  V_.assign(bodies, V::Zero());
  referenceBody_.assign(bodies, 0);
  for (int i = 1; i <= model.bodyCount(); ++i) {  // parents precede their children
    const int parent = model.joints[static_cast<std::size_t>(i)].parent;
    referenceBody_[static_cast<std::size_t>(i)] = parent == 0 ? i : referenceBody_[static_cast<std::size_t>(parent)];
  }
  subtreeForce_.assign(bodies, V::Zero());
  nodeForce_.assign(handles_.tree().nodes().size(), V::Zero());
  belowForce_.assign(handles_.tree().nodes().size(), V::Zero());
}

// The body poses (a sweep of their own, dynamics/tree_kinematics.hpp), then the velocity level
// (thesis 3.4.1): leaves with zero bias (eq. (4.49), the momenta entering as joint loads),
// assembly (3.42), base connection to the ground at rest (3.44), disassembly (3.39) giving the
// joint velocities (3.45), then each body's velocity from its leaf equation.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::velocitySweep(double t, const Eigen::VectorXd& q, const VecX& p, VecX& v) {
  // With loops or prescribed motion the body velocities come from closeLoops' last sweep.
  const bool constrained = impulses_.size() > 0;
  handles_.run([&] {
    if (kinematics3D_) positions_.update(ws_, q, handles_.schedule());
    if (planarPoses_) planarPoses_->update(ws_, q, handles_.schedule());
    parallel::ThreadTeam::synchronize();  // the leaves read the poses of other members' bodies
    handles_.solve(
        ws_, V::Zero(), p, v, [&](int i) { handles_.leaf(ws_, i); },
        [&](int i) {
          if (!constrained) bodyVelocity(i);
        });
  });
  handles_.throwIfSingular("hdca");
  if (constrained) closeLoops(t, p, v);
}

// Closed loops and prescribed motion: v = M^-1 (p + J^T sigma) with J v = nu (zero for loops,
// the prescribed rates for prescribed motion). The sweep above gave v0 = M^-1 p; each
// column of G = M^-1 J^T comes from a sweep at the same mobilities with the row's unit impulses
// as leaf loads (mat-vec products only), then (J G) sigma = nu - J v0, solved for the minimum-norm
// sigma (redundant rows, as a planar loop's out-of-plane ones, have J G singular; like the
// reference formulation's decomposition, kImpulseRankThreshold sets the numerical rank). A last sweep with
// the loads p and the impulses gives v, the joint momenta P* and the body velocities.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::closeLoops(double t, const VecX& p, VecX& v) {
  impulses_.update(ws_);
  constraints_.jacobian(ws_, t);
  const auto& rows = impulses_.rows();
  const int bodies = model_.bodyCount();
  for (int k = 0; k < impulses_.size(); ++k) {
    const auto& row = rows[static_cast<std::size_t>(k)];
    if (constraints_.J.row(k).isZero(0.0)) {  // e.g. a planar loop's out-of-plane rows: M^-1 J_k^T = 0
      G_.col(k).setZero();
      continue;
    }
    if (row.coordinate >= 0) unitLoad_[row.coordinate] = Scalar(1);  // a joint impulse
    handles_.run([&] {
      handles_.resolve(
          ws_, V::Zero(), unitLoad_, column_,
          [&](int i) {
            if (i == row.bodyA)
              handles_.setLeafForce(i, Space::template fromWorld<Scalar>(row.onA));
            else if (i == row.bodyB)
              handles_.setLeafForce(i, Space::template fromWorld<Scalar>(row.onB));
            else
              handles_.clearLeafForce(i);
          },
          [](int) {});
    });
    if (row.coordinate >= 0) unitLoad_[row.coordinate] = Scalar(0);
    G_.col(k) = column_;
  }
  J_ = constraints_.J.template cast<Scalar>();
  compliance_.noalias() = J_ * G_;
  rhs_ = constraints_.nu.template cast<Scalar>();
  rhs_.noalias() -= J_ * v;
  cod_.compute(compliance_);
  sigma_ = cod_.solve(rhs_);
  load_ = p;
  for (int i = 0; i <= bodies; ++i) loopImpulse_[static_cast<std::size_t>(i)].setZero();
  for (int k = 0; k < impulses_.size(); ++k) {
    const auto& row = rows[static_cast<std::size_t>(k)];
    if (row.coordinate >= 0) {
      load_[row.coordinate] += sigma_[k];
      continue;
    }
    loopImpulse_[static_cast<std::size_t>(row.bodyA)] += sigma_[k] * Space::template fromWorld<Scalar>(row.onA);
    loopImpulse_[static_cast<std::size_t>(row.bodyB)] += sigma_[k] * Space::template fromWorld<Scalar>(row.onB);
  }
  handles_.run([&] {
    handles_.resolve(
        ws_, V::Zero(), load_, v, [&](int i) { handles_.setLeafForce(i, loopImpulse_[static_cast<std::size_t>(i)]); },
        [&](int i) { bodyVelocity(i); });
  });
  handles_.throwIfSingular("hdca");
}

// V = Phi (f_1 + f_2) (eq. (3.30)); the force elements and the loop constraints read it in body
// axes.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::bodyVelocity(int i) {
  const auto idx = static_cast<std::size_t>(i);
  handles_.leafMotion(i, V_[idx]);
  if (!kinematics3D_ || !(bodyForces_ || impulses_.size() > 0)) return;
  const Mat3& E = ws_.X0[idx].E;  // world axes to body axes
  const Vec6 V = Space::template toWorld<Scalar>(V_[idx]);
  ws_.v[idx] = Motion(E * V.head<3>(), E * V.tail<3>());
}

// The applied force on one body, gravity included: world axes, about the origin of its reference
// body (referenceBody_). Without force elements that act on bodies (forceElementsNeedKinematics)
// fext is zero.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::leafForce(int i) {
  const auto idx = static_cast<std::size_t>(i);
  const auto r = referenceOffset(i);
  V& F = nodeForce_[idx - 1];
  Space::template weight<Scalar>(model_, ws_, i, r, F);
  if (bodyForces_ || impulses_.size() > 0) {
    const Mat3 R = ws_.X0[idx].E.transpose();
    Vec6 applied;
    applied << R * ws_.fext[idx].ang, R * ws_.fext[idx].lin;
    if (impulses_.size() > 0) applied -= impulseRate_[idx];  // (dJ/dt)^T sigma (constraint_impulses.hpp)
    F += Space::template forceAt<Scalar>(Space::template fromWorld<Scalar>(applied), r);
  }
}

// From the origin of body i's reference body to body i's origin, world axes.
template <class Scalar, class Space>
typename Space::template Offset<Scalar> HdcaKernel<Scalar, Space>::referenceOffset(int i) const {
  return Space::template origin<Scalar>(ws_, i) -
         Space::template origin<Scalar>(ws_, referenceBody_[static_cast<std::size_t>(i)]);
}

// The applied forces on C's bodies: A's plus B's (both about the same point).
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::accumulateForces(int node) {
  const AssemblyNode& n = handles_.tree().nodes()[static_cast<std::size_t>(node)];
  nodeForce_[static_cast<std::size_t>(node)] =
      nodeForce_[static_cast<std::size_t>(n.first)] + nodeForce_[static_cast<std::size_t>(n.second)];
}

// The descendant sums (thesis eq. (3.58)), from the root down: the bodies below joint j are B's
// and, when C's lower handle is B's (compress), those below C's bottom; the bodies below A's
// bottom are B's and those below C's bottom; below B's bottom lie those below C's bottom when
// it is B's, and none when B is a complete subtree (rake).
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::distributeForces(int node) {
  const AssemblyNode& n = handles_.tree().nodes()[static_cast<std::size_t>(node)];
  const V& FB = nodeForce_[static_cast<std::size_t>(n.second)];
  const V below = n.hasDownHandle ? belowForce_[static_cast<std::size_t>(node)] : V::Zero();
  subtreeForce_[static_cast<std::size_t>(n.joint)] = n.rake ? FB : V(FB + below);
  belowForce_[static_cast<std::size_t>(n.first)] = FB + below;
  belowForce_[static_cast<std::size_t>(n.second)] = n.rake ? V::Zero() : below;
}

// Thesis eq. (3.59) with vectors about the child's origin (see hdca.hpp), F_j shifted there:
// pdot_j = tau_j + S^T (F_j - V_j x* P_j) + (dS/dt|child)^T P_j.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::momentumRate(int j, const VecX& v, VecX& pdot, bool jointForces) const {
  const auto idx = static_cast<std::size_t>(j);
  const Joint& joint = model_.joints[idx];
  if (joint.nv == 0) return;
  const V& P = handles_.jointForces()[idx];
  const auto& S = handles_.motionSubspace(j);
  Scalar* rate = pdot.data() + joint.iv;
  for (int k = 0; k < joint.nv; ++k) rate[k] = jointForces ? static_cast<Scalar>(ws_.tau[joint.iv + k]) : Scalar(0);
  Space::template addTransportedLoad<Scalar>(S, subtreeForce_[idx], referenceOffset(j), V_[idx], P, rate);
  // Revolute and prismatic joints' S does not turn in their child's axes.
  if (joint.nv > 1) Space::template addSubspaceRate<Scalar>(joint.type, S, P, v.data() + joint.iv, rate);
}

// Forces: leaves, accumulation to the roots, distribution back to the leaves, then every joint's
// momentum rate.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::forceSweep(const VecX& v, VecX& pdot) {
  handles_.schedule().sweep(
      [&](int i) { leafForce(i); }, [&](int node) { accumulateForces(node); },
      [&] { forceAtRoots(); }, [&](int node) { distributeForces(node); }, [&](int j) { momentumRate(j, v, pdot); });
}

// The force sum of each root: the subtree force of its top body's joint.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::forceAtRoots() {
  const AssemblyTree& tree = handles_.tree();
  for (int root : tree.roots())
    subtreeForce_[static_cast<std::size_t>(tree.nodes()[static_cast<std::size_t>(root)].top)] =
        nodeForce_[static_cast<std::size_t>(root)];
}

// The velocity level and the force sweep as one sweep (TreeSchedule::sweeps): the forces on the
// bodies read only the poses, and a joint's momentum rate reads what the velocity level's way
// down wrote in its partition or in the crown (its joint forces, V_j and the rates).
template <class Scalar, class Space>
class HdcaKernel<Scalar, Space>::VelocityAndForceSweep {
 public:
  VelocityAndForceSweep(HdcaKernel& kernel, const VecX& p, VecX& v, VecX& pdot)
      : k_(kernel), solve_{kernel.handles_, kernel.ws_, groundAtRest_, p, v}, pdot_(pdot) {}
  void leafUp(int i) const {
    k_.handles_.leaf(k_.ws_, i);
    k_.leafForce(i);
  }
  void up(int node) const {
    solve_.up(node);
    k_.accumulateForces(node);
  }
  void atRoots() const {
    solve_.atRoots();
    k_.forceAtRoots();
  }
  void down(int node) const {
    solve_.down(node);
    k_.distributeForces(node);
  }
  void leafDown(int i) const {
    k_.bodyVelocity(i);
    k_.momentumRate(i, solve_.rates, pdot_, false);
  }

 private:
  HdcaKernel& k_;
  const V groundAtRest_ = V::Zero();
  typename BasicHandleAssembly<Scalar, Space>::SolveSteps solve_;
  VecX& pdot_;
};

// Open trees whose force elements act on joints only (no loops, no prescribed motion, no body
// forces): the poses and VelocityAndForceSweep in one run, four barriers where velocitySweep and
// forceSweep take seven and two runs; the joint forces, which read the rates, are added after.
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::chainedDerivatives(double t, const Eigen::VectorXd& q, const VecX& p, VecX& v,
                                                   VecX& pdot) {
  handles_.run([&] {
    const TreeSchedule& schedule = handles_.schedule();
    if constexpr (Space::D == 3)
      schedule.sweeps(planarPoses_->sweep(ws_, q), VelocityAndForceSweep(*this, p, v, pdot));
    else
      schedule.sweeps(positions_.sweep(ws_, q), VelocityAndForceSweep(*this, p, v, pdot));
  });
  handles_.throwIfSingular("hdca");
  evaluateForceElements(model_, ws_, t, q, inDouble<Scalar>(v, vd_));
  pdot += ws_.tau.template cast<Scalar>();
}

template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::derivatives(double t, const VecX& q, const VecX& p, VecX& v,
                       VecX& pdot) {
  const Eigen::VectorXd& qd = inDouble<Scalar>(q, qd_);
  if (!bodyForces_ && impulses_.size() == 0) {
    chainedDerivatives(t, qd, p, v, pdot);
    return;
  }
  velocitySweep(t, qd, p, v);
  evaluateForceElements(model_, ws_, t, qd, inDouble<Scalar>(v, vd_));
  if (impulses_.size() > 0) {
    for (Vec6& rate : impulseRate_) rate.setZero();
    impulses_.addRates(ws_, inDouble<Scalar>(sigma_, sigmad_), impulseRate_);
  }
  handles_.run([&] { forceSweep(v, pdot); });
}

template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::velocities(double t, const VecX& q, const VecX& p, VecX& v) {
  velocitySweep(t, inDouble<Scalar>(q, qd_), p, v);
}

// p_j = S_j^T P_j with P_j summed from the leaves to the root in body axes (the momentum form of
// the thesis's initial projection of eq. (3.29), text after eq. (3.59)).
template <class Scalar, class Space>
void HdcaKernel<Scalar, Space>::momenta(const VecX& q, const VecX& v, VecX& p) {
  updateVelocities(model_, ws_, inDouble<Scalar>(q, qd_), inDouble<Scalar>(v, vd_));
  const int bodies = model_.bodyCount();
  for (int i = 1; i <= bodies; ++i)
    ws_.f[static_cast<std::size_t>(i)] =
        model_.bodies[static_cast<std::size_t>(i)].inertia * ws_.v[static_cast<std::size_t>(i)];
  for (int i = bodies; i >= 1; --i) {
    const auto idx = static_cast<std::size_t>(i);
    const Joint& joint = model_.joints[idx];
    p.segment(joint.iv, joint.nv) = (ws_.joint[idx].S.transpose() * ws_.f[idx].vector()).template cast<Scalar>();
    if (joint.parent > 0) ws_.f[static_cast<std::size_t>(joint.parent)] += ws_.Xup[idx].applyInverse(ws_.f[idx]);
  }
}

template class HdcaKernel<double, SpatialSpace>;
template class HdcaKernel<float, SpatialSpace>;
template class HdcaKernel<double, PlanarSpace>;
template class HdcaKernel<float, PlanarSpace>;

}  // namespace articula
