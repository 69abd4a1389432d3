#include "articula/dynamics/formulation.hpp"

#include <Eigen/Cholesky>

#include "articula/dynamics/coordinate_partitioning.hpp"
#include "articula/dynamics/dca.hpp"
#include "articula/dynamics/distributed.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/global.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

std::string structuralNameList() {
  std::string list;
  for (std::string_view n : structuralIntegratorNames()) list += (list.empty() ? "" : "|") + std::string(n);
  return list;
}

// O(n) articulated-body algorithm on an open tree.
class AbaFormulation final : public Formulation {
 public:
  explicit AbaFormulation(const Model& model)
      : model_(model), ws_(model), bodyForces_(forceElementsNeedKinematics(model)) {}
  std::string_view name() const override { return "aba"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override {
    // ABA's first pass computes the velocities itself; world poses are only needed by body forces.
    if (bodyForces_) updateVelocities(model_, ws_, q, v);
    evaluateForceElements(model_, ws_, t, q, v);
    forwardDynamics(model_, ws_, q, v, ws_.tau, &ws_.fext, vdot);
  }

 private:
  const Model& model_;
  Workspace ws_;
  bool bodyForces_;
};

// Joint-space inertia by CRBA, bias forces by RNEA, dense Cholesky solve: O(n^3) on an open tree.
class CrbaFormulation final : public Formulation {
 public:
  explicit CrbaFormulation(const Model& model)
      : model_(model), ws_(model), H_(model.nv, model.nv), C_(model.nv), llt_(model.nv) {}
  std::string_view name() const override { return "crba"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override {
    massMatrix(model_, ws_, q, H_);
    updateVelocities(model_, ws_, q, v);
    evaluateForceElements(model_, ws_, t, q, v);
    biasForces(model_, ws_, q, v, &ws_.fext, C_);
    llt_.compute(H_);
    if (llt_.info() != Eigen::Success) throw Error("the joint-space mass matrix is not positive definite");
    vdot = ws_.tau - C_;
    llt_.solveInPlace(vdot);
  }

 private:
  const Model& model_;
  Workspace ws_;
  Eigen::MatrixXd H_;
  Eigen::VectorXd C_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

// Semi-recursive M and Q in relative coordinates (seed 001 eq. (3)-(19)), factorised without
// fill-in by the tree-sparse Cholesky: the ODE form on open trees.
class SemiRecursiveFormulation final : public Formulation {
 public:
  explicit SemiRecursiveFormulation(const Model& model)
      : model_(model), ws_(model), dynamics_(model), cholesky_(model), M_(model.nv, model.nv) {}
  std::string_view name() const override { return "semi-recursive"; }
  void accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& vdot) override {
    updateVelocities(model_, ws_, q, v);
    evaluateForceElements(model_, ws_, t, q, v);
    dynamics_.evaluate(ws_, M_, vdot);
    cholesky_.factorize(M_);
    cholesky_.solveInPlace(vdot);
  }

 private:
  const Model& model_;
  Workspace ws_;
  SemiRecursiveDynamics dynamics_;
  TreeCholesky cholesky_;
  Eigen::MatrixXd M_;
};

}  // namespace

const std::vector<FormulationInfo>& formulations() {
  static const std::vector<FormulationInfo> list{
      {"aba", "articulated-body algorithm, O(n), open trees (Featherstone)", false, false},
      {"crba", "composite-rigid-body mass matrix + Cholesky, O(n^3), open trees", false, false},
      {"dca",
       "divide-and-conquer at acceleration level (Featherstone), O(n) serial and O(log n) tiers in parallel "
       "(--threads), open trees (thesis 3.4)",
       false, false},
      {"distributed",
       "seed 003's subsystem method: subsystems (--subsystems N or the model's partition) condensed to interface "
       "matrices D, R, combined level by level up to the ground; Ascher's double-step projection; trees and closed "
       "loops, no prescribed motion (docs/distributed.md)",
       true, false},
      {"hdca",
       "Hamiltonian divide-and-conquer: Hamilton's equations in joint coordinates and momenta, state [q; p], "
       "O(n) serial and O(log n) tiers in parallel (--threads), 3x3 on planar mechanisms, trees, closed loops and "
       "prescribed motion; euler, rk4, rk45 (thesis 3.3-3.4, seed 000)",
       true, false},
      {"semi-recursive",
       "accumulated inertias in relative coordinates; tree-sparse Cholesky on trees, coordinate partitioning with "
       "automatic re-selection on closed loops (seeds 001, 004)",
       true, false},
      {"reference", "joint coordinates + Lagrange multipliers (dense KKT), any topology; the trusted oracle", true,
       false},
      {"hybrid",
       "semi-recursive terms + index-3 augmented Lagrangian loop closure, any topology; needs a structural integrator "
       "(seed 001)",
       true, true},
      {"global",
       "natural coordinates + index-3 augmented Lagrangian, any topology, sparse Cholesky (CHOLMOD); needs a "
       "structural integrator (seed 001)",
       true, true},
  };
  return list;
}

void checkTopology(std::string_view name, const Model& model) {
  if (!model.hasConstraints()) return;
  for (const auto& f : formulations())
    if (f.name == name && !f.closedLoops)
      throw Error(
          "formulation '" + std::string(name) + "' handles open trees only, but the model has " +
          std::to_string(model.loops.size()) + " loop closure(s) and " + std::to_string(model.prescribed.size()) +
          " prescribed motion(s); use --formulation reference, or hybrid with a structural integrator (--integrator " +
          structuralNameList() + ")");
}

std::unique_ptr<Formulation> makeFormulation(std::string_view name, const Model& model,
                                             const FormulationOptions& options) {
  const bool constrained = model.hasConstraints();
  if (name == "auto") name = constrained ? "reference" : "aba";
  if (name == "reference") return std::make_unique<ReferenceFormulation>(model, options);
  if (name == "distributed") return std::make_unique<DistributedFormulation>(model, options);
  if (name == "hybrid" || name == "global")
    throw Error("formulation '" + std::string(name) +
                "' is an index-3 formulation stepped by a structural integrator: use --integrator " +
                structuralNameList());
  if (name == "hdca")
    throw Error(
        "formulation 'hdca' is in Hamiltonian form (state [q; p], simulate/hamiltonian_system.hpp) and gives no "
        "accelerations: simulate() runs it with euler, rk4 or rk45");
  if (name == "semi-recursive" && constrained) return std::make_unique<CoordinatePartitioning>(model);
  if (name == "aba" || name == "crba" || name == "semi-recursive" || name == "dca") {
    checkTopology(name, model);
    if (name == "aba") return std::make_unique<AbaFormulation>(model);
    if (name == "dca")
      return std::make_unique<DcaFormulation>(model, DcaOptions{options.threads, pairingPolicy(options.assemblyTree)});
    if (name == "semi-recursive") return std::make_unique<SemiRecursiveFormulation>(model);
    return std::make_unique<CrbaFormulation>(model);
  }
  std::string valid = "auto";
  for (const auto& f : formulations()) valid += ", " + std::string(f.name);
  throw Error("unknown formulation '" + std::string(name) + "' (valid: " + valid + ")");
}

std::unique_ptr<Index3Problem> makeIndex3Problem(std::string_view name, const Model& model,
                                                 const AugmentedLagrangianOptions& options) {
  if (name == "auto" || name == "hybrid") return std::make_unique<HybridFormulation>(model, options);
  if (name == "global") return std::make_unique<GlobalFormulation>(model, options);
  for (const auto& f : formulations())
    if (f.name == name)
      throw Error("formulation '" + std::string(name) +
                  "' is in ODE form and runs with euler, rk4 or rk45; the structural integrators (" +
                  structuralNameList() + ") need an index-3 formulation: hybrid or global");
  std::string valid = "auto";
  for (const auto& f : formulations())
    if (f.index3) valid += ", " + std::string(f.name);
  throw Error("unknown index-3 formulation '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace articula
