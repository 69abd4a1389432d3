#include "articula/dynamics/natural_coordinates.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/tyre_forces.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

// ---------------------------------------------------------------------------------------------
// Representation. Every constraint and joint-coordinate function is a "form"
//   f(t, x) = scale * (a(x) . b(t, x) - c0(t)),
// a and b affine vectors over at most two bodies: a = sum_s (a_s (x) I_3)^T x_{body s} + k_a, with
// a_s a 4-vector of coefficients on [r; u; v; w] ([1; p] for a point p of the body, [0; d] for a
// direction d fixed in it); the ground's coordinates are constants and go into k. Time enters
// through c0 = f(t) (prescribed displacements) or through b rotating with f(t) (prescribed angles).
// ---------------------------------------------------------------------------------------------

using Vec4 = Eigen::Vector4d;

// Form (a member of NaturalCoordinates, which has external linkage) holds these, so they are not
// in the anonymous namespace.
namespace natural_coordinates_detail {
struct Affine {
  Vec4 c[2] = {Vec4::Zero(), Vec4::Zero()};
  Vec3 k = Vec3::Zero();

  bool varies() const { return !c[0].isZero(0.0) || !c[1].isZero(0.0); }
};
}  // namespace natural_coordinates_detail
using natural_coordinates_detail::Affine;

namespace {

using Gradient = Eigen::Matrix<double, 24, 1>;  // over the two bodies of a form

Affine combine(double wa, const Affine& a, double wb, const Affine& b) {
  Affine r;
  for (int s = 0; s < 2; ++s) r.c[s] = wa * a.c[s] + wb * b.c[s];
  r.k = wa * a.k + wb * b.k;
  return r;
}

// A point or a direction fixed in a body (body 0: the ground), times a weight.
struct Term {
  int body;
  Vec4 c;
};
Term point(int body, const Vec3& p, double w = 1.0) { return {body, Vec4(w, w * p.x(), w * p.y(), w * p.z())}; }
Term direction(int body, const Vec3& d, double w = 1.0) { return {body, Vec4(0.0, w * d.x(), w * d.y(), w * d.z())}; }

Vec3 segment(const Eigen::VectorXd& x, int body, int k) {
  return x.segment<3>(NaturalCoordinates::offset(body) + 3 * k);
}

// Unit vector normal to the unit vector a.
Vec3 normalTo(const Vec3& a) {
  Eigen::Index i;
  a.cwiseAbs().minCoeff(&i);
  return a.cross(Vec3::Unit(i)).normalized();
}

double wrapNear(double angle, double near) {
  constexpr double twoPi = 2.0 * std::numbers::pi;
  if (!std::isfinite(near)) return angle;
  return angle + twoPi * std::round((near - angle) / twoPi);
}

struct BodyFrame {
  Mat3 R;
  Vec3 r;
};
BodyFrame frameOf(const Eigen::VectorXd& x, int body) {
  if (body == 0) return {Mat3::Identity(), Vec3::Zero()};
  BodyFrame f;
  f.r = segment(x, body, 0);
  for (int k = 0; k < 3; ++k) f.R.col(k) = segment(x, body, k + 1);
  return f;
}

// omega = 1/2 sum_k e_k x e_k-dot (exact when R is orthonormal and R-dot = [omega]x R); with the
// accelerations, alpha = 1/2 sum_k e_k x e_k-ddot.
Vec3 halfCrossSum(const Eigen::VectorXd& x, const Eigen::VectorXd& xd, int body) {
  if (body == 0) return Vec3::Zero();
  Vec3 w = Vec3::Zero();
  for (int k = 1; k <= 3; ++k) w += segment(x, body, k).cross(segment(xd, body, k));
  return 0.5 * w;
}

using SmallSquare = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using SmallColumn = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

// Least-squares coordinates of the relative motion m on the motion subspace S (exact when m lies in it).
void onSubspace(const MotionSubspace& S, const Vec6& m, double* out) {
  if (S.cols() == 0) return;
  const SmallSquare StS = S.transpose() * S;
  const SmallColumn y = StS.ldlt().solve(SmallColumn(S.transpose() * m));
  for (int k = 0; k < S.cols(); ++k) out[k] = y[k];
}

}  // namespace

struct NaturalCoordinates::Form {
  int body[2] = {0, 0};
  Affine a, b;
  double c0 = 0.0, scale = 1.0;
  int prescribed = -1;    // index in model.prescribed when the form depends on time
  bool rotating = false;  // with prescribed: b = bCos cos f + bSin sin f; otherwise c0 = f(t)
  Affine bCos, bSin;
  std::vector<int> columns, locals;  // the gradient's structural support: global column, local index (0..23)

  int slot(int b) {
    if (b == 0) return -1;
    for (int s = 0; s < 2; ++s)
      if (body[s] == b) return s;
    for (int s = 0; s < 2; ++s)
      if (body[s] == 0) {
        body[s] = b;
        return s;
      }
    throw Error("internal: a natural-coordinate form over more than two bodies");
  }
  void add(Affine& v, const Term& t) {
    const int s = slot(t.body);
    if (s < 0)
      v.k += t.c.tail<3>();  // the ground: origin 0, axes the world's
    else
      v.c[s] += t.c;
  }
  // Structural support of the gradient: d f / d x[slot s, block k, component i] =
  // scale (a_s[k] b[i] + b_s[k] a[i]).
  void finish() {
    Affine bAbs;  // union of the patterns
    for (int s = 0; s < 2; ++s) bAbs.c[s] = b.c[s].cwiseAbs() + bCos.c[s].cwiseAbs() + bSin.c[s].cwiseAbs();
    bAbs.k = b.k.cwiseAbs() + bCos.k.cwiseAbs() + bSin.k.cwiseAbs();
    std::vector<std::pair<int, int>> entries;
    for (int s = 0; s < 2; ++s) {
      if (body[s] == 0) continue;
      for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i) {
          const bool fromA = a.c[s][k] != 0.0 && (bAbs.varies() || bAbs.k[i] != 0.0);
          const bool fromB = bAbs.c[s][k] != 0.0 && (a.varies() || a.k[i] != 0.0);
          if (fromA || fromB) entries.emplace_back(offset(body[s]) + 3 * k + i, 12 * s + 3 * k + i);
        }
    }
    std::sort(entries.begin(), entries.end());
    columns.clear();
    locals.clear();
    for (const auto& [column, local] : entries) {
      columns.push_back(column);
      locals.push_back(local);
    }
  }
};

