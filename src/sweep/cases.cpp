#include "articula/sweep/cases.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace articula::sweep {

std::string formatNumber(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

namespace {

template <class Elements>
std::string knownNames(const Elements& elements, std::size_t first = 0) {
  std::string names;
  for (std::size_t i = first; i < elements.size(); ++i) names += (names.empty() ? "" : ", ") + elements[i].name;
  return names.empty() ? "none" : names;
}

template <class Elements>
int findByName(const Elements& elements, const std::string& name, std::size_t first = 0) {
  for (std::size_t i = first; i < elements.size(); ++i)
    if (elements[i].name == name) return static_cast<int>(i);
  return -1;
}

// `q0:JOINT` or `q0:JOINT[k]`: one coordinate of a joint whose coordinates are its velocities'
// integrals (no quaternion), k from 0.
int jointCoordinate(const Model& model, const std::string& element, bool velocity) {
  std::string name = element;
  int k = -1;
  if (!name.empty() && name.back() == ']') {
    const std::size_t open = name.rfind('[');
    if (open == std::string::npos) throw Error("expected JOINT or JOINT[k]");
    const char* first = name.data() + open + 1;
    const char* last = name.data() + name.size() - 1;
    const auto r = std::from_chars(first, last, k);
    if (r.ec != std::errc() || r.ptr != last || k < 0) throw Error("expected JOINT[k] with k a whole number from 0");
    name.resize(open);
  }
  const int j = findByName(model.joints, name, 1);
  if (j < 0) throw Error("unknown joint '" + name + "' (joints: " + knownNames(model.joints, 1) + ")");
  const Joint& joint = model.joints[static_cast<std::size_t>(j)];
  if (joint.nq != joint.nv && !velocity)
    throw Error("joint '" + name + "' has a quaternion: its positions cannot be set one by one");
  const int n = joint.nv;
  if (k < 0) {
    if (n != 1) throw Error("joint '" + name + "' has " + std::to_string(n) + " coordinates: name one as " + name + "[k]");
    k = 0;
  }
  if (k >= n)
    throw Error("joint '" + name + "' has " + std::to_string(n) + (n == 1 ? " coordinate" : " coordinates") + " (k from 0 to " +
                std::to_string(n - 1) + ")");
  return (velocity ? joint.iv : joint.iq) + k;
}

// stiffness, damping, rest_length: a point spring-damper; stiffness, damping, rest_position: a
// joint spring-damper.
DesignParameter springParameter(const Model& model, const std::string& property, const std::string& element) {
  using T = DesignParameter::Target;
  DesignParameter p;
  p.name = property + ":" + element;
  const int point = property == "rest_position" ? -1 : findByName(model.pointSprings, element);
  const int joint = property == "rest_length" ? -1 : findByName(model.jointSprings, element);
  if (point >= 0) {
    p.element = point;
    p.target = property == "stiffness" ? T::SpringStiffness : property == "damping" ? T::SpringDamping : T::SpringRestLength;
  } else if (joint >= 0) {
    p.element = joint;
    p.target = property == "stiffness" ? T::JointSpringStiffness
               : property == "damping" ? T::JointSpringDamping
                                       : T::JointSpringRest;
  } else {
    const std::string kinds = property == "rest_length"     ? "spring-damper (point springs: " + knownNames(model.pointSprings)
                              : property == "rest_position" ? "joint spring (joint springs: " + knownNames(model.jointSprings)
                                                            : "spring (point springs: " + knownNames(model.pointSprings) +
                                                                  "; joint springs: " + knownNames(model.jointSprings);
    throw Error("unknown " + kinds + ")");
  }
  return p;
}

}  // namespace

CaseColumn resolveColumn(const Model& model, const std::string& name) {
  CaseColumn c;
  c.name = name;
  if (name == "t_end") {
    c.kind = CaseColumn::Kind::EndTime;
    return c;
  }
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos)
    throw Error("expected PROPERTY:ELEMENT or t_end (properties: mass, stiffness, damping, rest_length, rest_position, q0, v0, gravity)");
  const std::string property = name.substr(0, colon), element = name.substr(colon + 1);
  if (property == "mass") {
    const int b = findByName(model.bodies, element, 1);
    if (b < 0) throw Error("unknown body '" + element + "' (bodies: " + knownNames(model.bodies, 1) + ")");
    c.kind = CaseColumn::Kind::Parameter;
    c.parameter.name = name;
    c.parameter.target = DesignParameter::Target::BodyMass;
    c.parameter.element = b;
  } else if (property == "stiffness" || property == "damping" || property == "rest_length" || property == "rest_position") {
    c.kind = CaseColumn::Kind::Parameter;
    c.parameter = springParameter(model, property, element);
  } else if (property == "q0" || property == "v0") {
    c.kind = property == "q0" ? CaseColumn::Kind::InitialPosition : CaseColumn::Kind::InitialVelocity;
    c.index = jointCoordinate(model, element, property == "v0");
  } else if (property == "gravity") {
    if (element != "x" && element != "y" && element != "z") throw Error("gravity takes a component: gravity:x, gravity:y or gravity:z");
    c.kind = CaseColumn::Kind::Gravity;
    c.index = element[0] - 'x';
  } else {
    throw Error("unknown property '" + property + "' (mass, stiffness, damping, rest_length, rest_position, q0, v0, gravity, t_end)");
  }
  return c;
}

