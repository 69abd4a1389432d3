#include "yaml_values.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <numbers>

namespace articula::yaml {

namespace {

// A strictly positive number (shape dimensions).
double positive(const Reader& r, const char* key) {
  const double x = r.number(key);
  if (!(x > 0.0)) r.fail(r.required(key), std::string(key) + ": must be positive, got " + describe(r.required(key)));
  return x;
}

// "#rrggbb" or "#rgb", as the viewers read it.
bool isColor(const std::string& s) {
  if (s.size() != 7 && s.size() != 4) return false;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return s[0] == '#';
}

enum class Fn { Constant, Sine, Polynomial, SmoothStep, Table, Slalom, SineWithDwell };

TimeFunction readTable(const Reader& r) {
  const YAML::Node time = r.required("time"), value = r.required("value");
  const std::vector<double> t = r.toList(time, "time"), v = r.toList(value, "value");
  if (t.size() < 2) r.fail(time, "time: a table needs at least 2 points, got " + std::to_string(t.size()));
  if (v.size() != t.size())
    r.fail(value, "value: expected " + std::to_string(t.size()) + " numbers (one per time), got " + std::to_string(v.size()));
  for (std::size_t i = 1; i < t.size(); ++i)
    if (!(t[i] > t[i - 1]))
      r.fail(time[i], "time: values must be strictly increasing, but " + describe(time[i]) + " follows " + describe(time[i - 1]));
  return TimeFunction::table(t, v);
}

// A driver input's frequency: positive, and small enough that 2 pi f t stays finite.
double positiveFrequency(const Reader& r) {
  const double frequency = r.number("frequency");
  if (!(frequency > 0.0) || !std::isfinite(2.0 * std::numbers::pi * frequency))
    r.fail(r.required("frequency"), "frequency: must be positive and finite (Hz)");
  return frequency;
}

}  // namespace

Mat3 readRotation(const Reader& r, const char* key) { return rpyRotation(r.vec3(key, Vec3::Zero())); }

Mat3 readInertia(const Reader& body) {
  const YAML::Node n = body.required("inertia");
  if (n.IsMap()) {
    const Reader m = body.child("inertia");
    m.allowKeys({"ixx", "iyy", "izz", "ixy", "ixz", "iyz"});
    const double ixx = m.number("ixx"), iyy = m.number("iyy"), izz = m.number("izz");
    const double ixy = m.number("ixy", 0.0), ixz = m.number("ixz", 0.0), iyz = m.number("iyz", 0.0);
    Mat3 I;
    I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    return I;
  }
  if (n.IsSequence() && n.size() > 0 && n[0].IsSequence()) {
    if (n.size() != 3) body.fail(n, "inertia: expected 3 rows of 3 numbers, got " + std::to_string(n.size()) + " rows");
    Mat3 I;
    for (int i = 0; i < 3; ++i) I.row(i) = body.toVec3(n[i], "inertia row " + std::to_string(i + 1)).transpose();
    return I;
  }
  if (n.IsSequence()) return body.toVec3(n, "inertia").asDiagonal();
  body.fail(n, "inertia: expected 3 principal moments, a map {ixx, iyy, izz, ixy, ixz, iyz} or 3 rows of 3 numbers, got " +
                   describe(n));
}

namespace {

// One shape map; `r` reads it (the element's `shape`, or an item of its `shapes`).
Shape readOneShape(const Reader& r) {
  Shape s;
  static const std::vector<Choice<Shape::Kind>> kinds = {{Shape::Kind::Box, {"box", {"size"}}},
                                                         {Shape::Kind::Cylinder, {"cylinder", {"radius", "length"}}},
                                                         {Shape::Kind::Sphere, {"sphere", {"radius"}}},
                                                         {Shape::Kind::Capsule, {"capsule", {"radius", "length"}}},
                                                         {Shape::Kind::Mesh, {"mesh", {"file", "scale"}}}};
  s.kind = r.choose(kinds, {"type", "xyz", "rpy", "color"}, "shape");
  if (s.kind == Shape::Kind::Box) {
    s.size = r.vec3("size");
    if (!(s.size.minCoeff() > 0.0)) r.fail(r.required("size"), "size: every edge must be positive");
  } else if (s.kind == Shape::Kind::Mesh) {
    // A relative mesh path is relative to the model file, as in URDF and SDF. Whether the file
    // exists is the viewer's concern (it draws a placeholder and warns), not the dynamics'.
    const std::filesystem::path file = r.text("file");
    if (file.empty()) r.fail(r.required("file"), "file: expected the path of an STL or OBJ mesh");
    // Stored absolute, so that a model written elsewhere (articula convert) still finds it.
    const std::filesystem::path resolved = file.is_relative() ? std::filesystem::path(r.file()).parent_path() / file : file;
    s.mesh = std::filesystem::absolute(resolved).lexically_normal().string();
    s.scale = r.vec3("scale", Vec3::Ones());
    if (!(s.scale.minCoeff() > 0.0)) r.fail(r.required("scale"), "scale: every factor must be positive");
  } else {
    s.radius = positive(r, "radius");
    if (s.kind != Shape::Kind::Sphere) s.length = positive(r, "length");
  }
  s.position = r.vec3("xyz", Vec3::Zero());
  s.rotation = readRotation(r, "rpy");
  s.color = r.text("color", "");
  if (r.has("color") && !isColor(s.color))
    r.fail(r.required("color"), "color: expected \"#rrggbb\" (quoted: # starts a YAML comment), got " + describe(r.required("color")));
  return s;
}

}  // namespace

std::vector<Shape> readShapes(const Reader& body) {
  if (body.has("shape") && body.has("shapes"))
    body.fail(body.required("shapes"), "shapes: give either one `shape` or a list of `shapes`, not both");
  if (body.has("shape")) return {readOneShape(body.child("shape"))};
  std::vector<Shape> shapes;
  if (!body.has("shapes")) return shapes;
  const YAML::Node list = body.required("shapes");
  if (!list.IsSequence()) body.fail(list, "shapes: expected a list of shapes {type: ...}, got " + describe(list));
  for (std::size_t i = 0; i < list.size(); ++i)
    shapes.push_back(readOneShape(Reader(list[i], body.file(), body.element(), "shapes[" + std::to_string(i) + "]")));
  return shapes;
}

TimeFunction readFunction(const Reader& owner, const char* key) {
  const YAML::Node n = owner.required(key);
  if (n.IsScalar()) return TimeFunction::constant(owner.toNumber(n, key));
  if (!n.IsMap()) owner.fail(n, std::string(key) + ": expected a number or a function {type: ...}, got " + describe(n));
  const Reader r = owner.child(key);
  static const std::vector<Choice<Fn>> kinds = {
      {Fn::Constant, {"constant", {"value"}}},
      {Fn::Sine, {"sine", {"amplitude", "frequency", "phase", "offset"}}},
      {Fn::Polynomial, {"polynomial", {"coefficients"}}},
      {Fn::SmoothStep, {"smooth_step", {"t0", "v0", "t1", "v1"}}},
      {Fn::Table, {"table", {"time", "value"}}},
      {Fn::Slalom, {"slalom", {"amplitude", "frequency", "start", "cycles"}}},
      {Fn::SineWithDwell, {"sine_with_dwell", {"amplitude", "frequency", "start", "dwell"}}}};
  switch (r.choose(kinds, {"type"}, "function")) {
    case Fn::Constant:
      return TimeFunction::constant(r.number("value"));
    case Fn::Sine: {
      const double amplitude = r.number("amplitude"), frequency = r.number("frequency");
      // The angular frequency 2 pi f must stay finite, or sin() turns it into NaN.
      if (!std::isfinite(2.0 * std::numbers::pi * frequency)) r.fail(r.required("frequency"), "frequency: too large");
      return TimeFunction::sine(amplitude, frequency, r.number("phase", 0.0), r.number("offset", 0.0));
    }
    case Fn::Polynomial: {
      const YAML::Node c = r.required("coefficients");
      std::vector<double> coefficients = r.toList(c, "coefficients");
      if (coefficients.empty()) r.fail(c, "coefficients: expected at least one number");
      return TimeFunction::polynomial(std::move(coefficients));
    }
    case Fn::SmoothStep: {
      const double t0 = r.number("t0"), v0 = r.number("v0"), t1 = r.number("t1"), v1 = r.number("v1");
      if (!(t1 > t0)) r.fail(r.required("t1"), "t1: must be later than t0");
      return TimeFunction::smoothStep(t0, v0, t1, v1);
    }
    case Fn::Table:
      return readTable(r);
    case Fn::Slalom: {
      const double frequency = positiveFrequency(r), cycles = r.number("cycles");
      if (!(cycles >= 1.0)) r.fail(r.required("cycles"), "cycles: at least one cycle");
      return TimeFunction::slalom(r.number("amplitude"), frequency, r.number("start", 0.0), cycles);
    }
    case Fn::SineWithDwell: {
      const double frequency = positiveFrequency(r), dwell = r.number("dwell");
      if (!(dwell >= 0.0)) r.fail(r.required("dwell"), "dwell: must be zero or positive (seconds)");
      return TimeFunction::sineWithDwell(r.number("amplitude"), frequency, r.number("start", 0.0), dwell);
    }
  }
  r.fail("unhandled function type");  // unreachable: choose() returns one of the kinds above
}

}  // namespace articula::yaml
