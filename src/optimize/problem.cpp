#include "articula/optimize/problem.hpp"

#include <cmath>

#include "articula/dynamics/absolute_hamiltonian_system.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/model/generators.hpp"

namespace articula {

std::string_view targetName(DesignParameter::Target target) {
  using T = DesignParameter::Target;
  switch (target) {
    case T::SpringRestLength: return "rest_length";
    case T::SpringStiffness: return "stiffness";
    case T::SpringDamping: return "damping";
    case T::JointSpringRest: return "rest_position";
    case T::JointSpringStiffness: return "stiffness";
    case T::JointSpringDamping: return "damping";
    case T::BodyMass: return "mass";
    case T::JointPosition: return "position";
  }
  return "?";
}

double readParameter(const Model& model, const DesignParameter& p) {
  using T = DesignParameter::Target;
  const auto e = static_cast<std::size_t>(p.element);
  switch (p.target) {
    case T::SpringRestLength: return model.pointSprings.at(e).restLength;
    case T::SpringStiffness: return model.pointSprings.at(e).stiffness;
    case T::SpringDamping: return model.pointSprings.at(e).damping;
    case T::JointSpringRest: return model.jointSprings.at(e).restPosition;
    case T::JointSpringStiffness: return model.jointSprings.at(e).stiffness;
    case T::JointSpringDamping: return model.jointSprings.at(e).damping;
    case T::BodyMass: return model.bodies.at(e).mass;
    case T::JointPosition: return model.joints.at(e).placement.r[p.component];
  }
  return 0.0;
}

void writeParameter(Model& model, const DesignParameter& p, double value, const Model& reference) {
  using T = DesignParameter::Target;
  const auto e = static_cast<std::size_t>(p.element);
  switch (p.target) {
    case T::SpringRestLength: model.pointSprings.at(e).restLength = value; return;
    case T::SpringStiffness: model.pointSprings.at(e).stiffness = value; return;
    case T::SpringDamping: model.pointSprings.at(e).damping = value; return;
    case T::JointSpringRest: {
      JointSpringDamper& s = model.jointSprings.at(e);
      if (s.reference) throw Error("joint spring '" + s.name + "' follows a reference; its rest position is not used");
      s.restPosition = value;
      return;
    }
    case T::JointSpringStiffness: model.jointSprings.at(e).stiffness = value; return;
    case T::JointSpringDamping: model.jointSprings.at(e).damping = value; return;
    case T::JointPosition: model.joints.at(e).placement.r[p.component] = value; return;
    case T::BodyMass: {
      // The density changes, the shape does not: mass and inertia scale together, the centre
      // of mass stays.
      const Body& ref = reference.bodies.at(e);
      const Mat3 inertia = ref.inertiaCom * (value / ref.mass);  // before writing: model may be reference
      Body& b = model.bodies.at(e);
      b.mass = value;
      b.inertiaCom = inertia;
      b.inertia = SpatialInertia::fromMassComInertia(b.mass, b.com, b.inertiaCom);
      return;
    }
  }
}

int OptimalControlProblem::parameterCount() const {
  int n = static_cast<int>(design.size());
  for (const ControlInput& c : controls) n += c.basis.size();
  return n;
}

namespace {
// Fills one entry per parameter: design values, then each control's coefficients.
template <class DesignValue, class ControlValue>
Eigen::VectorXd perParameter(const OptimalControlProblem& p, DesignValue design, ControlValue control) {
  Eigen::VectorXd b(p.parameterCount());
  int k = 0;
  for (const DesignParameter& d : p.design) b[k++] = design(d);
  for (const ControlInput& c : p.controls)
    for (int i = 0; i < c.basis.size(); ++i) b[k++] = control(c);
  return b;
}
}  // namespace

Eigen::VectorXd OptimalControlProblem::initialParameters() const {
  return perParameter(*this, [](const DesignParameter& d) { return d.initial; },
                      [](const ControlInput& c) { return c.initial; });
}
Eigen::VectorXd OptimalControlProblem::lowerBounds() const {
  return perParameter(*this, [](const DesignParameter& d) { return d.lower; },
                      [](const ControlInput& c) { return c.lower; });
}
Eigen::VectorXd OptimalControlProblem::upperBounds() const {
  return perParameter(*this, [](const DesignParameter& d) { return d.upper; },
                      [](const ControlInput& c) { return c.upper; });
}

std::string OptimalControlProblem::parameterName(int k) const {
  if (k < static_cast<int>(design.size())) return design[static_cast<std::size_t>(k)].name;
  k -= static_cast<int>(design.size());
  for (const ControlInput& c : controls) {
    if (k < c.basis.size()) return c.name + "[" + std::to_string(k) + "]";
    k -= c.basis.size();
  }
  return "?";
}

int OptimalControlProblem::stepCount() const {
  // the relative 1e-12 keeps tf/dt = 1000.0000000001 from adding a sliver of a step
  return static_cast<int>(std::ceil(tf / dt * (1.0 - 1e-12)));
}

void appendControlLoad(Model& model, const ControlInput& control, TimeFunction magnitude) {
  if (control.kind == ControlInput::Kind::JointForce) {
    model.jointLoads.push_back({control.name, control.joint, control.dof, std::move(magnitude)});
    return;
  }
  BodyLoad load;
  load.name = control.name;
  load.body = control.body;
  load.torque = control.kind == ControlInput::Kind::BodyTorque;
  load.worldFrame = true;
  load.point = control.point;
  load.direction = control.direction;
  load.magnitude = std::move(magnitude);
  model.bodyLoads.push_back(std::move(load));
}

void checkProblem(const OptimalControlProblem& p) {
  const Model& m = p.model;
  if (!(p.tf > 0.0) || !std::isfinite(p.tf)) throw Error("the final time must be a positive number");
  if (!(p.dt > 0.0) || !(p.dt <= p.tf)) throw Error("the time step must be positive and not exceed the final time");
  const auto& list = formulations();
  bool known = false;
  for (const FormulationInfo& f : list)
    if (f.name == p.formulation && !f.index3) known = true;
  if (!known && p.formulation != "auto" && p.formulation != "absolute")
    throw Error("formulation '" + p.formulation +
                "' cannot be differentiated here: use one of the ODE formulations aba, crba, semi-recursive, "
                "reference, dca, the Hamiltonian hdca, the absolute-coordinate Hamiltonian absolute (or auto)");
  if (p.formulation == "absolute") {
    if (const std::string why = AbsoluteHamiltonianSystem::unsupported(m); !why.empty())
      throw Error("formulation 'absolute' cannot run this model: " + why);
  } else {
    checkTopology(p.formulation == "auto" ? (m.hasConstraints() ? "reference" : "aba") : p.formulation, m);
  }
  if (p.integrator != "euler" && p.integrator != "heun" && p.integrator != "rk4" && p.integrator != "rk45")
    throw Error("integrator '" + p.integrator + "' has no adjoint here: use euler, heun, rk4 (discrete) or rk45 (continuous)");
  if (p.integrator == "rk45" && !(p.rtol > 0.0 && p.atol > 0.0)) throw Error("rk45 needs positive rtol and atol");
  if (p.cost.empty()) throw Error("the problem has no cost term");
  for (const FunctionalConstraint& c : p.constraints) {
    if (c.terms.empty()) throw Error("constraint '" + c.name + "' has no term");
    if (!std::isfinite(c.upper)) throw Error("constraint '" + c.name + "': the upper bound is not a finite number");
  }
  if (p.parameterCount() == 0) throw Error("the problem has no design parameter and no control");
  const Eigen::VectorXd b = p.initialParameters(), lo = p.lowerBounds(), hi = p.upperBounds();
  for (int k = 0; k < b.size(); ++k) {
    if (!std::isfinite(b[k])) throw Error("the initial value of " + p.parameterName(k) + " is not a finite number");
    if (!(lo[k] <= b[k] && b[k] <= hi[k]))
      throw Error("the initial value of " + p.parameterName(k) + " (" + std::to_string(b[k]) +
                  ") lies outside its bounds [" + std::to_string(lo[k]) + ", " + std::to_string(hi[k]) + "]");
  }
  for (const DesignParameter& d : p.design) {
    if (d.target == DesignParameter::Target::BodyMass && !(d.lower > 0.0))
      throw Error("design parameter " + d.name + ": a mass needs a positive lower bound");
    // HDCA, DCA and HADCA keep the bodies' central inertias from their construction
    // (dynamics/handle_assembly).
    // The absolute-coordinate formulation keeps M^-1 from its construction too.
    if (d.target == DesignParameter::Target::BodyMass &&
        (p.formulation == "hdca" || p.formulation == "dca" || p.formulation == "absolute"))
      throw Error("design parameter " + d.name + ": masses cannot be design parameters with " + p.formulation +
                  "; use another formulation");
  }
  for (const DesignParameter& d : p.design) {
    if (d.target != DesignParameter::Target::JointPosition) continue;
    // The initial assembly is done once and the constraints' design derivative is left out, so a
    // joint that may carry a loop does not move; nor may a target that is the model's own start.
    if (p.formulation == "absolute")
      throw Error("design parameter " + d.name + ": joint positions are not design parameters of the "
                  "absolute-coordinate formulation (its constraint frames are fixed at construction)");
    if (m.hasConstraints())
      throw Error("design parameter " + d.name + ": joint positions are design parameters of open trees only "
                  "(they would move the loops' geometry)");
    for (const CostTerm& c : p.cost)
      if (c.initialTarget)
        throw Error("design parameter " + d.name + ": a marker target 'initial' would move with the joint; "
                    "give the target explicitly");
  }
  for (const ControlInput& c : p.controls)
    if (!std::isfinite(c.gain) || c.gain == 0.0) throw Error("control " + c.name + ": the gain must be a finite non-zero number");
  for (const CostTerm& c : p.cost) {
    switch (c.kind) {
      case CostTerm::Kind::MarkerPosition:
      case CostTerm::Kind::MarkerVelocity:
        if (c.marker < 0 || c.marker >= static_cast<int>(m.markers.size())) throw Error("cost term: no such marker");
        break;
      case CostTerm::Kind::JointPosition:
        if (c.coordinate < 0 || c.coordinate >= m.nq) throw Error("cost term: no such joint coordinate");
        break;
      case CostTerm::Kind::JointVelocity:
        if (c.coordinate < 0 || c.coordinate >= m.nv) throw Error("cost term: no such joint velocity");
        break;
      case CostTerm::Kind::ControlEffort:
        if (c.terminal) throw Error("a control-effort cost term cannot be terminal");
        if (c.control < 0 || c.control >= static_cast<int>(p.controls.size()))
          throw Error("cost term: no such control");
        break;
      case CostTerm::Kind::BodyAxisAngle:
      case CostTerm::Kind::BodyVelocity:
        if (c.body < 1 || c.body > m.bodyCount()) throw Error("cost term: no such body");
        if (c.kind == CostTerm::Kind::BodyAxisAngle &&
            !(std::abs(c.axis.norm() - 1.0) < 1e-12 && std::abs(c.direction.norm() - 1.0) < 1e-12))
          throw Error("cost term: the axis and the direction must be unit vectors");
        break;
    }
    if (!std::isfinite(c.weight)) throw Error("cost term: the weight is not a finite number");
  }
}

OptimalControlProblem constraintProblem(const OptimalControlProblem& problem, const FunctionalConstraint& constraint) {
  OptimalControlProblem p = problem;
  p.cost = constraint.terms;
  p.constraints.clear();
  return p;
}

OptimalControlProblem cartPendulumProblem(int links, ControlBasis force, double initial, double tf, double dt) {
  OptimalControlProblem p;
  p.model = makeCartPendulum(links);
  p.tf = tf;
  p.dt = dt;
  ControlInput u;
  u.name = "force";
  u.joint = *p.model.findJoint("rail");
  u.basis = std::move(force);
  u.initial = initial;
  p.controls.push_back(u);
  CostTerm tip;
  tip.kind = CostTerm::Kind::MarkerPosition;
  tip.marker = *p.model.findMarker("tip");
  tip.initialTarget = true;
  p.cost.push_back(tip);
  CostTerm effort;
  effort.kind = CostTerm::Kind::ControlEffort;
  effort.weight = 1e-3;
  p.cost.push_back(effort);
  return p;
}

}  // namespace articula