// A joint coordinate as a function of the natural coordinates: an angle atan2(s, c) (two forms over
// the same bodies) or a displacement (s alone).
struct NaturalCoordinates::Coordinate {
  bool angle = false;
  Form s, c;
  int iq = 0;  // index of the coordinate in q (the branch of angles)
  std::vector<int> columns, locals;
};

namespace {

using Form = NaturalCoordinates::Form;
using Coordinate = NaturalCoordinates::Coordinate;

Form dotForm(std::initializer_list<Term> a, std::initializer_list<Term> b, double c0 = 0.0, double scale = 1.0) {
  Form f;
  for (const Term& t : a) f.add(f.a, t);
  for (const Term& t : b) f.add(f.b, t);
  f.c0 = c0;
  f.scale = scale;
  f.finish();
  return f;
}

Vec3 value(const Affine& v, const int body[2], const Eigen::VectorXd& x) {
  Vec3 r = v.k;
  for (int s = 0; s < 2; ++s)
    if (body[s] != 0)
      for (int k = 0; k < 4; ++k)
        if (v.c[s][k] != 0.0) r += v.c[s][k] * segment(x, body[s], k);
  return r;
}

Vec3 rate(const Affine& v, const int body[2], const Eigen::VectorXd& xd) {
  Vec3 r = Vec3::Zero();
  for (int s = 0; s < 2; ++s)
    if (body[s] != 0)
      for (int k = 0; k < 4; ++k)
        if (v.c[s][k] != 0.0) r += v.c[s][k] * segment(xd, body[s], k);
  return r;
}

// The time-dependent parts of a form at t: b and its partial time derivatives, c0 and its derivatives.
struct Timed {
  Affine b, bt, btt;
  double c0 = 0.0, c0t = 0.0, c0tt = 0.0;
};

Timed timed(const Form& f, const Model& model, double t) {
  Timed r;
  r.b = f.b;
  r.c0 = f.c0;
  if (f.prescribed < 0) return r;
  const TimeFunction& fn = model.prescribed[static_cast<std::size_t>(f.prescribed)].position;
  const double p = fn.value(t), pt = fn.derivative(t), ptt = fn.secondDerivative(t);
  if (f.rotating) {
    const double c = std::cos(p), s = std::sin(p);
    r.b = combine(c, f.bCos, s, f.bSin);
    const Affine turned = combine(-s, f.bCos, c, f.bSin);  // d b / d p
    r.bt = combine(pt, turned, 0.0, turned);
    r.btt = combine(ptt, turned, -pt * pt, r.b);
  } else {
    r.c0 = p;
    r.c0t = pt;
    r.c0tt = ptt;
  }
  return r;
}

// Value and (optionally) the 24-entry gradient of a form.
double evaluate(const Form& f, const Timed& tf, const Eigen::VectorXd& x, Gradient* gradient) {
  const Vec3 A = value(f.a, f.body, x), B = value(tf.b, f.body, x);
  if (gradient) {
    for (int s = 0; s < 2; ++s)
      for (int k = 0; k < 4; ++k) gradient->segment<3>(12 * s + 3 * k) = f.scale * (f.a.c[s][k] * B + tf.b.c[s][k] * A);
  }
  return f.scale * (A.dot(B) - tf.c0);
}

// Adds w * gradient (over the form's bodies) into Q.
void scatter(const Form& f, double w, const Gradient& g, Eigen::VectorXd& Q) {
  for (int s = 0; s < 2; ++s)
    if (f.body[s] != 0) Q.segment<12>(NaturalCoordinates::offset(f.body[s])) += w * g.segment<12>(12 * s);
}

std::string jointLabel(const Joint& j) { return "joint '" + j.name + "' (" + std::string(jointTypeName(j.type)) + ")"; }

// Frame of a tree joint: J axes and origin in the parent body, the axis and two normals in J.
struct JointFrame {
  Mat3 RJ;
  Vec3 o, a, n1, n2;
};
JointFrame jointFrame(const Joint& j) {
  JointFrame f;
  f.RJ = j.placement.rotationInParent();
  f.o = j.placement.r;
  f.a = j.axis.normalized();
  f.n1 = normalTo(f.a);
  f.n2 = f.a.cross(f.n1);
  return f;
}

// Angle of the child about `a` (normals n1, n2 in J): atan2 of the child's n1 on J's n2 and n1.
Coordinate angleCoordinate(const Joint& j, const Vec3& a, int iq) {
  const JointFrame f = jointFrame(j);
  const Vec3 n1 = normalTo(a), n2 = a.cross(n1);
  Coordinate c;
  c.angle = true;
  c.iq = iq;
  c.s = dotForm({direction(j.child, n1)}, {direction(j.parent, f.RJ * n2)});
  c.c = dotForm({direction(j.child, n1)}, {direction(j.parent, f.RJ * n1)});
  return c;
}

// Displacement of the child origin along e (in J) from J's origin.
Form displacementForm(const Joint& j, const Vec3& e) {
  const JointFrame f = jointFrame(j);
  return dotForm({direction(j.parent, f.RJ * e)}, {point(j.child, Vec3::Zero()), point(j.parent, f.o, -1.0)});
}

Coordinate displacementCoordinate(const Joint& j, const Vec3& e, int iq) {
  Coordinate c;
  c.iq = iq;
  c.s = displacementForm(j, e);
  return c;
}

// The scalar coordinate `dof` of joint j, or an error naming `element`.
Coordinate jointCoordinate(const Joint& j, int dof, const std::string& element) {
  const Vec3 a = j.axis.normalized();
  const int iq = j.iq + dof;
  switch (j.type) {
    case JointType::Revolute:
      return angleCoordinate(j, a, iq);
    case JointType::Prismatic:
      return displacementCoordinate(j, a, iq);
    case JointType::Cylindrical:
      return dof == 0 ? angleCoordinate(j, a, iq) : displacementCoordinate(j, a, iq);
    case JointType::Planar:
      return dof == 2 ? angleCoordinate(j, Vec3::UnitZ(), iq) : displacementCoordinate(j, Vec3::Unit(dof), iq);
    default:
      throw Error("global formulation: " + element + " acts on coordinate " + std::to_string(dof) + " of " +
                  jointLabel(j) + ", which natural coordinates do not support (revolute, prismatic, " +
                  "cylindrical and planar coordinates only)");
  }
}

void finishCoordinate(Coordinate& c) {
  std::vector<std::pair<int, int>> entries;
  for (std::size_t k = 0; k < c.s.columns.size(); ++k) entries.emplace_back(c.s.columns[k], c.s.locals[k]);
  if (c.angle) {
    // Both forms are over (child, parent) in the same slots.
    for (std::size_t k = 0; k < c.c.columns.size(); ++k) entries.emplace_back(c.c.columns[k], c.c.locals[k]);
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  for (const auto& [column, local] : entries) {
    c.columns.push_back(column);
    c.locals.push_back(local);
  }
}

// Value (on the branch of `near`) and gradient of a joint coordinate.
double evaluateCoordinate(const Coordinate& c, const Eigen::VectorXd& x, double near, Gradient& g) {
  const Timed ts{c.s.b, {}, {}, c.s.c0, 0.0, 0.0};
  if (!c.angle) return evaluate(c.s, ts, x, &g);
  Gradient gc;
  const Timed tc{c.c.b, {}, {}, c.c.c0, 0.0, 0.0};
  const double S = evaluate(c.s, ts, x, &g), C = evaluate(c.c, tc, x, &gc);
  const double r2 = S * S + C * C;
  g = (C * g - S * gc) / r2;
  return wrapNear(std::atan2(S, C), near);
}

void appendRow(SparseRows& rows, const std::vector<int>& columns) {
  rows.column.insert(rows.column.end(), columns.begin(), columns.end());
  rows.rowStart.push_back(static_cast<int>(rows.column.size()));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// SparseRows
// ---------------------------------------------------------------------------------------------

void SparseRows::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  for (int r = 0; r < rows(); ++r) {
    double s = 0.0;
    for (int k = rowStart[r]; k < rowStart[r + 1]; ++k) s += value[k] * x[column[k]];
    y[r] = s;
  }
}

void SparseRows::addTransposedProduct(double s, const Eigen::VectorXd& y, Eigen::VectorXd& x) const {
  for (int r = 0; r < rows(); ++r) {
    const double w = s * y[r];
    for (int k = rowStart[r]; k < rowStart[r + 1]; ++k) x[column[k]] += w * value[k];
  }
}

Eigen::MatrixXd SparseRows::dense() const {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows(), columns);
  for (int r = 0; r < rows(); ++r)
    for (int k = rowStart[r]; k < rowStart[r + 1]; ++k) A(r, column[k]) += value[k];
  return A;
}

// ---------------------------------------------------------------------------------------------
// Model conversion
// ---------------------------------------------------------------------------------------------

NaturalCoordinates::NaturalCoordinates(const Model& model)
    : model_(model), bodyMass_(model.bodies.size(), Eigen::Matrix4d::Zero()), gravity_(Eigen::VectorXd::Zero(size())) {
  if (!model.jointLimits.empty() || !model.jointFrictions.empty())
    throw Error("the global formulation does not model joint limits or joint friction yet (the model has " +
                std::to_string(model.jointLimits.size()) + " limits and " + std::to_string(model.jointFrictions.size()) +
                " friction elements): use the hybrid formulation with a structural integrator, or an ODE formulation");
  const int n = model.bodyCount();
  // Mass: integral of [1; p] [1; p]^T dm = [m, m c^T; m c, integral p p^T dm], with
  // integral p p^T dm = tr(Ibar)/2 I - Ibar for the inertia Ibar about the frame origin.
  for (int b = 1; b <= n; ++b) {
    const SpatialInertia& I = model.bodies[b].inertia;
    Eigen::Matrix4d& Mb = bodyMass_[b];
    Mb(0, 0) = I.m;
    Mb.block<3, 1>(1, 0) = I.h;
    Mb.block<1, 3>(0, 1) = I.h.transpose();
    Mb.block<3, 3>(1, 1) = 0.5 * I.Ibar.trace() * Mat3::Identity() - I.Ibar;
    for (int k = 0; k < 4; ++k) gravity_.segment<3>(offset(b) + 3 * k) = Mb(k, 0) * model.gravity;
  }

  auto addConstraint = [&](Form f, const std::string& source) {
    constraints_.push_back(std::move(f));
    constraintSources_.push_back(source);
  };
  // Points pA on body A and pB on body B coincide (3 rows).
  auto coincide = [&](int A, const Vec3& pA, int B, const Vec3& pB, const std::string& source) {
    for (int i = 0; i < 3; ++i) {
      Form f;
      f.a.k = Vec3::Unit(i);
      f.add(f.b, point(A, pA));
      f.add(f.b, point(B, pB, -1.0));
      f.finish();
      addConstraint(std::move(f), source);
    }
  };
  // Direction dA fixed in A stays normal to dB fixed in B (or at the angle whose cosine is c0).
  auto normal = [&](int A, const Vec3& dA, int B, const Vec3& dB, const std::string& source, double c0 = 0.0) {
    addConstraint(dotForm({direction(A, dA)}, {direction(B, dB)}, c0), source);
  };
  // Frames (RA in A, RB in B) parallel: three rows, the rotation vector of RA^T RB to first order.
  auto parallel = [&](int A, const Mat3& RA, int B, const Mat3& RB, const std::string& source) {
    normal(A, RA.col(0), B, RB.col(1), source);
    normal(A, RA.col(1), B, RB.col(2), source);
    normal(A, RA.col(2), B, RB.col(0), source);
  };

  // Rigid bodies: u, v, w orthonormal.
  for (int b = 1; b <= n; ++b) {
    const std::string source = "body '" + model.bodies[b].name + "'";
    for (int k = 0; k < 3; ++k)
      addConstraint(dotForm({direction(b, Vec3::Unit(k))}, {direction(b, Vec3::Unit(k))}, 1.0, 0.5), source);
    for (int k = 0; k < 3; ++k)
      addConstraint(dotForm({direction(b, Vec3::Unit(k))}, {direction(b, Vec3::Unit((k + 1) % 3))}), source);
  }

  // Tree joints.
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const JointFrame f = jointFrame(j);
    const int P = j.parent, C = j.child;
    const std::string source = jointLabel(j);
    // The child origin on the line through J's origin along direction e of J (2 rows).
    auto onLine = [&](const Vec3& e) {
      const Vec3 m1 = normalTo(e), m2 = e.cross(m1);
      for (const Vec3& m : {m1, m2})
        addConstraint(dotForm({direction(P, f.RJ * m)}, {point(C, Vec3::Zero()), point(P, f.o, -1.0)}), source);
    };
    switch (j.type) {
      case JointType::Free:
        break;
      case JointType::Spherical:
        coincide(P, f.o, C, Vec3::Zero(), source);
        break;
      case JointType::Revolute:
        coincide(P, f.o, C, Vec3::Zero(), source);
        normal(P, f.RJ * f.n1, C, f.a, source);
        normal(P, f.RJ * f.n2, C, f.a, source);
        break;
      case JointType::Prismatic:
        normal(P, f.RJ * f.n1, C, f.a, source);
        normal(P, f.RJ * f.n2, C, f.a, source);
        normal(P, f.RJ * f.n2, C, f.n1, source);  // no rotation about the axis
        onLine(f.a);
        break;
      case JointType::Cylindrical:
        normal(P, f.RJ * f.n1, C, f.a, source);
        normal(P, f.RJ * f.n2, C, f.a, source);
        onLine(f.a);
        break;
      case JointType::Universal: {
        const Vec3 b2 = j.axis2.normalized();
        coincide(P, f.o, C, Vec3::Zero(), source);
        normal(P, f.RJ * f.a, C, b2, source, f.a.dot(b2));
        break;
      }
      case JointType::Planar:
        normal(P, f.RJ * Vec3::UnitX(), C, Vec3::UnitZ(), source);
        normal(P, f.RJ * Vec3::UnitY(), C, Vec3::UnitZ(), source);
        addConstraint(dotForm({direction(P, f.RJ * Vec3::UnitZ())}, {point(C, Vec3::Zero()), point(P, f.o, -1.0)}),
                      source);
        break;
      case JointType::Fixed:
        coincide(P, f.o, C, Vec3::Zero(), source);
        parallel(P, f.RJ, C, Mat3::Identity(), source);
        break;
    }
  }

