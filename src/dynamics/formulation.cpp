#include "articula/dynamics/formulation.hpp"

#include <Eigen/Cholesky>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

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

}  // namespace

const std::vector<FormulationInfo>& formulations() {
  static const std::vector<FormulationInfo> list{
      {"aba", "articulated-body algorithm, O(n), open trees (Featherstone)", false},
      {"crba", "composite-rigid-body mass matrix + Cholesky, O(n^3), open trees", false},
      {"reference", "joint coordinates + Lagrange multipliers (dense KKT), any topology; the trusted oracle", true},
  };
  return list;
}

std::unique_ptr<Formulation> makeFormulation(std::string_view name, const Model& model, const FormulationOptions& options) {
  const bool constrained = model.hasConstraints();
  if (name == "auto") name = constrained ? "reference" : "aba";
  if (name == "reference") return std::make_unique<ReferenceFormulation>(model, options);
  if (name == "aba" || name == "crba") {
    if (constrained)
      throw Error("formulation '" + std::string(name) + "' handles open trees only, but the model has " +
                  std::to_string(model.loops.size()) + " loop closure(s) and " + std::to_string(model.prescribed.size()) +
                  " prescribed motion(s); use --formulation reference");
    if (name == "aba") return std::make_unique<AbaFormulation>(model);
    return std::make_unique<CrbaFormulation>(model);
  }
  std::string valid = "auto";
  for (const auto& f : formulations()) valid += ", " + std::string(f.name);
  throw Error("unknown formulation '" + std::string(name) + "' (valid: " + valid + ")");
}

}  // namespace articula