namespace {

struct Field {
  std::string text;
  int column = 0;  // 1-based character column
};

// One CSV line into fields (no quoting: ids and names hold no commas), each trimmed of spaces.
std::vector<Field> splitFields(const std::string& line) {
  std::vector<Field> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::size_t end = comma == std::string::npos ? line.size() : comma;
    std::size_t a = start, b = end;
    while (a < b && (line[a] == ' ' || line[a] == '\t')) ++a;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) --b;
    fields.push_back({line.substr(a, b - a), static_cast<int>(a) + 1});
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

// A case id names a directory: letters, digits, '_', '-', '.', not starting with '.'.
bool usableId(const std::string& id) {
  if (id.empty() || id.size() > 100 || id[0] == '.') return false;
  for (const char ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') return false;
  return true;
}

}  // namespace

CaseTable parseCases(const std::string& text, const std::string& file, const Model& model) {
  CaseTable table;
  std::set<std::string> ids, names;
  bool header = true;
  int lineNumber = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::vector<Field> fields = splitFields(line);
    auto fail = [&](const Field& f, const std::string& element, const std::string& what) -> ModelError {
      return ModelError({file, lineNumber, f.column}, element, what);
    };
    if (header) {
      header = false;
      if (fields[0].text != "id") throw fail(fields[0], "", "the first column must be 'id', found '" + fields[0].text + "'");
      for (std::size_t i = 1; i < fields.size(); ++i) {
        const Field& f = fields[i];
        if (!names.insert(f.text).second) throw fail(f, "column '" + f.text + "'", "appears twice");
        try {
          table.columns.push_back(resolveColumn(model, f.text));
        } catch (const Error& e) {
          throw fail(f, "column '" + f.text + "'", e.what());
        }
      }
      continue;
    }
    if (fields.size() != table.columns.size() + 1)
      throw fail(fields.back(), "", "expected " + std::to_string(table.columns.size() + 1) + " values (id and " +
                                        std::to_string(table.columns.size()) + " columns), found " + std::to_string(fields.size()));
    Case c;
    c.id = fields[0].text;
    if (!usableId(c.id))
      throw fail(fields[0], "", "case id '" + c.id + "' is not usable as a directory name (letters, digits, '_', '-', '.', not first)");
    if (!ids.insert(c.id).second) throw fail(fields[0], "case '" + c.id + "'", "duplicate id");
    for (std::size_t i = 1; i < fields.size(); ++i) {
      const std::string& s = fields[i].text;
      double x = 0.0;
      const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(x))
        throw fail(fields[i], "column '" + table.columns[i - 1].name + "'", "'" + s + "' is not a finite number");
      c.values.push_back(x);
    }
    table.cases.push_back(std::move(c));
  }
  if (header) throw ModelError({file, 0, 0}, "", "no header line (id,COLUMN,...)");
  if (table.cases.empty()) throw ModelError({file, lineNumber, 0}, "", "no cases below the header");
  return table;
}

void applyCase(const CaseTable& table, const Case& c, Model& model, SimulationOptions& options, const Model& reference) {
  using T = DesignParameter::Target;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    const CaseColumn& column = table.columns[i];
    const double x = c.values[i];
    switch (column.kind) {
      case CaseColumn::Kind::Parameter: {
        const T t = column.parameter.target;
        if (t == T::BodyMass && !(x > 0.0)) throw Error(column.name + ": a mass must be positive, got " + formatNumber(x));
        const bool nonNegative = t != T::JointSpringRest;
        if (nonNegative && x < 0.0) throw Error(column.name + ": must not be negative, got " + formatNumber(x));
        writeParameter(model, column.parameter, x, reference);
        break;
      }
      case CaseColumn::Kind::InitialPosition: model.q0[column.index] = x; break;
      case CaseColumn::Kind::InitialVelocity: model.v0[column.index] = x; break;
      case CaseColumn::Kind::Gravity: model.gravity[column.index] = x; break;
      case CaseColumn::Kind::EndTime: options.tEnd = x; break;
    }
  }
}

}  // namespace articula::sweep