  // Loop constraints.
  for (const LoopConstraint& l : model.loops) {
    const std::string source = "loop constraint '" + l.name + "' (" + std::string(loopTypeName(l.type)) + ")";
    switch (l.type) {
      case LoopConstraint::Type::Ball:
        coincide(l.bodyA, l.pointA, l.bodyB, l.pointB, source);
        break;
      case LoopConstraint::Type::Revolute:
        coincide(l.bodyA, l.pointA, l.bodyB, l.pointB, source);
        normal(l.bodyA, l.rotationA.col(0), l.bodyB, l.rotationB.col(2), source);
        normal(l.bodyA, l.rotationA.col(1), l.bodyB, l.rotationB.col(2), source);
        break;
      case LoopConstraint::Type::Weld:
        coincide(l.bodyA, l.pointA, l.bodyB, l.pointB, source);
        parallel(l.bodyA, l.rotationA, l.bodyB, l.rotationB, source);
        break;
      case LoopConstraint::Type::Distance: {
        // (|d|^2 - L^2) / (2 L): |d| - L to first order, smooth everywhere.
        const double L = l.distance;
        Form f;
        for (Affine* v : {&f.a, &f.b}) {
          f.add(*v, point(l.bodyB, l.pointB));
          f.add(*v, point(l.bodyA, l.pointA, -1.0));
        }
        f.c0 = L * L;
        f.scale = L > 0.0 ? 0.5 / L : 0.5;
        f.finish();
        addConstraint(std::move(f), source);
        break;
      }
    }
  }

