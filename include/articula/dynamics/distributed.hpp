// The distributed formulation: seed 003's subsystem method in one process or across the MPI ranks
// of FormulationOptions::communicator (docs/distributed.md).
//
// Per evaluation: the world-coordinate ABA's first pass over all bodies; each subsystem condenses
// its internal joints into interface equations a = D Q + R of its handle bodies (eq. (1)-(3),
// dynamics/subsystem_condensation.hpp); the hierarchy combines them level by level, exchanging
// only D and R (eq. (4)-(6), dynamics/interface_combination.hpp), and the root closes the links to
// the ground (eq. (7)); the link forces come back down, each subsystem runs its acceleration pass
// with them, and the joints between subsystems get their accelerations from the relative
// acceleration of their two bodies (eq. (8)). After each step correctState applies Ascher's
// double-step projection in generalised coordinates (Step 7, dynamics/ascher_projection.hpp).
// Prescribed motion is refused.
//
// Across P ranks (dynamics/rank_plan.hpp): every rank evaluates the first pass, the force elements
// and the link rows for the whole model (the state is the same on every rank), condenses and
// expands only its own subsystems and combines only its own hierarchy nodes; D, R of an interface
// go up to another rank and its forces come down through the communicator into buffers sized at
// construction; a final all-gather gives every rank all joint accelerations. The arithmetic is
// that of the one-process run, in the same order, so the results are the same bit for bit. A
// failure on one rank (a singular inertia) ends the whole run through Communicator::abort, since
// the other ranks would wait for its messages forever.
#pragma once

#include <memory>
#include <vector>

#include "articula/dynamics/ascher_projection.hpp"
#include "articula/dynamics/constraint_impulses.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/interface_combination.hpp"
#include "articula/dynamics/rank_plan.hpp"
#include "articula/dynamics/subsystem_condensation.hpp"
#include "articula/dynamics/subsystem_hierarchy.hpp"

namespace articula {

/// CPU seconds of this process per phase of the evaluations since profiling was turned on (this
/// rank's share), for the cost model of bench/distributed_model.py. Across ranks, up and down
/// include the waits for the other ranks' messages (Open MPI polls while it waits); gather is the
/// all-gather of the joint accelerations. Each mark reads the clock (a system call, under 1 us).
struct DistributedPhases {
  double firstPass = 0, leaves = 0, linkRows = 0, up = 0, down = 0, expand = 0, gather = 0;
  long evaluations = 0;
};

class DistributedFormulation final : public Formulation {
 public:
  /// The partition: options.subsystems balanced parts when > 0, else the model's `subsystems`,
  /// else one subsystem per tree attached to the ground. Throws articula::Error for an invalid partition, threads < 1, or a model
  /// with prescribed motion.
  DistributedFormulation(const Model& model, const FormulationOptions& options);
  ~DistributedFormulation() override;

  std::string_view name() const override { return "distributed"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override;
  bool correctState(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) override;

  const SubsystemHierarchy& hierarchy() const { return hierarchy_; }
  /// Bytes that pass between hierarchy levels per evaluation, by level (hierarchyTraffic).
  const std::vector<LevelTraffic>& traffic() const { return traffic_; }
  long exchangedBytesPerEvaluation() const;
  /// Which rank does what, and the messages and bytes between ranks per evaluation.
  const RankPlan& rankPlan() const { return plan_; }
  int rank() const { return rank_; }
  /// The interface of a hierarchy node after the last evaluation (level-0 nodes: the subsystem's,
  /// after any loops inside it are eliminated); current only on the rank that forms it.
  const SubsystemInterface& nodeInterface(int node) const;
  /// Rank of the root's link equations at the last evaluation (rows minus dependent rows); -1 on
  /// the MPI ranks other than the root's.
  int rootRank() const;
  const AscherProjection& projection() const { return projection_; }
  /// Times the phases of every evaluation from now on (clears the sums); off by default.
  void profile(bool on) {
    profiling_ = on;
    phases_ = {};
  }
  const DistributedPhases& phases() const { return phases_; }

 private:
  void updateLinkRows(double t);
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot);
  void combineUp();
  void forcesDown();
  void linkJointRates(const InterfaceLink& l, const Vec6& aA, const Vec6& aB, Eigen::VectorXd& vdot) const;
  void gatherAccelerations(Eigen::VectorXd& vdot);
  template <class Body>
  void forEachSubsystem(const Body& body);

  const Model& model_;
  int threads_;
  const parallel::Communicator* world_;  // null: one process
  int rank_;
  SubsystemHierarchy hierarchy_;
  RankPlan plan_;
  std::vector<LevelTraffic> traffic_;
  Workspace ws_;
  bool genericKinematics_;
  std::vector<int> local_;                     // this rank's subsystems
  std::vector<SubsystemCondensation> leaves_;  // per subsystem of local_
  std::vector<std::unique_ptr<InterfaceCombination>> combinations_;  // per node, null unless it combines here
  std::vector<int> ownLinks_;  // the links eliminated at this rank's nodes: the rows it evaluates
  std::vector<std::vector<const SubsystemInterface*>> inputs_;      // per node
  std::vector<std::vector<int>> inputIds_;                           // per node: interface ids of its inputs
  std::vector<int> outputId_;                                        // per node: its interface id
  std::vector<SubsystemInterface> interfaces_;
  std::vector<Eigen::VectorXd> forces_;  // per interface: the forces on its handles
  Eigen::VectorXd message_;              // D and R of an interface between ranks
  Eigen::VectorXd mine_, gathered_;      // this rank's part of the gather, and all of it
  bool profiling_ = false;
  DistributedPhases phases_;
  ConstraintEvaluator constraints_;
  ConstraintImpulses impulses_;
  AscherProjection projection_;
};

}  // namespace articula
