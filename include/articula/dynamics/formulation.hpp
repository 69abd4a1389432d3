// Formulations in ODE form: joint accelerations from the state. Each one owns
// its workspaces (sized once per model) and evaluates the model's force elements.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "articula/dynamics/hybrid.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

namespace parallel {
class Communicator;
}

struct FormulationOptions {
  /// Baumgarte stabilisation of the acceleration-level constraints:
  /// J vdot = gamma - 2 alpha (J v - nu) - beta^2 g. Zero turns it off.
  double baumgarteAlpha = 0.0;
  double baumgarteBeta = 0.0;
  /// Threads of the formulations that run in parallel (dca: its thread team; distributed: OpenMP);
  /// results do not depend on it.
  int threads = 1;
  /// dca's assembly tree (dynamics/assembly_tree.hpp): "balanced" or "serial".
  std::string assemblyTree = "balanced";
  /// The distributed formulation: split the bodies into this many balanced connected subsystems
  /// (model/subsystems.hpp); 0 takes the model's `subsystems` partition, or one subsystem per tree
  /// on the ground when the model gives none.
  int subsystems = 0;
  /// The distributed formulation across MPI ranks (docs/distributed.md): each rank condenses its
  /// share of the subsystems and the hierarchy's messages go through this communicator. Null, or a
  /// world of one process: everything in this process. Not owned; outlives the formulation.
  const parallel::Communicator* communicator = nullptr;
};

class Formulation {
 public:
  virtual ~Formulation() = default;
  virtual std::string_view name() const = 0;
  /// vdot at (t, q, v). Must not allocate.
  virtual void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) = 0;
  /// A formulation that keeps the constraints through its own coordinates (coordinate
  /// partitioning) corrects the state after each step itself: it returns true with q, v on the
  /// constraint manifold (|g|_inf <= tol), or throws StepRejected. The default returns false and
  /// the system projects (MultibodySystem::afterStep).
  virtual bool correctState(double /*t*/, Eigen::VectorXd& /*q*/, Eigen::VectorXd& /*v*/, double /*tol*/) {
    return false;
  }
};

/// The formulations simulate() runs (SimulationOptions::formulation), with a one-line description
/// each: the ODE formulations of makeFormulation, the index-3 ones of makeIndex3Problem, and the
/// Hamiltonian "hdca", which simulate() steps in [q; p] (simulate/hamiltonian_system.hpp).
struct FormulationInfo {
  std::string_view name;
  std::string_view description;
  bool closedLoops;  ///< handles loop closures and prescribed motion
  bool index3;       ///< an index-3 formulation, stepped by a structural integrator (makeIndex3Problem)
};
const std::vector<FormulationInfo>& formulations();

/// Throws articula::Error when the named formulation handles open trees only
/// (FormulationInfo::closedLoops false) and the model has loop closures or prescribed motion; the
/// message names them and the formulations to use instead.
void checkTopology(std::string_view name, const Model& model);

/// Creates the named ODE formulation ("aba", "crba", "semi-recursive", "dca", "distributed", "reference"; "auto" picks
/// aba for open trees and reference otherwise). Throws articula::Error for an unknown name, an
/// index-3 formulation (use makeIndex3Problem), the Hamiltonian formulation "hdca" (its state is
/// [q; p], not [q; v]: simulate() steps it as a HamiltonianSystem), or a tree-only formulation
/// applied to a model with constraints.
std::unique_ptr<Formulation> makeFormulation(std::string_view name, const Model& model,
                                             const FormulationOptions& options = {});

/// Creates the named index-3 formulation ("hybrid"; "auto" picks hybrid) for a structural
/// integrator. Throws articula::Error for an unknown name or an ODE formulation.
std::unique_ptr<Index3Problem> makeIndex3Problem(std::string_view name, const Model& model,
                                                 const AugmentedLagrangianOptions& options = {});

}  // namespace articula