  // Prescribed motions: sin(theta - f(t)) for angles, displacement - f(t) for displacements.
  for (std::size_t p = 0; p < model.prescribed.size(); ++p) {
    const PrescribedMotion& pm = model.prescribed[p];
    const Joint& j = model.joints[pm.joint];
    const std::string source = "prescribed motion '" + pm.name + "'";
    const Coordinate c = jointCoordinate(j, pm.dof, source);
    Form f;
    if (c.angle) {
      // (child n1) . (parent: cos f n2 - sin f n1) = sin(theta - f) with theta = atan2(s, c).
      f = c.s;
      f.b = Affine();
      f.bCos = c.s.b;
      f.bSin = combine(-1.0, c.c.b, 0.0, c.c.b);
      f.rotating = true;
    } else {
      f = c.s;
    }
    f.prescribed = static_cast<int>(p);
    f.finish();
    addConstraint(std::move(f), source);
  }

  // Force elements on joint coordinates, and the rows of K and C (tangentRows()).
  for (const JointSpringDamper& s : model.jointSprings) {
    Coordinate c = jointCoordinate(model.joints[s.joint], s.dof, "spring-damper '" + s.name + "'");
    finishCoordinate(c);
    jointSpringCoordinates_.push_back(std::move(c));
    tangentRowOfJointSpring_.push_back(s.stiffness != 0.0 || s.damping != 0.0 ? tangentRowCount_++ : -1);
  }
  for (const JointLoad& l : model.jointLoads) {
    Coordinate c = jointCoordinate(model.joints[l.joint], l.dof, "joint load '" + l.name + "'");
    finishCoordinate(c);
    jointLoadCoordinates_.push_back(std::move(c));
  }
  for (const PointSpringDamper& s : model.pointSprings) {
    Form f;  // |d|^2 / 2
    for (Affine* v : {&f.a, &f.b}) {
      f.add(*v, point(s.bodyB, s.pointB));
      f.add(*v, point(s.bodyA, s.pointA, -1.0));
    }
    f.scale = 0.5;
    f.finish();
    pointSpringForms_.push_back(std::move(f));
    const bool slopes = s.stiffness != 0.0 || s.damping != 0.0 || !s.isLinear();
    tangentRowOfPointSpring_.push_back(slopes ? tangentRowCount_++ : -1);
  }
  for (std::size_t k = 0; k < model.tyres.size(); ++k) {
    tangentRowOfTyre_.push_back(tangentRowCount_);
    tangentRowCount_ += 3;
  }
}

