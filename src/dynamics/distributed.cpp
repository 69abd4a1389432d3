#include "articula/dynamics/distributed.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <exception>

#include "aba_passes.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/subsystems.hpp"

namespace articula {

namespace {

std::vector<std::vector<int>> choosePartition(const Model& model, const FormulationOptions& options) {
  if (options.subsystems < 0) throw Error("distributed formulation: the subsystem count must be at least 1");
  if (options.subsystems > 0) return balancedSubsystems(model, options.subsystems);
  if (!model.subsystems.empty()) return model.subsystems;
  return balancedSubsystems(model, 1);  // one subsystem per tree on the ground
}

const Model& checkedModel(const Model& model) {
  if (!model.prescribed.empty())
    throw Error("formulation 'distributed' does not handle prescribed motion (prescribed motion '" +
                model.prescribed.front().name + "'); use --formulation reference or semi-recursive");
  return model;
}

using SubspaceRows = Eigen::Matrix<double, Eigen::Dynamic, 6, 0, 6, 6>;

// Rows spanning the constraint directions of a joint with motion subspace S (6 x nv): an
// orthonormal basis of the complement of S's columns, from a Householder QR of S.
void complementRows(const SubspaceForce& S, SubspaceRows& rows) {
  const Eigen::Index nv = S.cols();
  if (nv == 0) {
    rows = Mat6::Identity();
    return;
  }
  Eigen::HouseholderQR<SubspaceForce> qr(S);
  Mat6 Q = qr.householderQ();
  rows = Q.rightCols(6 - nv).transpose();
}

}  // namespace

DistributedFormulation::DistributedFormulation(const Model& model, const FormulationOptions& options)
    : model_(checkedModel(model)),
      threads_(options.threads),
      hierarchy_(buildSubsystemHierarchy(model, choosePartition(model, options))),
      traffic_(hierarchyTraffic(hierarchy_)),
      ws_(model),
      genericKinematics_(!model.loops.empty() || forceElementsNeedKinematics(model)),
      constraints_(model),
      impulses_(model),
      projection_(model) {
  if (threads_ < 1) throw Error("distributed formulation: threads must be at least 1");
  const int count = static_cast<int>(hierarchy_.subsystems.size());
  // Reserved: a condensation holds an Eigen::LLT, whose copy before its first factorisation
  // reads an uninitialised status (UBSan: invalid enum load), so the leaves are never moved.
  leaves_.reserve(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s)
    leaves_.emplace_back(model, hierarchy_.subsystems[static_cast<std::size_t>(s)],
                         hierarchy_.subsystemHandles[static_cast<std::size_t>(s)]);
  // Interface ids: the subsystems' own first, then one per combining node.
  std::vector<std::vector<int>> handlesOf(hierarchy_.subsystemHandles);
  const std::size_t nodes = hierarchy_.nodes.size();
  outputId_.assign(nodes, -1);
  inputIds_.assign(nodes, {});
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto& node = hierarchy_.nodes[n];
    if (node.level == 0)
      inputIds_[n] = {node.subsystem};
    else
      for (int c : node.children) inputIds_[n].push_back(outputId_[static_cast<std::size_t>(c)]);
    if (node.combines) {
      outputId_[n] = static_cast<int>(handlesOf.size());
      handlesOf.push_back(node.handles);
    } else {
      outputId_[n] = inputIds_[n].front();
    }
  }
  interfaces_.resize(handlesOf.size());
  forces_.resize(handlesOf.size());
  for (std::size_t id = 0; id < handlesOf.size(); ++id) {
    SubsystemInterface& f = interfaces_[id];
    f.handles = handlesOf[id];
    f.D = Eigen::MatrixXd::Zero(6 * f.size(), 6 * f.size());
    f.R = Eigen::VectorXd::Zero(6 * f.size());
    forces_[id] = Eigen::VectorXd::Zero(6 * f.size());
  }
  combinations_.resize(nodes);
  inputs_.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto& node = hierarchy_.nodes[n];
    std::vector<std::vector<int>> childHandles;
    for (int id : inputIds_[n]) {
      childHandles.push_back(interfaces_[static_cast<std::size_t>(id)].handles);
      inputs_[n].push_back(&interfaces_[static_cast<std::size_t>(id)]);
    }
    if (node.combines)
      combinations_[n] = std::make_unique<InterfaceCombination>(childHandles, node.links, hierarchy_.links, node.handles);
  }
}

