#include "articula/io/yaml_problem.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "articula/dynamics/formulation.hpp"
#include "articula/io/yaml_model.hpp"
#include "yaml_reader.hpp"
#include "yaml_values.hpp"

namespace articula {

namespace {

using yaml::Choice;
using yaml::describe;
using yaml::forEach;
using yaml::Reader;

// The scalar coordinate (index into v) of joint `joint`, degree of freedom `dof`.
int coordinateOf(const Model& model, const Reader& r) {
  const std::string name = r.text("joint");
  const auto j = model.findJoint(name);
  if (!j) r.fail(r.required("joint"), "joint: no joint named '" + name + "' in the model");
  const int dof = r.integer("dof", 0);
  const Joint& joint = model.joints[static_cast<std::size_t>(*j)];
  if (dof < 0 || dof >= joint.nv)
    r.fail(r.has("dof") ? r.required("dof") : r.required("joint"),
           "dof: joint '" + name + "' has " + std::to_string(joint.nv) + " degree(s) of freedom, no number " +
               std::to_string(dof));
  return joint.iv + dof;
}

int bodyOf(const Model& model, const Reader& r) {
  const std::string name = r.text("body");
  const auto b = model.findBody(name);
  if (!b || *b == 0) r.fail(r.required("body"), "body: no moving body named '" + name + "' in the model");
  return *b;
}

int controlOf(const OptimalControlProblem& p, const Reader& r) {
  const std::string name = r.text("control");
  for (std::size_t k = 0; k < p.controls.size(); ++k)
    if (p.controls[k].name == name) return static_cast<int>(k);
  r.fail(r.required("control"), "control: no control named '" + name + "' in this problem");
}

void readBounds(const Reader& r, double& initial, double& lower, double& upper) {
  initial = r.number("initial", initial);
  lower = r.number("lower", -std::numeric_limits<double>::infinity());
  upper = r.number("upper", std::numeric_limits<double>::infinity());
  if (!(lower <= upper)) r.fail(r.required("upper"), "upper: must not be below lower");
  if (!(lower <= initial && initial <= upper))
    r.fail(r.has("initial") ? r.required("initial") : r.required(initial < lower ? "lower" : "upper"),
           "initial: the value " + std::to_string(initial) + " lies outside [lower, upper]");
}

// An entry of initial_state: {joint, q, v} overriding the model's initial coordinates and
// velocities of one joint (a number for a one-coordinate joint, else a list), so that several
// problems can start one model from different states.
void readInitialState(Model& m, const Reader& r) {
  r.allowKeys({"joint", "q", "v"});
  const std::string name = r.text("joint");
  const auto j = m.findJoint(name);
  if (!j) r.fail(r.required("joint"), "joint: no joint named '" + name + "' in the model");
  const Joint& joint = m.joints[static_cast<std::size_t>(*j)];
  if (!r.has("q") && !r.has("v")) r.fail("give q, v or both");
  // q or v: a number for a one-coordinate joint, else a list of `count` numbers written at `into`.
  const auto read = [&](const char* key, int count, const char* what, double* into) {
    if (!r.has(key)) return;
    const YAML::Node n = r.required(key);
    const std::vector<double> x = n.IsScalar() ? std::vector<double>{r.toNumber(n, key)} : r.toList(n, key);
    if (static_cast<int>(x.size()) != count)
      r.fail(n, std::string(key) + ": joint '" + name + "' has " + std::to_string(count) + " " + what + ", got " +
                    std::to_string(x.size()));
    std::copy(x.begin(), x.end(), into);
  };
  read("q", joint.nq, "coordinate(s)", m.q0.data() + joint.iq);
  read("v", joint.nv, "velocity coordinate(s)", m.v0.data() + joint.iv);
}

// The model value an entry names: `parameter: mass` of a `body`, `position_x` (y, z) of a `joint`,
// or a spring's or joint spring's `parameter` given its `element`; sets d.target, d.element and
// d.component, and the default name.
void readModelValue(const Model& m, const Reader& r, DesignParameter& d) {
  using T = DesignParameter::Target;
  const std::string parameter = r.text("parameter");
  const YAML::Node at = r.required("parameter");
  if (r.has("joint")) {
    const std::string name = r.text("joint");
    const auto j = m.findJoint(name);
    if (!j) r.fail(r.required("joint"), "joint: no joint named '" + name + "' in the model");
    d.target = T::JointPosition;
    d.element = *j;
    if (parameter == "position_x") d.component = 0;
    else if (parameter == "position_y") d.component = 1;
    else if (parameter == "position_z") d.component = 2;
    else r.fail(at, "parameter: a joint has position_x, position_y and position_z (in its parent body), not '" + parameter + "'");
    d.name = name + "." + parameter;
    return;
  }
  if (parameter == "mass") {
    d.target = T::BodyMass;
    d.element = bodyOf(m, r);
  } else {
    const std::string element = r.text("element");
    int point = -1, joint = -1;
    for (std::size_t k = 0; k < m.pointSprings.size(); ++k)
      if (m.pointSprings[k].name == element) point = static_cast<int>(k);
    for (std::size_t k = 0; k < m.jointSprings.size(); ++k)
      if (m.jointSprings[k].name == element) joint = static_cast<int>(k);
    if (point < 0 && joint < 0)
      r.fail(r.required("element"), "element: no spring_damper or joint_spring_damper named '" + element + "' in the model");
    if (point >= 0) {
      d.element = point;
      if (parameter == "rest_length") d.target = T::SpringRestLength;
      else if (parameter == "stiffness") d.target = T::SpringStiffness;
      else if (parameter == "damping") d.target = T::SpringDamping;
      else r.fail(at, "parameter: a spring_damper has rest_length, stiffness and damping, not '" + parameter + "'");
      if (d.target == T::SpringDamping && m.pointSprings[static_cast<std::size_t>(point)].hasDampingCurve())
        r.fail(at, "parameter: spring_damper '" + element + "' damps by its damping_curve, so its damping has no effect");
    } else {
      d.element = joint;
      if (parameter == "rest") d.target = T::JointSpringRest;
      else if (parameter == "stiffness") d.target = T::JointSpringStiffness;
      else if (parameter == "damping") d.target = T::JointSpringDamping;
      else r.fail(at, "parameter: a joint_spring_damper has rest, stiffness and damping, not '" + parameter + "'");
      if (d.target == T::JointSpringRest && m.jointSprings[static_cast<std::size_t>(joint)].reference)
        r.fail(at, "parameter: joint_spring_damper '" + element + "' follows a reference, so its rest has no effect");
    }
  }
  d.name = (parameter == "mass" ? r.text("body") : r.text("element")) + "." + parameter;
}

void readDesign(OptimalControlProblem& p, const Reader& r) {
  r.allowKeys({"name", "element", "body", "joint", "parameter", "initial", "lower", "upper"});
  const Model& m = p.model;
  DesignParameter d;
  readModelValue(m, r, d);
  const YAML::Node at = r.required("parameter");
  d.name = r.text("name", d.name);
  d.initial = readParameter(m, d);
  readBounds(r, d.initial, d.lower, d.upper);
  if (d.target == DesignParameter::Target::BodyMass && !(d.lower > 0.0))
    r.fail(r.has("lower") ? r.required("lower") : at, "lower: a mass needs a positive lower bound");
  p.design.push_back(d);
}

std::vector<double> readKnots(const Reader& r) {
  const YAML::Node n = r.required("knots");
  if (n.IsSequence()) return r.toList(n, "knots");
  if (!n.IsMap()) r.fail(n, "knots: expected a list of times or {start, end, count}, got " + describe(n));
  const Reader k = r.child("knots");
  k.allowKeys({"start", "end", "count"});
  const double start = k.number("start"), end = k.number("end");
  const int count = k.integer("count", 0);
  if (!(end > start)) k.fail(k.required("end"), "end: must be later than start");
  if (count < 1 || count > 1000000) k.fail(k.required("count"), "count: expected 1 to 1000000 knots");
  std::vector<double> t(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) t[static_cast<std::size_t>(i)] = count == 1 ? start : start + (end - start) * i / (count - 1);
  return t;
}

void readControl(OptimalControlProblem& p, const Reader& r) {
  r.allowKeys({"name", "joint", "dof", "body", "point", "direction", "torque", "basis", "knots", "initial", "lower",
               "upper", "gain"});
  const Model& m = p.model;
  ControlInput c;
  c.name = r.text("name");
  if (r.has("joint") == r.has("body")) r.fail("a control acts on either a joint (joint, dof) or a body (body, direction)");
  if (r.has("joint")) {
    const int iv = coordinateOf(m, r);
    c.kind = ControlInput::Kind::JointForce;
    c.joint = *m.findJoint(r.text("joint"));
    c.dof = iv - m.joints[static_cast<std::size_t>(c.joint)].iv;
  } else {
    c.kind = r.flag("torque", false) ? ControlInput::Kind::BodyTorque : ControlInput::Kind::BodyForce;
    c.body = bodyOf(m, r);
    c.point = r.vec3("point", Vec3::Zero());
    const Vec3 d = r.vec3("direction");
    if (!(d.norm() > 0.0)) r.fail(r.required("direction"), "direction: must not be zero");
    c.direction = d.normalized();
  }
  static const std::vector<Choice<ControlBasis::Kind>> bases = {
      {ControlBasis::Kind::PiecewiseConstant, {"constant", {}}},
      {ControlBasis::Kind::PiecewiseLinear, {"linear", {}}},
      {ControlBasis::Kind::CubicSpline, {"spline", {}}}};
  const std::string basis = r.text("basis", "linear");
  auto kind = ControlBasis::Kind::PiecewiseLinear;
  bool found = false;
  for (const auto& b : bases)
    if (b.keys.name == basis) kind = b.value, found = true;
  if (!found) r.fail(r.required("basis"), "basis: expected constant, linear or spline, got '" + basis + "'");
  try {
    c.basis = ControlBasis(kind, readKnots(r));
  } catch (const ModelError&) {
    throw;
  } catch (const Error& e) {
    r.fail(r.required("knots"), std::string("knots: ") + e.what());
  }
  readBounds(r, c.initial, c.lower, c.upper);
  c.gain = r.number("gain", 1.0);
  if (!std::isfinite(c.gain) || c.gain == 0.0) r.fail(r.required("gain"), "gain: expected a finite non-zero number");
  p.controls.push_back(std::move(c));
}

// A target: `initial` (markers), a number or function (joints), or three of them (markers).
void readTarget(CostTerm& c, const Reader& r, bool marker) {
  if (!r.has("target")) return;
  const YAML::Node n = r.required("target");
  if (marker && n.IsScalar() && n.Scalar() == "initial") {
    if (c.kind != CostTerm::Kind::MarkerPosition) r.fail(n, "target: 'initial' applies to marker positions only");
    c.initialTarget = true;
    return;
  }
  if (!marker) {
    c.target.push_back(yaml::readFunction(r, "target"));
    return;
  }
  if (!n.IsSequence() || n.size() != 3)
    r.fail(n, "target: expected 'initial' or a list of three numbers or functions, got " + describe(n));
  for (const YAML::Node& item : n) {
    if (item.IsScalar()) {
      c.target.push_back(TimeFunction::constant(r.toNumber(item, "target")));
    } else {
      YAML::Node wrapper;
      wrapper["f"] = item;
      c.target.push_back(yaml::readFunction(Reader(wrapper, r.file(), r.element(), "target"), "f"));
    }
  }
}

// One term of the cost terms' library, for the cost or a constraint; `siblings` are the terms
// already read into the same list (names must differ).
CostTerm readTerm(const OptimalControlProblem& p, const Reader& r, const std::vector<CostTerm>& siblings) {
  using K = CostTerm::Kind;
  static const std::vector<Choice<K>> kinds = {
      {K::MarkerPosition, {"marker_position", {"marker", "target"}}},
      {K::MarkerVelocity, {"marker_velocity", {"marker", "target"}}},
      {K::JointPosition, {"joint_position", {"joint", "dof", "target"}}},
      {K::JointVelocity, {"joint_velocity", {"joint", "dof", "target"}}},
      {K::ControlEffort, {"control_effort", {"control", "limit"}}},
      {K::BodyAxisAngle, {"body_axis_angle", {"body", "axis", "direction"}}},
      {K::BodyVelocity, {"body_velocity", {"body"}}}};
  CostTerm c;
  c.kind = r.choose(kinds, {"type", "weight", "terminal", "name"}, "cost term");
  c.name = r.text("name", "");
  for (const CostTerm& other : siblings)
    if (!c.name.empty() && other.name == c.name) r.fail(r.required("name"), "name: a cost term named '" + c.name + "' is already defined");
  c.weight = r.number("weight", 1.0);
  if (!std::isfinite(c.weight)) r.fail(r.required("weight"), "weight: not a finite number");
  c.terminal = r.flag("terminal", false);
  const Model& m = p.model;
  switch (c.kind) {
    case K::MarkerPosition:
    case K::MarkerVelocity: {
      const std::string name = r.text("marker");
      const auto k = m.findMarker(name);
      if (!k) r.fail(r.required("marker"), "marker: no marker named '" + name + "' in the model");
      c.marker = *k;
      readTarget(c, r, true);
      break;
    }
    case K::JointPosition: {
      const int iv = coordinateOf(m, r);
      const Joint& joint = m.joints[static_cast<std::size_t>(*m.findJoint(r.text("joint")))];
      if (joint.nq != joint.nv)
        r.fail(r.required("joint"), "joint: joint '" + joint.name + "' has quaternion coordinates (ball or free); "
                                    "a joint_position target needs one of scalar coordinates");
      c.coordinate = joint.iq + (iv - joint.iv);
      readTarget(c, r, false);
      break;
    }
    case K::JointVelocity:
      c.coordinate = coordinateOf(m, r);
      readTarget(c, r, false);
      break;
    case K::ControlEffort: {
      if (c.terminal) r.fail(r.required("terminal"), "terminal: a control effort is integrated over time");
      c.control = controlOf(p, r);
      c.limit = r.number("limit", 0.0);
      if (!(c.limit >= 0.0) || !std::isfinite(c.limit)) r.fail(r.required("limit"), "limit: must be a non-negative number");
      break;
    }
    case K::BodyAxisAngle:
    case K::BodyVelocity:
      c.body = bodyOf(m, r);
      if (c.kind == K::BodyAxisAngle) {
        for (const auto& [key, v] : {std::pair{"axis", &c.axis}, std::pair{"direction", &c.direction}}) {
          *v = r.vec3(key);
          if (!(v->norm() > 0.0)) r.fail(r.required(key), std::string(key) + ": must not be zero");
          v->normalize();
        }
      }
      break;
  }
  return c;
}

void readCost(OptimalControlProblem& p, const Reader& r) { p.cost.push_back(readTerm(p, r, p.cost)); }

// A constraint: {name, upper, terms: [cost terms]}, G = the terms' functional <= upper.
void readConstraint(OptimalControlProblem& p, const Reader& r) {
  r.allowKeys({"name", "upper", "terms"}, {}, "constraint");
  FunctionalConstraint c;
  c.name = r.text("name");
  for (const FunctionalConstraint& other : p.constraints)
    if (other.name == c.name) r.fail(r.required("name"), "name: a constraint named '" + c.name + "' is already defined");
  c.upper = r.number("upper");
  if (!std::isfinite(c.upper)) r.fail(r.required("upper"), "upper: not a finite number");
  if (forEach(r, "terms", "constraint term", [&](const Reader& t) { c.terms.push_back(readTerm(p, t, c.terms)); }) == 0)
    r.has("terms") ? r.fail(r.required("terms"), "terms: a constraint needs at least one term")
                   : r.fail("terms: a constraint needs at least one term");
  p.constraints.push_back(std::move(c));
}

double positiveFactor(const Reader& r) {
  const double f = r.number("factor");
  if (!(f > 0.0) || !std::isfinite(f)) r.fail(r.required("factor"), "factor: must be a positive number");
  return f;
}

// The feed-forward + feedback study of `articula track` (optimize/tracking.hpp).
void readTracking(ProblemFile& f, const Reader& top) {
  if (!top.has("tracking")) return;
  const OptimalControlProblem& p = f.problem;
  const Reader r = top.child("tracking");
  r.allowKeys({"marker", "feedback", "plant"});
  TrackingStudy s;
  const std::string marker = r.text("marker");
  const auto k = p.model.findMarker(marker);
  if (!k) r.fail(r.required("marker"), "marker: no marker named '" + marker + "' in the model");
  s.marker = *k;
  s.gainFactor.assign(p.controls.size(), 1.0);
  forEach(r, "feedback", "feedback loop", [&](const Reader& e) {
    e.allowKeys({"control", "kp", "kd"});
    FeedbackLoop loop;
    loop.control = controlOf(p, e);
    if (p.controls[static_cast<std::size_t>(loop.control)].kind != ControlInput::Kind::JointForce)
      e.fail(e.required("control"), "control: a PD loop needs a control on a joint coordinate");
    for (const auto& [key, gain] : {std::pair{"kp", &loop.kp}, std::pair{"kd", &loop.kd}}) {
      *gain = e.number(key, 0.0);
      if (!(*gain >= 0.0) || !std::isfinite(*gain)) e.fail(e.required(key), std::string(key) + ": must be a non-negative number");
    }
    s.loops.push_back(loop);
  });
  if (s.loops.empty()) r.fail("feedback: the study needs at least one PD loop");
  forEach(r, "plant", "plant change", [&](const Reader& e) {
    e.allowKeys({"element", "body", "joint", "control", "parameter", "factor"});
    if (e.has("control")) {
      if (e.text("parameter") != "gain") e.fail(e.required("parameter"), "parameter: a control's plant value is its gain");
      s.gainFactor[static_cast<std::size_t>(controlOf(p, e))] = positiveFactor(e);
      return;
    }
    PlantChange c;
    readModelValue(p.model, e, c.parameter);
    c.factor = positiveFactor(e);
    s.plant.push_back(c);
  });
  f.tracking = s;
}

void readOptimizer(OptimizerOptions& o, const Reader& r) {
  r.allowKeys({"algorithm", "max_evaluations", "cost_tolerance", "parameter_tolerance", "cost_scale", "gradient",
               "constraint_tolerance"});
  o.algorithm = r.text("algorithm", o.algorithm);
  const auto& valid = optimizerAlgorithms();
  if (std::find(valid.begin(), valid.end(), o.algorithm) == valid.end())
    r.fail(r.required("algorithm"), "algorithm: expected lbfgs, slsqp, mma, ccsaq or ipopt, got '" + o.algorithm + "'");
  o.maxEvaluations = r.integer("max_evaluations", o.maxEvaluations);
  if (o.maxEvaluations < 1) r.fail(r.required("max_evaluations"), "max_evaluations: must be at least 1");
  o.costTolerance = r.number("cost_tolerance", o.costTolerance);
  o.parameterTolerance = r.number("parameter_tolerance", o.parameterTolerance);
  o.costScale = r.number("cost_scale", o.costScale);
  if (!(o.costScale > 0.0) || !std::isfinite(o.costScale))
    r.fail(r.required("cost_scale"), "cost_scale: must be a positive number");
  o.constraintTolerance = r.number("constraint_tolerance", o.constraintTolerance);
  if (!(o.constraintTolerance > 0.0) || !std::isfinite(o.constraintTolerance))
    r.fail(r.required("constraint_tolerance"), "constraint_tolerance: must be a positive number");
  const std::string g = r.text("gradient", "adjoint");
  if (g == "adjoint") o.gradient = GradientMethod::Adjoint;
  else if (g == "direct") o.gradient = GradientMethod::DirectDifferentiation;
  else if (g == "fd") o.gradient = GradientMethod::FiniteDifference;
  else r.fail(r.required("gradient"), "gradient: expected adjoint, direct or fd, got '" + g + "'");
}

// A continuation stage: the file's problem and optimiser with other cost weights (by term name),
// another initial state, other optimiser settings.
void readStage(ProblemFile& f, const Reader& r) {
  r.allowKeys({"weights", "initial_state", "optimizer"});
  ContinuationStage stage{f.problem, f.optimizer};
  if (r.has("weights")) {
    const YAML::Node weights = r.required("weights");
    if (!weights.IsMap()) r.fail(weights, "weights: expected a map of cost term names to weights, got " + describe(weights));
    for (const auto& entry : weights) {
      const std::string name = r.toText(entry.first, "weights");
      const auto term = std::find_if(stage.problem.cost.begin(), stage.problem.cost.end(),
                                     [&](const CostTerm& c) { return c.name == name; });
      if (name.empty() || term == stage.problem.cost.end())
        r.fail(entry.first, "weights: no cost term named '" + name + "' (give the term a name)");
      term->weight = r.toNumber(entry.second, "weights: " + name);
    }
  }
  forEach(r, "initial_state", "initial state", [&](const Reader& e) { readInitialState(stage.problem.model, e); });
  if (r.has("optimizer")) readOptimizer(stage.options, r.child("optimizer"));
  try {
    checkProblem(stage.problem);
  } catch (const ModelError&) {
    throw;
  } catch (const Error& e) {
    r.fail(e.what());
  }
  f.continuation.push_back(std::move(stage));
}

ProblemFile readProblem(const YAML::Node& doc, const std::string& file) {
  if (!doc.IsMap())
    throw ModelError(yaml::markLocation(file, doc.Mark()), "", "the top level must be a map with keys such as 'model' and 'cost', got " + describe(doc));
  const Reader top(doc, file, "");
  top.allowKeys({"model", "formulation", "threads", "integrator", "step", "final_time", "rtol", "atol", "baumgarte",
                 "checkpoint_interval", "initial_state", "design", "controls", "cost", "constraints", "optimizer", "tracking",
                 "continuation"});
  ProblemFile f;
  OptimalControlProblem& p = f.problem;
  const std::filesystem::path modelPath(top.text("model"));
  f.modelPath = modelPath.is_absolute() ? modelPath.string()
                                        : (std::filesystem::path(file).parent_path() / modelPath).lexically_normal().string();
  std::error_code ec;  // the overload that throws would escape as a filesystem_error (e.g. a name too long)
  if (!std::filesystem::is_regular_file(f.modelPath, ec))
    top.fail(top.required("model"), "model: no model file '" + f.modelPath + "'" + (ec ? " (" + ec.message() + ")" : ""));
  p.model = loadModel(f.modelPath);
  p.formulation = top.text("formulation", "auto");
  if (top.has("formulation")) {
    bool differentiable = p.formulation == "auto" || p.formulation == "absolute";
    for (const FormulationInfo& info : formulations())
      differentiable = differentiable || (info.name == p.formulation && !info.index3);
    if (!differentiable)
      top.fail(top.required("formulation"), "formulation: expected one of the ODE formulations aba, crba, "
                                            "semi-recursive, reference, dca, hdca, absolute (or auto), got '" + p.formulation + "'");
  }
  p.threads = top.integer("threads", 1);
  if (p.threads < 1 || p.threads > 1024) top.fail(top.required("threads"), "threads: expected 1 to 1024");
  p.integrator = top.text("integrator", "rk4");
  if (p.integrator != "euler" && p.integrator != "heun" && p.integrator != "rk4" && p.integrator != "rk45")
    top.fail(top.required("integrator"), "integrator: expected euler, heun, rk4 (fixed step, discrete adjoint) or rk45 (adaptive, continuous adjoint), got '" + p.integrator + "'");
  p.rtol = top.number("rtol", p.rtol);
  p.atol = top.number("atol", p.atol);
  if (!(p.rtol > 0.0) || !(p.rtol < 1.0)) top.fail(top.required("rtol"), "rtol: expected a number in (0, 1)");
  if (!(p.atol > 0.0) || !std::isfinite(p.atol)) top.fail(top.required("atol"), "atol: expected a positive number");
  p.tf = top.number("final_time");
  if (!(p.tf > 0.0) || !std::isfinite(p.tf)) top.fail(top.required("final_time"), "final_time: must be a positive number");
  p.dt = top.number("step");
  if (!(p.dt > 0.0) || !(p.dt <= p.tf)) top.fail(top.required("step"), "step: must be positive and not exceed final_time");
  if (p.tf / p.dt > 1e8) top.fail(top.required("step"), "step: more than 1e8 steps");
  if (top.has("baumgarte")) {
    const Reader b = top.child("baumgarte");
    b.allowKeys({"alpha", "beta"});
    p.baumgarteAlpha = b.number("alpha", 0.0);
    p.baumgarteBeta = b.number("beta", 0.0);
  }
  f.gradient.checkpointInterval = top.integer("checkpoint_interval", 0);
  if (f.gradient.checkpointInterval < 0) top.fail(top.required("checkpoint_interval"), "checkpoint_interval: must not be negative");
  forEach(top, "initial_state", "initial state", [&](const Reader& r) { readInitialState(p.model, r); });
  forEach(top, "design", "design parameter", [&](const Reader& r) { readDesign(p, r); });
  forEach(top, "controls", "control", [&](const Reader& r) { readControl(p, r); });
  if (forEach(top, "cost", "cost term", [&](const Reader& r) { readCost(p, r); }) == 0)
    top.fail(top.has("cost") ? top.required("cost") : doc, "cost: the problem needs at least one cost term");
  forEach(top, "constraints", "constraint", [&](const Reader& r) { readConstraint(p, r); });
  if (top.has("optimizer")) readOptimizer(f.optimizer, top.child("optimizer"));
  readTracking(f, top);
  forEach(top, "continuation", "continuation stage", [&](const Reader& r) { readStage(f, r); });
  if (!p.constraints.empty()) {  // lbfgs takes bounds only
    bool lbfgs = f.optimizer.algorithm == "lbfgs";
    for (const ContinuationStage& stage : f.continuation) lbfgs = lbfgs || stage.options.algorithm == "lbfgs";
    if (lbfgs)
      top.fail(top.has("optimizer") ? top.required("optimizer") : doc,
               "optimizer: the problem has constraints, which lbfgs does not take (bounds only): use slsqp, mma, "
               "ccsaq or ipopt");
  }
  try {
    checkProblem(p);
  } catch (const ModelError&) {
    throw;
  } catch (const Error& e) {
    top.fail(e.what());
  }
  return f;
}

}  // namespace

ProblemFile parseProblemYaml(const std::string& text, const std::string& fileLabel) {
  const YAML::Node doc = yaml::parseDocument(text, fileLabel);
  try {
    return readProblem(doc, fileLabel);
  } catch (const YAML::Exception& e) {
    throw ModelError(yaml::markLocation(fileLabel, e.mark), "", "malformed problem: " + e.msg);
  }
}

ProblemFile loadProblem(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ModelError({path, 0, 0}, "", "cannot read the problem file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 0, 0}, "", "cannot open the problem file (" + std::generic_category().message(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  return parseProblemYaml(text.str(), path);
}

}  // namespace articula