NaturalCoordinates::~NaturalCoordinates() = default;

int NaturalCoordinates::constraintCount() const { return static_cast<int>(constraints_.size()); }

std::string NaturalCoordinates::constraintSource(int row) const {
  return constraintSources_.at(static_cast<std::size_t>(row));
}

// ---------------------------------------------------------------------------------------------
// Mass
// ---------------------------------------------------------------------------------------------

void NaturalCoordinates::multiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  for (int b = 1; b <= model_.bodyCount(); ++b) {
    const int o = offset(b);
    const Eigen::Matrix4d& Mb = bodyMass_[b];
    for (int k = 0; k < 4; ++k) {
      Vec3 s = Vec3::Zero();
      for (int l = 0; l < 4; ++l) s += Mb(k, l) * x.segment<3>(o + 3 * l);
      y.segment<3>(o + 3 * k) = s;
    }
  }
}

Eigen::MatrixXd NaturalCoordinates::denseMassMatrix() const {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(size(), size());
  for (int b = 1; b <= model_.bodyCount(); ++b)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        M.block<3, 3>(offset(b) + 3 * k, offset(b) + 3 * l) = bodyMass_[b](k, l) * Mat3::Identity();
  return M;
}

double NaturalCoordinates::penaltyMassScale() const {
  double mass = 0.0, entry = 0.0;
  for (int b = 1; b <= model_.bodyCount(); ++b) {
    mass = std::max(mass, bodyMass_[b](0, 0));
    entry = std::max(entry, bodyMass_[b].diagonal().maxCoeff());
  }
  return mass > 0.0 ? mass : entry;
}

double NaturalCoordinates::kineticEnergy(const Eigen::VectorXd& xd) const {
  double T = 0.0;
  for (int b = 1; b <= model_.bodyCount(); ++b)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l) T += bodyMass_[b](k, l) * segment(xd, b, k).dot(segment(xd, b, l));
  return 0.5 * T;
}

// ---------------------------------------------------------------------------------------------
// Maps
// ---------------------------------------------------------------------------------------------

void NaturalCoordinates::fromJoint(Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Eigen::VectorXd& x, Eigen::VectorXd& xd) const {
  updateVelocities(model_, ws, q, v);
  for (int b = 1; b <= model_.bodyCount(); ++b) {
    const int o = offset(b);
    const Mat3 R = bodyRotation(ws, b);
    const Vec3 w = angularVelocity(ws, b);
    x.segment<3>(o) = bodyPosition(ws, b);
    xd.segment<3>(o) = pointVelocity(ws, b, Vec3::Zero());
    for (int k = 0; k < 3; ++k) {
      x.segment<3>(o + 3 + 3 * k) = R.col(k);
      xd.segment<3>(o + 3 + 3 * k) = w.cross(R.col(k));
    }
  }
}

void NaturalCoordinates::accelerationsFromJoint(Workspace& ws, const Eigen::VectorXd& vdot,
                                                Eigen::VectorXd& xdd) const {
  updateAccelerations(model_, ws, vdot);
  for (int b = 1; b <= model_.bodyCount(); ++b) {
    const int o = offset(b);
    const Mat3 R = bodyRotation(ws, b);
    const Vec3 w = angularVelocity(ws, b), alpha = angularAcceleration(ws, b);
    xdd.segment<3>(o) = pointAcceleration(ws, b, Vec3::Zero());
    for (int k = 0; k < 3; ++k) xdd.segment<3>(o + 3 + 3 * k) = alpha.cross(R.col(k)) + w.cross(w.cross(R.col(k)));
  }
}