DistributedFormulation::~DistributedFormulation() = default;

long DistributedFormulation::exchangedBytesPerEvaluation() const {
  long bytes = 0;
  for (const LevelTraffic& t : traffic_) bytes += t.bytesUp + t.bytesDown;
  return bytes;
}

const SubsystemInterface& DistributedFormulation::nodeInterface(int node) const {
  return interfaces_[static_cast<std::size_t>(outputId_[static_cast<std::size_t>(node)])];
}

int DistributedFormulation::rootRank() const { return combinations_.back()->rank(); }

template <class Body>
void DistributedFormulation::forEachSubsystem(const Body& body) {
  const int count = static_cast<int>(leaves_.size());
  if (threads_ == 1 || count == 1) {
    for (int s = 0; s < count; ++s) body(s);
    return;
  }
  // Subsystems write disjoint bodies of the workspace; an exception is carried out of the region.
  std::exception_ptr failure;
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int s = 0; s < count; ++s) {
    try {
      body(s);
    } catch (...) {
#pragma omp critical(articula_distributed_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

void DistributedFormulation::updateLinkRows(double t) {
  const auto& w = ws_.aba;
  const Vec6 groundAcceleration = (Vec6() << Vec3::Zero(), -model_.gravity).finished();
  if (!model_.loops.empty()) {
    constraints_.accelerationBias(ws_, t);  // gamma; leaves ws_.a at vdot = 0
    impulses_.update(ws_);
  }
  for (InterfaceLink& l : hierarchy_.links) {
    if (l.joint >= 0) {
      // Joint rows T^T (a_B - a_A - c_B) = 0 with T spanning the complement of S (world origin).
      const Joint& j = model_.joints[static_cast<std::size_t>(l.joint)];
      SubspaceForce S(6, j.nv);
      if (j.nv == 1)
        S.col(0) = w.s1[static_cast<std::size_t>(l.joint)];
      else
        S = w.S[static_cast<std::size_t>(l.joint)];
      complementRows(S, l.GB);
      l.GA = -l.GB;
      l.u.noalias() = l.GB * w.c[static_cast<std::size_t>(l.joint)];
      if (l.bodyA == 0) l.u.noalias() += l.GB * groundAcceleration;  // the ground's known motion
      continue;
    }
    // Loop rows: the impulses of ConstraintImpulses moved to the world origin, and
    // u = gamma + sum onX . a0_X with a0 the accelerations at vdot = 0 (J vdot = gamma).
    for (int e = 0; e < l.rows; ++e) {
      const ConstraintImpulses::Row& row = impulses_.rows()[static_cast<std::size_t>(l.firstRow + e)];
      double u = constraints_.gamma[l.firstRow + e];
      auto end = [&](int body, const Vec6& on, auto&& G) {
        if (body == 0) return;
        Vec6 o = on;
        o.head<3>() += ws_.X0[static_cast<std::size_t>(body)].r.cross(Vec3(on.tail<3>()));
        G.row(e) = o.transpose();
        const Motion a0 = ws_.X0[static_cast<std::size_t>(body)].applyInverse(ws_.a[static_cast<std::size_t>(body)]);
        u += o.dot(a0.vector());
      };
      end(l.bodyA, row.onA, l.GA);
      end(l.bodyB, row.onB, l.GB);
      if (l.bodyA == 0) u -= row.onB.tail<3>().dot(model_.gravity);  // the ground's row times -g
      if (l.bodyB == 0) u -= row.onA.tail<3>().dot(model_.gravity);
      l.u[e] = u;
    }
  }
}

void DistributedFormulation::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           Eigen::VectorXd& vdot) {
  auto& w = ws_.aba;
  if (genericKinematics_) updateVelocities(model_, ws_, q, v);
  evaluateForceElements(model_, ws_, t, q, v);
  articulatedBodiesFirstPass(model_, ws_, q, v, &ws_.fext);
  // The links' joint actuation as body forces f with S^T f = tau (the constraint part is lambda).
  for (const InterfaceLink& l : hierarchy_.links) {
    if (l.joint < 0) continue;
    const Joint& j = model_.joints[static_cast<std::size_t>(l.joint)];
    if (j.nv == 0) continue;
    Vec6 f;
    if (j.nv == 1) {
      const Vec6& s = w.s1[static_cast<std::size_t>(l.joint)];
      f = s * (ws_.tau[j.iv] / s.squaredNorm());
    } else {
      const auto& S = w.S[static_cast<std::size_t>(l.joint)];
      const SmallMatrix StS = S.transpose() * S;
      f.noalias() = S * StS.llt().solve(ws_.tau.segment(j.iv, j.nv));
    }
    w.pA[static_cast<std::size_t>(l.bodyB)] -= f;
    if (l.bodyA != 0) w.pA[static_cast<std::size_t>(l.bodyA)] += f;
  }
  // Step 1, eq. (1)-(3): every subsystem's interface.
  forEachSubsystem([&](int s) { leaves_[static_cast<std::size_t>(s)].condense(ws_, ws_.tau, interfaces_[static_cast<std::size_t>(s)]); });
  updateLinkRows(t);
  // Step 2-3, eq. (4)-(7): up the hierarchy, the root with the ground.
  for (std::size_t n = 0; n < combinations_.size(); ++n)
    if (combinations_[n] &&
        !combinations_[n]->up(inputs_[n], hierarchy_.links, interfaces_[static_cast<std::size_t>(outputId_[n])]))
      throw Error("distributed formulation: the link equations are not finite (the state or the loads are not finite)");
  // Back down: the link forces on every interface's handles.
  for (std::size_t n = combinations_.size(); n-- > 0;) {
    if (!combinations_[n]) continue;
    combinations_[n]->down(forces_[static_cast<std::size_t>(outputId_[n])]);
    for (std::size_t c = 0; c < inputIds_[n].size(); ++c)
      forces_[static_cast<std::size_t>(inputIds_[n][c])] = combinations_[n]->childForces(static_cast<int>(c));
  }
  w.a[0] << Vec3::Zero(), -model_.gravity;
  forEachSubsystem([&](int s) { leaves_[static_cast<std::size_t>(s)].expand(ws_, forces_[static_cast<std::size_t>(s)], vdot); });
  // Eq. (8): a link joint's rates from the relative acceleration of its bodies.
  for (const InterfaceLink& l : hierarchy_.links) {
    if (l.joint < 0) continue;
    const Joint& j = model_.joints[static_cast<std::size_t>(l.joint)];
    if (j.nv == 0) continue;
    const Vec6 rel = w.a[static_cast<std::size_t>(l.bodyB)] - w.a[static_cast<std::size_t>(l.bodyA)] - w.c[static_cast<std::size_t>(l.joint)];
    if (j.nv == 1) {
      const Vec6& s = w.s1[static_cast<std::size_t>(l.joint)];
      vdot[j.iv] = s.dot(rel) / s.squaredNorm();
    } else {
      const auto& S = w.S[static_cast<std::size_t>(l.joint)];
      const SmallMatrix StS = S.transpose() * S;
      vdot.segment(j.iv, j.nv) = StS.llt().solve(S.transpose() * rel);
    }
  }
}

bool DistributedFormulation::correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  projection_.project(t, q, v, tol);  // Step 7
  return true;
}

}  // namespace articula
