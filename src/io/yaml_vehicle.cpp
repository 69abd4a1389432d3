#include "yaml_vehicle.hpp"

#include <string>

namespace articula::yaml {

namespace {

// Runs `make` and turns an articula::Error from the road's own checks into a located ModelError.
template <class Make>
auto located(const Reader& r, const YAML::Node& at, const std::string& what, Make&& make) {
  try {
    return make();
  } catch (const ModelError&) {
    throw;
  } catch (const Error& e) {
    r.fail(at, what + e.what());
  }
}

void readFeature(RoadProfileBuilder& b, const Reader& f) {
  enum class Kind { Flat, Ramp, Step, Stairs, Bump, Pothole };
  static const std::vector<Choice<Kind>> kinds = {{Kind::Flat, {"flat", {"length"}}},
                                                  {Kind::Ramp, {"ramp", {"length", "rise"}}},
                                                  {Kind::Step, {"step", {"rise"}}},
                                                  {Kind::Stairs, {"stairs", {"count", "rise", "run"}}},
                                                  {Kind::Bump, {"bump", {"length", "height", "segments"}}},
                                                  {Kind::Pothole, {"pothole", {"length", "depth", "segments"}}}};
  const Kind kind = f.choose(kinds, {"type"}, "road feature");
  located(f, f.required("type"), "", [&] {
    switch (kind) {
      case Kind::Flat: b.flat(f.number("length")); break;
      case Kind::Ramp: b.ramp(f.number("length"), f.number("rise")); break;
      case Kind::Step: b.step(f.number("rise")); break;
      case Kind::Stairs: b.stairs(f.integer("count", 0), f.number("rise"), f.number("run")); break;
      case Kind::Bump: b.bump(f.number("length"), f.number("height"), f.integer("segments", 16)); break;
      case Kind::Pothole: b.pothole(f.number("length"), f.number("depth"), f.integer("segments", 16)); break;
    }
    return 0;
  });
}

Road readProfile(const Reader& r) {
  if (!r.has("points") && !r.has("features")) r.fail("a profile needs `points`, `features` or both");
  std::vector<std::pair<YAML::Node, Road::ProfilePoint>> points;
  if (r.has("points")) {
    const YAML::Node list = r.required("points");
    if (!list.IsSequence()) r.fail(list, "points: expected a list of [x, z] pairs, got " + describe(list));
    for (const YAML::Node& p : list) {
      const std::vector<double> xz = r.toNumbers(p, "points", 2);
      points.emplace_back(p, Road::ProfilePoint{xz[0], xz[1]});
    }
    if (points.empty()) r.fail(list, "points: the list is empty");
  }
  if (r.has("start") && !points.empty()) r.fail(r.required("start"), "start: give either `start` or `points`, not both");
  const std::vector<double> start = r.has("start") ? r.toNumbers(r.required("start"), "start", 2) : std::vector<double>{0.0, 0.0};
  RoadProfileBuilder b = points.empty() ? RoadProfileBuilder(start[0], start[1])
                                        : located(r, points[0].first, "points: ", [&] {
                                            return RoadProfileBuilder(points[0].second.x, points[0].second.z);
                                          });
  for (std::size_t k = 1; k < points.size(); ++k)
    located(r, points[k].first, "points: ", [&] { return &b.to(points[k].second.x, points[k].second.z); });
  forEach(r, "features", "road feature", [&](const Reader& f) { readFeature(b, f); });
  return located(r, r.required("type"), "", [&] { return b.build(); });
}

Road readHeightMap(const Reader& r) {
  const std::vector<double> origin = r.toNumbers(r.required("origin"), "origin", 2);
  const std::vector<double> spacing = r.toNumbers(r.required("spacing"), "spacing", 2);
  const YAML::Node rows = r.required("heights");
  if (!rows.IsSequence()) r.fail(rows, "heights: expected a list of rows (one per y, each along x), got " + describe(rows));
  std::vector<double> heights;
  std::size_t nx = 0, ny = 0;
  for (const YAML::Node& row : rows) {
    if (!row.IsSequence()) r.fail(row, "heights: each row must be a list of numbers, got " + describe(row));
    const std::vector<double> values = r.toList(row, "heights");
    if (ny == 0) nx = values.size();
    if (values.size() != nx)
      r.fail(row, "heights: row " + std::to_string(ny) + " has " + std::to_string(values.size()) + " values, the first has " +
                      std::to_string(nx));
    heights.insert(heights.end(), values.begin(), values.end());
    ++ny;
  }
  return located(r, rows, "", [&] {
    return Road::heightMap(origin[0], origin[1], spacing[0], spacing[1], static_cast<int>(nx), static_cast<int>(ny),
                           std::move(heights));
  });
}

MagicFormula readMagicFormula(const Reader& owner) {
  const YAML::Node n = owner.required("magic_formula");
  auto preset = [&](const YAML::Node& at, const std::string& name) {
    if (name == "passenger_car") return MagicFormula::passengerCar();
    if (name == "truck") return MagicFormula::truck();
    owner.fail(at, "magic_formula: unknown preset '" + name + "' (valid: passenger_car, truck)");
  };
  if (n.IsScalar()) return preset(n, owner.toText(n, "magic_formula"));
  if (!n.IsMap()) owner.fail(n, "magic_formula: expected a preset name or a map of coefficients, got " + describe(n));
  const Reader m = owner.child("magic_formula");
  Keys allowed{"preset"};
  for (const auto& c : magicFormulaCoefficients()) allowed.push_back(c.name);
  m.allowKeys(allowed);
  const bool fromPreset = m.has("preset");
  MagicFormula mf = fromPreset ? preset(m.required("preset"), m.text("preset")) : MagicFormula{};
  for (const auto& c : magicFormulaCoefficients()) {
    const std::string key(c.name);
    if (m.has(key.c_str()))
      mf.*c.member = m.number(key.c_str());
    else if (!fromPreset)
      m.fail("missing coefficient " + key + ": without a `preset`, every coefficient must be given");
  }
  return mf;
}

}  // namespace

Road readRoad(const Reader& r) {
  enum class Kind { Flat, Profile, HeightMap };
  static const std::vector<Choice<Kind>> kinds = {{Kind::Flat, {"flat", {"height"}}},
                                                  {Kind::Profile, {"profile", {"points", "start", "features"}}},
                                                  {Kind::HeightMap, {"height_map", {"origin", "spacing", "heights"}}}};
  switch (r.choose(kinds, {"type"}, "road")) {
    case Kind::Flat: return Road::flat(r.number("height", 0.0));
    case Kind::Profile: return readProfile(r);
    case Kind::HeightMap: return readHeightMap(r);
  }
  r.fail("unhandled road type");  // unreachable: choose() returns one of the kinds above
}

const Keys& tyreKeys() {
  static const Keys keys{"body", "centre", "axis", "radius", "radial_stiffness", "radial_damping", "rolling_resistance",
                         "low_speed", "magic_formula"};
  return keys;
}

TyreSpec readTyre(const Reader& r, const std::string& name) {
  TyreSpec s;
  s.name = name;
  s.where = r.where();
  s.body = r.text("body");
  s.centre = r.vec3("centre", Vec3::Zero());
  s.axis = r.vec3("axis", Vec3::UnitZ());
  s.radius = r.number("radius");
  s.radialStiffness = r.number("radial_stiffness");
  s.radialDamping = r.number("radial_damping", 0.0);
  s.rollingResistance = r.number("rolling_resistance", 0.0);
  s.lowSpeed = r.number("low_speed", 1.0);
  s.mf = readMagicFormula(r);
  return s;
}

}  // namespace articula::yaml