void NaturalCoordinates::positionsToJoint(const Eigen::VectorXd& x, const Eigen::VectorXd& qNear,
                                          Eigen::VectorXd& q) const {
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Joint& j = model_.joints[i];
    const JointFrame f = jointFrame(j);
    const BodyFrame P = frameOf(x, j.parent), C = frameOf(x, i);
    // Pose of the child in the joint frame (R^T for the inverse: x satisfies the constraints).
    const Mat3 R = f.RJ.transpose() * (P.R.transpose() * C.R);
    const Vec3 p = f.RJ.transpose() * (P.R.transpose() * (C.r - P.r) - f.o);
    double* out = q.data() + j.iq;
    const double* near = qNear.data() + j.iq;
    // Angle about unit axis a of the rotation R (which turns about a).
    auto angleAbout = [&](const Vec3& a, double nearAngle) {
      const Vec3 n1 = normalTo(a), n2 = a.cross(n1), m = R * n1;
      return wrapNear(std::atan2(n2.dot(m), n1.dot(m)), nearAngle);
    };
    auto quaternion = [&](double* qq, const double* nearQ) {
      Quat r(R);
      r.normalize();
      const double s = r.w() * nearQ[0] + r.x() * nearQ[1] + r.y() * nearQ[2] + r.z() * nearQ[3] < 0.0 ? -1.0 : 1.0;
      qq[0] = s * r.w();
      qq[1] = s * r.x();
      qq[2] = s * r.y();
      qq[3] = s * r.z();
    };
    switch (j.type) {
      case JointType::Fixed:
        break;
      case JointType::Revolute:
        out[0] = angleAbout(f.a, near[0]);
        break;
      case JointType::Prismatic:
        out[0] = f.a.dot(p);
        break;
      case JointType::Cylindrical:
        out[0] = angleAbout(f.a, near[0]);
        out[1] = f.a.dot(p);
        break;
      case JointType::Universal: {
        // R = R(a, q1) R(b, q2): R b = R(a, q1) b and R^T a = R(b, -q2) a.
        const Vec3 b = j.axis2.normalized(), ab = f.a.cross(b);
        const Vec3 bPerp = b - f.a.dot(b) * f.a, aPerp = f.a - f.a.dot(b) * b;
        const Vec3 Rb = R * b, Rta = R.transpose() * f.a;
        out[0] = wrapNear(std::atan2(Rb.dot(ab), Rb.dot(bPerp)), near[0]);
        out[1] = wrapNear(std::atan2(Rta.dot(ab), Rta.dot(aPerp)), near[1]);
        break;
      }
      case JointType::Spherical:
        quaternion(out, near);
        break;
      case JointType::Planar:
        out[0] = p.x();
        out[1] = p.y();
        out[2] = angleAbout(Vec3::UnitZ(), near[2]);
        break;
      case JointType::Free:
        out[0] = p.x();
        out[1] = p.y();
        out[2] = p.z();
        quaternion(out + 3, near + 3);
        break;
    }
  }
}

void NaturalCoordinates::toJoint(Workspace& ws, const Eigen::VectorXd& x, const Eigen::VectorXd& xd,
                                 const Eigen::VectorXd* xdd, const Eigen::VectorXd& qNear, Eigen::VectorXd& q,
                                 Eigen::VectorXd& v, Eigen::VectorXd* vdot) const {
  positionsToJoint(x, qNear, q);
  updatePositions(model_, ws, q);  // motion subspaces at q
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Joint& j = model_.joints[i];
    if (j.nv == 0) continue;
    const BodyFrame P = frameOf(x, j.parent), C = frameOf(x, i);
    const Vec3 wP = halfCrossSum(x, xd, j.parent), wC = halfCrossSum(x, xd, i);
    const Vec3 rdP = j.parent ? segment(xd, j.parent, 0) : Vec3::Zero(), rdC = segment(xd, i, 0);
    // Relative twist of the child in child coordinates: angular velocity, and the velocity of
    // the child origin relative to the parent-fixed point there.
    Vec6 m;
    m << C.R.transpose() * (wC - wP), C.R.transpose() * (rdC - rdP - wP.cross(C.r - P.r));
    onSubspace(ws.joint[i].S, m, v.data() + j.iv);
  }
  updateVelocities(model_, ws, q, v);
  if (!xdd || !vdot) return;
  // Body accelerations (body coordinates, spatial: [alpha; a_O - w x v_O]) from the natural ones,
  // then vdot from a_i = Xup a_parent + S vdot + c_i.
  for (int b = 1; b <= model_.bodyCount(); ++b) {
    const BodyFrame F = frameOf(x, b);
    const Mat3 Rt = F.R.transpose();
    const Vec3 w = Rt * halfCrossSum(x, xd, b), vO = Rt * segment(xd, b, 0);
    ws.a[b] = Motion(Rt * halfCrossSum(x, *xdd, b), Rt * segment(*xdd, b, 0) - w.cross(vO));
  }
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Joint& j = model_.joints[i];
    if (j.nv == 0) continue;
    const Motion rel = ws.a[i] - ws.Xup[i].apply(ws.a[j.parent]) - ws.c[i];
    onSubspace(ws.joint[i].S, rel.vector(), vdot->data() + j.iv);
  }
}

// ---------------------------------------------------------------------------------------------
// Constraints
// ---------------------------------------------------------------------------------------------

SparseRows NaturalCoordinates::jacobianPattern() const {
  SparseRows J;
  J.columns = size();
  for (const Form& f : constraints_) appendRow(J, f.columns);
  J.value = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(J.column.size()));
  return J;
}

