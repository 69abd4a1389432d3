// The distributed formulation: seed 003's subsystem method in one process (docs/distributed.md).
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
#pragma once

#include <memory>
#include <vector>

#include "articula/dynamics/ascher_projection.hpp"
#include "articula/dynamics/constraint_impulses.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/interface_combination.hpp"
#include "articula/dynamics/subsystem_condensation.hpp"
#include "articula/dynamics/subsystem_hierarchy.hpp"

namespace articula {

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
  /// The interface of a hierarchy node after the last evaluation (level-0 nodes: the subsystem's,
  /// after any loops inside it are eliminated).
  const SubsystemInterface& nodeInterface(int node) const;
  /// Rank of the root's link equations at the last evaluation (rows minus dependent rows).
  int rootRank() const;
  const AscherProjection& projection() const { return projection_; }

 private:
  void updateLinkRows(double t);
  template <class Body>
  void forEachSubsystem(const Body& body);

  const Model& model_;
  int threads_;
  SubsystemHierarchy hierarchy_;
  std::vector<LevelTraffic> traffic_;
  Workspace ws_;
  bool genericKinematics_;
  std::vector<SubsystemCondensation> leaves_;
  std::vector<std::unique_ptr<InterfaceCombination>> combinations_;  // per node, null unless it combines
  std::vector<std::vector<const SubsystemInterface*>> inputs_;      // per node
  std::vector<std::vector<int>> inputIds_;                           // per node: interface ids of its inputs
  std::vector<int> outputId_;                                        // per node: its interface id
  std::vector<SubsystemInterface> interfaces_;
  std::vector<Eigen::VectorXd> forces_;  // per interface: the forces on its handles
  ConstraintEvaluator constraints_;
  ConstraintImpulses impulses_;
  AscherProjection projection_;
};

}  // namespace articula
