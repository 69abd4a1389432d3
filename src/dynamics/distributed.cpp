#include "articula/dynamics/distributed.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <exception>
#include <span>

#include "aba_passes.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/subsystems.hpp"
#include "articula/parallel/communicator.hpp"

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

// CPU seconds of this process (all its threads): the machines these runs are measured on are
// shared, and wall time would count the other users' slices.
double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The doubles of a vector or a segment of one, as the communicator takes them.
template <class V>
std::span<double> doubles(V&& x) {
  return {x.data(), static_cast<std::size_t>(x.size())};
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
      world_(options.communicator),
      rank_(world_ ? world_->rank() : 0),
      hierarchy_(buildSubsystemHierarchy(model, choosePartition(model, options))),
      plan_(makeRankPlan(model, hierarchy_, world_ ? world_->size() : 1)),
      traffic_(hierarchyTraffic(hierarchy_)),
      ws_(model),
      genericKinematics_(!model.loops.empty() || forceElementsNeedKinematics(model)),
      constraints_(model),
      impulses_(model),
      projection_(model) {
  if (threads_ < 1) throw Error("distributed formulation: threads must be at least 1");
  const int count = static_cast<int>(hierarchy_.subsystems.size());
  for (int s = 0; s < count; ++s)
    if (plan_.subsystemRank[static_cast<std::size_t>(s)] == rank_) local_.push_back(s);
  // Reserved: a condensation holds an Eigen::LLT, whose copy before its first factorisation
  // reads an uninitialised status (UBSan: invalid enum load), so the leaves are never moved.
  leaves_.reserve(local_.size());
  for (int s : local_)
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
  Eigen::Index largest = 0;
  for (std::size_t id = 0; id < handlesOf.size(); ++id) {
    SubsystemInterface& f = interfaces_[id];
    f.handles = handlesOf[id];
    f.D = Eigen::MatrixXd::Zero(6 * f.size(), 6 * f.size());
    f.R = Eigen::VectorXd::Zero(6 * f.size());
    forces_[id] = Eigen::VectorXd::Zero(6 * f.size());
    largest = std::max(largest, f.D.size() + f.R.size());
  }
  message_.resize(plan_.ranks > 1 ? largest : 0);
  combinations_.resize(nodes);
  inputs_.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto& node = hierarchy_.nodes[n];
    std::vector<std::vector<int>> childHandles;
    for (int id : inputIds_[n]) {
      childHandles.push_back(interfaces_[static_cast<std::size_t>(id)].handles);
      inputs_[n].push_back(&interfaces_[static_cast<std::size_t>(id)]);
    }
    if (node.combines && plan_.nodeRank[n] == rank_) {
      combinations_[n] = std::make_unique<InterfaceCombination>(childHandles, node.links, hierarchy_.links, node.handles);
      ownLinks_.insert(ownLinks_.end(), node.links.begin(), node.links.end());
    }
  }
  if (plan_.ranks > 1) {
    mine_.resize(plan_.counts[static_cast<std::size_t>(rank_)]);
    gathered_.resize(plan_.offsets.back() + plan_.counts.back());
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

int DistributedFormulation::rootRank() const { return combinations_.back() ? combinations_.back()->rank() : -1; }

template <class Body>
void DistributedFormulation::forEachSubsystem(const Body& body) {
  const int count = static_cast<int>(leaves_.size());  // this rank's subsystems
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
  for (int k : ownLinks_) {
    InterfaceLink& l = hierarchy_.links[static_cast<std::size_t>(k)];
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
  if (plan_.ranks == 1) {
    evaluate(t, q, v, vdot);
    return;
  }
  try {
    evaluate(t, q, v, vdot);
  } catch (const std::exception& e) {
    // The other ranks wait for this rank's messages: only ending the whole run frees them.
    std::fprintf(stderr, "articula: rank %d of %d: %s\n", rank_, plan_.ranks, e.what());
    world_->abort(3);
  }
}

void DistributedFormulation::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                      Eigen::VectorXd& vdot) {
  auto& w = ws_.aba;
  // Profiling: the process CPU time since the last mark added to a phase.
  double last = profiling_ ? processCpuSeconds() : 0.0;
  auto mark = [&](double& phase) {
    if (!profiling_) return;
    const double now = processCpuSeconds();
    phase += now - last;
    last = now;
  };
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
  mark(phases_.firstPass);
  // Step 1, eq. (1)-(3): the interface of every subsystem of this rank.
  forEachSubsystem([&](int k) {
    const auto s = static_cast<std::size_t>(local_[static_cast<std::size_t>(k)]);
    leaves_[static_cast<std::size_t>(k)].condense(ws_, ws_.tau, interfaces_[s]);
  });
  mark(phases_.leaves);
  updateLinkRows(t);
  mark(phases_.linkRows);
  combineUp();  // Step 2-3, eq. (4)-(7)
  mark(phases_.up);
  forcesDown();  // the link forces on every interface's handles
  mark(phases_.down);
  w.a[0] << Vec3::Zero(), -model_.gravity;
  forEachSubsystem([&](int k) {
    const auto s = static_cast<std::size_t>(local_[static_cast<std::size_t>(k)]);
    leaves_[static_cast<std::size_t>(k)].expand(ws_, forces_[s], vdot);
  });
  // Eq. (8): a link joint's rates from the relative acceleration of its bodies, here for the
  // links within this rank; those between ranks after the gather.
  for (const InterfaceLink& l : hierarchy_.links) {
    if (l.joint < 0) continue;
    const int rankB = plan_.subsystemRank[static_cast<std::size_t>(hierarchy_.owner[static_cast<std::size_t>(l.bodyB)])];
    const int rankA = l.bodyA == 0 ? rankB : plan_.subsystemRank[static_cast<std::size_t>(hierarchy_.owner[static_cast<std::size_t>(l.bodyA)])];
    if (rankA == rank_ && rankB == rank_)
      linkJointRates(l, w.a[static_cast<std::size_t>(l.bodyA)], w.a[static_cast<std::size_t>(l.bodyB)], vdot);
  }
  mark(phases_.expand);
  if (plan_.ranks > 1) gatherAccelerations(vdot);
  mark(phases_.gather);
  if (profiling_) ++phases_.evaluations;
}

void DistributedFormulation::combineUp() {
  for (std::size_t n = 0; n < combinations_.size(); ++n) {
    const int node = static_cast<int>(n);
    if (plan_.nodeRank[n] != rank_) continue;
    if (combinations_[n]) {
      // A child formed on another rank sends its D and R in one message.
      for (int c : hierarchy_.nodes[n].children) {
        if (!plan_.remoteChild(c)) continue;
        SubsystemInterface& f = interfaces_[static_cast<std::size_t>(outputId_[static_cast<std::size_t>(c)])];
        const Eigen::Index nD = f.D.size();
        auto buffer = message_.head(nD + f.R.size());
        world_->receive(doubles(buffer), plan_.nodeRank[static_cast<std::size_t>(c)], 1);
        f.D = buffer.head(nD).reshaped(f.D.rows(), f.D.cols());
        f.R = buffer.tail(f.R.size());
      }
      if (!combinations_[n]->up(inputs_[n], hierarchy_.links, interfaces_[static_cast<std::size_t>(outputId_[n])]))
        throw Error("distributed formulation: the link equations are not finite (the state or the loads are not finite)");
    }
    if (plan_.remoteChild(node)) {
      const SubsystemInterface& f = interfaces_[static_cast<std::size_t>(outputId_[n])];
      const Eigen::Index nD = f.D.size();
      auto buffer = message_.head(nD + f.R.size());
      buffer.head(nD) = f.D.reshaped();
      buffer.tail(f.R.size()) = f.R;
      world_->send(std::span<const double>(doubles(buffer)), plan_.nodeRank[static_cast<std::size_t>(plan_.nodeParent[n])], 1);
    }
  }
}

void DistributedFormulation::forcesDown() {
  for (std::size_t n = combinations_.size(); n-- > 0;) {
    if (plan_.nodeRank[n] != rank_) continue;
    Eigen::VectorXd& out = forces_[static_cast<std::size_t>(outputId_[n])];
    if (plan_.remoteChild(static_cast<int>(n)))
      world_->receive(doubles(out), plan_.nodeRank[static_cast<std::size_t>(plan_.nodeParent[n])], 2);
    if (!combinations_[n]) continue;
    combinations_[n]->down(out, hierarchy_.links);
    const auto& children = hierarchy_.nodes[n].children;
    for (std::size_t c = 0; c < inputIds_[n].size(); ++c) {
      Eigen::VectorXd& in = forces_[static_cast<std::size_t>(inputIds_[n][c])];
      in = combinations_[n]->childForces(static_cast<int>(c));
      if (!children.empty() && plan_.remoteChild(children[c]))
        world_->send(std::span<const double>(doubles(in)), plan_.nodeRank[static_cast<std::size_t>(children[c])], 2);
    }
  }
}

void DistributedFormulation::linkJointRates(const InterfaceLink& l, const Vec6& aA, const Vec6& aB,
                                            Eigen::VectorXd& vdot) const {
  const auto& w = ws_.aba;
  const Joint& j = model_.joints[static_cast<std::size_t>(l.joint)];
  if (j.nv == 0) return;
  const Vec6 rel = aB - aA - w.c[static_cast<std::size_t>(l.joint)];
  if (j.nv == 1) {
    const Vec6& s = w.s1[static_cast<std::size_t>(l.joint)];
    vdot[j.iv] = s.dot(rel) / s.squaredNorm();
  } else {
    const auto& S = w.S[static_cast<std::size_t>(l.joint)];
    const SmallMatrix StS = S.transpose() * S;
    vdot.segment(j.iv, j.nv) = StS.llt().solve(S.transpose() * rel);
  }
}

void DistributedFormulation::gatherAccelerations(Eigen::VectorXd& vdot) {
  const auto& w = ws_.aba;
  const auto r = static_cast<std::size_t>(rank_);
  Eigen::Index at = 0;
  for (int b : plan_.gatheredJoints[r]) {
    const Joint& j = model_.joints[static_cast<std::size_t>(b)];
    mine_.segment(at, j.nv) = vdot.segment(j.iv, j.nv);
    at += j.nv;
  }
  for (int b : plan_.gatheredBodies[r]) {
    mine_.segment<6>(at) = w.a[static_cast<std::size_t>(b)];
    at += 6;
  }
  world_->allGather(std::span<const double>(doubles(mine_)), doubles(gathered_), plan_.counts, plan_.offsets);
  for (std::size_t k = 0; k < plan_.gatheredJoints.size(); ++k) {
    Eigen::Index from = plan_.offsets[k];
    for (int b : plan_.gatheredJoints[k]) {
      const Joint& j = model_.joints[static_cast<std::size_t>(b)];
      vdot.segment(j.iv, j.nv) = gathered_.segment(from, j.nv);
      from += j.nv;
    }
  }
  for (int l : plan_.crossLinks) {
    const InterfaceLink& link = hierarchy_.links[static_cast<std::size_t>(l)];
    if (model_.joints[static_cast<std::size_t>(link.joint)].nv == 0) continue;
    const Vec6 aA = gathered_.segment<6>(plan_.accelerationAt[static_cast<std::size_t>(link.bodyA)]);
    const Vec6 aB = gathered_.segment<6>(plan_.accelerationAt[static_cast<std::size_t>(link.bodyB)]);
    linkJointRates(link, aA, aB, vdot);
  }
}

bool DistributedFormulation::correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  projection_.project(t, q, v, tol);  // Step 7
  return true;
}

}  // namespace articula