void NaturalCoordinates::constraints(double t, const Eigen::VectorXd& x, Eigen::VectorXd& phi) const {
  for (std::size_t r = 0; r < constraints_.size(); ++r) {
    const Form& f = constraints_[r];
    phi[static_cast<Eigen::Index>(r)] = evaluate(f, timed(f, model_, t), x, nullptr);
  }
}

void NaturalCoordinates::jacobian(double t, const Eigen::VectorXd& x, Eigen::VectorXd& phi, SparseRows& J,
                                  Eigen::VectorXd& nu) const {
  Gradient g;
  int k = 0;
  for (std::size_t r = 0; r < constraints_.size(); ++r) {
    const Form& f = constraints_[r];
    const Timed tf = timed(f, model_, t);
    phi[static_cast<Eigen::Index>(r)] = evaluate(f, tf, x, &g);
    for (int local : f.locals) J.value[k++] = g[local];
    // nu = -Phi_t = -scale (a . b_t - c0_t)
    nu[static_cast<Eigen::Index>(r)] =
        f.prescribed < 0 ? 0.0 : -f.scale * (value(f.a, f.body, x).dot(value(tf.bt, f.body, x)) - tf.c0t);
  }
}

void NaturalCoordinates::accelerationBias(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd,
                                          Eigen::VectorXd& gamma) const {
  // d2/dt2 (a . b - c0) = (a-ddot . b + a . b-ddot)_linear in x-ddot + 2 a-dot . b-dot
  //                        + a . (2 b_t-dot + b_tt) - c0_tt,
  // with b-dot = b(x-dot) + b_t(x) the total rate and b_t-dot = b_t(x-dot).
  for (std::size_t r = 0; r < constraints_.size(); ++r) {
    const Form& f = constraints_[r];
    const Timed tf = timed(f, model_, t);
    const Vec3 ad = rate(f.a, f.body, xd);
    Vec3 bd = rate(tf.b, f.body, xd);
    double extra = 0.0;
    if (f.prescribed >= 0) {
      bd += value(tf.bt, f.body, x);
      extra = value(f.a, f.body, x).dot(2.0 * rate(tf.bt, f.body, xd) + value(tf.btt, f.body, x)) - tf.c0tt;
    }
    gamma[static_cast<Eigen::Index>(r)] = -f.scale * (2.0 * ad.dot(bd) + extra);
  }
}

// ---------------------------------------------------------------------------------------------
// Applied forces
// ---------------------------------------------------------------------------------------------

NaturalCoordinates::TangentRows NaturalCoordinates::tangentRows() const {
  TangentRows t;
  SparseRows& rows = t.gradients;
  rows.columns = size();
  // Rows in the order the constructor numbered them: joint springs, point springs, tyres.
  for (std::size_t k = 0; k < jointSpringCoordinates_.size(); ++k)
    if (tangentRowOfJointSpring_[k] >= 0) appendRow(rows, jointSpringCoordinates_[k].columns);
  for (std::size_t k = 0; k < pointSpringForms_.size(); ++k)
    if (tangentRowOfPointSpring_[k] >= 0) appendRow(rows, pointSpringForms_[k].columns);
  for (const Tyre& tyre : model_.tyres) {
    std::vector<int> wheel(kPerBody);
    for (int i = 0; i < kPerBody; ++i) wheel[static_cast<std::size_t>(i)] = offset(tyre.body) + i;
    for (int direction = 0; direction < 3; ++direction) appendRow(rows, wheel);
  }
  rows.value = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows.column.size()));
  t.stiffness = t.damping = Eigen::VectorXd::Zero(tangentRowCount_);
  return t;
}

std::vector<NaturalCoordinates::ForceSupport> NaturalCoordinates::forceSupports() const {
  std::vector<ForceSupport> supports;
  // A spring-damper or a joint load is w grad f, over the support of grad f; w reads f and, with
  // damping, its rate grad f . x-dot (appliedForces).
  auto gradientForce = [&](const std::vector<int>& columns, bool rate) {
    supports.push_back({columns, columns, rate ? columns : std::vector<int>{}});
  };
  for (std::size_t k = 0; k < jointSpringCoordinates_.size(); ++k)
    gradientForce(jointSpringCoordinates_[k].columns, model_.jointSprings[k].damping != 0.0);
  for (const Coordinate& c : jointLoadCoordinates_) gradientForce(c.columns, false);
  for (std::size_t k = 0; k < pointSpringForms_.size(); ++k)
    gradientForce(pointSpringForms_[k].columns,
                  model_.pointSprings[k].damping != 0.0 || model_.pointSprings[k].hasDampingCurve() ||
                      model_.pointSprings[k].hasFriction());
  // A body force adds to r and to the axes (weighted by the point), a torque to the axes; it reads
  // the axes when it turns with the body, and a torque always does.
  for (const BodyLoad& l : model_.bodyLoads) {
    if (l.body == 0) continue;
    ForceSupport s;
    const int o = offset(l.body);
    for (int i = l.torque ? 3 : 0; i < kPerBody; ++i) s.rows.push_back(o + i);
    if (l.torque || !l.worldFrame)
      for (int i = 3; i < kPerBody; ++i) s.positions.push_back(o + i);
    supports.push_back(std::move(s));
  }
  // A tyre reads its wheel's whole pose and velocity and adds to all of its entries.
  for (const Tyre& tyre : model_.tyres) {
    std::vector<int> all;
    for (int i = 0; i < kPerBody; ++i) all.push_back(offset(tyre.body) + i);
    supports.push_back({all, all, all});
  }
  return supports;
}

void NaturalCoordinates::appliedForces(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd,
                                       const Eigen::VectorXd& qNear, Eigen::VectorXd& Q, TangentRows* tangent) const {
  Q = gravity_;
  Gradient g;
  // Row `row` of the tangent: factor times the form's gradient, and its coefficients k and c.
  auto storeRow = [&](int row, const std::vector<int>& locals, const Gradient& gradient, double factor, double k,
                      double c) {
    if (!tangent || row < 0) return;
    int e = tangent->gradients.rowStart[row];
    for (int local : locals) tangent->gradients.value[e++] = factor * gradient[local];
    tangent->stiffness[row] = k;
    tangent->damping[row] = c;
  };
  auto dotRate = [&](const std::vector<int>& columns, const std::vector<int>& locals, const Gradient& gradient) {
    double s = 0.0;
    for (std::size_t k = 0; k < columns.size(); ++k) s += gradient[locals[k]] * xd[columns[k]];
    return s;
  };
  for (std::size_t k = 0; k < model_.jointSprings.size(); ++k) {
    const JointSpringDamper& s = model_.jointSprings[k];
    const Coordinate& c = jointSpringCoordinates_[k];
    const double phi = evaluateCoordinate(c, x, qNear[c.iq], g);
    const double tau = s.force(t, phi, dotRate(c.columns, c.locals, g));
    scatter(c.s, tau, g, Q);
    storeRow(tangentRowOfJointSpring_[k], c.locals, g, 1.0, s.stiffness, s.damping);
  }
  for (std::size_t k = 0; k < model_.jointLoads.size(); ++k) {
    const Coordinate& c = jointLoadCoordinates_[k];
    evaluateCoordinate(c, x, qNear[c.iq], g);
    scatter(c.s, model_.jointLoads[k].magnitude.value(t), g, Q);
  }
  for (std::size_t k = 0; k < model_.pointSprings.size(); ++k) {
    const PointSpringDamper& s = model_.pointSprings[k];
    const Form& f = pointSpringForms_[k];
    const Vec3 d = value(f.a, f.body, x), dd = rate(f.a, f.body, xd);
    const double L = d.norm();
    if (L < 1e-12) {
      if (s.restLength > 0.0)
        throw Error("spring '" + s.name + "': its end points coincide, so the direction of a force with rest length " +
                    std::to_string(s.restLength) + " m is undefined");
      g.setZero();
      storeRow(tangentRowOfPointSpring_[k], f.locals, g, 0.0, 0.0, 0.0);  // no gradient at zero length
      continue;
    }
    evaluate(f, Timed{f.b, {}, {}, 0.0, 0.0, 0.0}, x, &g);  // gradient of |d|^2 / 2 = L grad L
    const JointForce tension = pointSpringTension(s, L, d.dot(dd) / L);
    scatter(f, -tension.tau / L, g, Q);
    storeRow(tangentRowOfPointSpring_[k], f.locals, g, 1.0 / L, tension.dq, tension.dqd);
  }
  for (const BodyLoad& l : model_.bodyLoads) {
    if (l.body == 0) continue;
    const BodyFrame F = frameOf(x, l.body);
    const double m = l.magnitude.value(t);
    const Vec3 vec = l.worldFrame ? Vec3(l.direction * m) : Vec3(F.R * l.direction * m);
    const int o = offset(l.body);
    if (l.torque) {
      // Power n . omega = 1/2 sum_k n . (e_k x e_k-dot) = sum_k (1/2 n x e_k) . e_k-dot.
      for (int k = 0; k < 3; ++k) Q.segment<3>(o + 3 + 3 * k) += 0.5 * vec.cross(F.R.col(k));
    } else {
      Q.segment<3>(o) += vec;
      for (int k = 0; k < 3; ++k) Q.segment<3>(o + 3 + 3 * k) += l.point[k] * vec;
    }
  }
  for (std::size_t k = 0; k < model_.tyres.size(); ++k) {
    const Tyre& tyre = model_.tyres[k];
    const BodyFrame F = frameOf(x, tyre.body);
    const int o = offset(tyre.body);
    Vec3 centreVelocity = xd.segment<3>(o);
    for (int i = 0; i < 3; ++i) centreVelocity += tyre.centre[i] * xd.segment<3>(o + 3 + 3 * i);
    const TyreResponse r =
        tyreResponse(tyre, model_.road, WheelState{F.R, F.r, centreVelocity, halfCrossSum(x, xd, tyre.body)});
    const int row = tangentRowOfTyre_[k];
    if (tangent) {
      tangent->stiffness.segment<3>(row).setZero();
      tangent->damping.segment<3>(row).setZero();
    }
    if (r.Fz == 0.0) continue;
    // The force at the contact point, a point of the wheel: its body coordinates weight the axes.
    const Vec3 p = F.R.transpose() * (r.point - F.r);
    Q.segment<3>(o) += r.force;
    for (int i = 0; i < 3; ++i) Q.segment<3>(o + 3 + 3 * i) += p[i] * r.force + 0.5 * r.moment.cross(F.R.col(i));
    if (!tangent) continue;
    // The contact point's displacement along n, e_x and e_y: a^T [I, p_x I, p_y I, p_z I].
    const Vec3 directions[3] = {r.normal, r.longitudinal, r.lateral};
    for (int d = 0; d < 3; ++d) {
      double* value = tangent->gradients.value.data() + tangent->gradients.rowStart[row + d];
      for (int i = 0; i < 4; ++i)
        Eigen::Map<Vec3>(value + 3 * i) = (i == 0 ? 1.0 : p[i - 1]) * directions[d];
    }
    tangent->stiffness[row] = tyre.radialStiffness;
    tangent->damping.segment<3>(row) = tyreTangentDamping(tyre, r);
  }
}

}  // namespace articula
