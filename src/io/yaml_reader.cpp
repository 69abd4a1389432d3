#include "yaml_reader.hpp"

#include <charconv>
#include <cmath>

namespace articula::yaml {

SourceLocation Reader::locate(const YAML::Node& n) const {
  const YAML::Mark m = n.Mark();
  if (m.is_null()) return locate(node_.Mark().is_null() ? YAML::Node() : node_);
  return {file_, m.line + 1, m.column + 1};
}

void Reader::fail(const YAML::Node& at, const std::string& what) const {
  SourceLocation where{file_, 0, 0};
  if (at.IsDefined() && !at.Mark().is_null()) {
    where.line = at.Mark().line + 1;
    where.column = at.Mark().column + 1;
  } else if (!node_.Mark().is_null()) {
    where.line = node_.Mark().line + 1;
    where.column = node_.Mark().column + 1;
  }
  throw ModelError(where, element_, what);
}

void Reader::allowKeys(std::initializer_list<const char*> allowed) const {
  if (!node_.IsMap()) fail("expected a map of keys and values");
  for (const auto& kv : node_) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    bool ok = false;
    for (const char* a : allowed) ok = ok || key == a;
    if (ok) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail(kv.first, "unknown key '" + key + "' (expected one of: " + list + ")");
  }
}

std::string Reader::text(const char* key) const {
  const YAML::Node n = node_[key];
  if (!n.IsDefined() || n.IsNull()) fail(std::string("missing required key '") + key + "'");
  if (!n.IsScalar()) fail(n, std::string(key) + ": expected a text value");
  return n.Scalar();
}

std::string Reader::text(const char* key, const std::string& fallback) const { return has(key) ? text(key) : fallback; }

double Reader::toNumber(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + ": expected a number");
  const std::string& s = n.Scalar();
  for (const char* special : {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf"})
    if (s == special) fail(n, what + ": '" + s + "' is not a finite number");
  double x = 0.0;
  const char* begin = s.data();
  if (!s.empty() && s[0] == '+') ++begin;
  const auto r = std::from_chars(begin, s.data() + s.size(), x);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) fail(n, what + ": '" + s + "' is not a number");
  if (!std::isfinite(x)) fail(n, what + ": '" + s + "' is not a finite number");
  return x;
}

std::vector<double> Reader::toNumbers(const YAML::Node& n, const std::string& what, int count) const {
  if (!n.IsSequence()) fail(n, what + ": expected a list of " + std::to_string(count) + " numbers");
  if (static_cast<int>(n.size()) != count)
    fail(n, what + ": expected " + std::to_string(count) + " numbers, got " + std::to_string(n.size()));
  std::vector<double> v;
  for (const auto& item : n) v.push_back(toNumber(item, what));
  return v;
}

double Reader::number(const char* key) const {
  const YAML::Node n = node_[key];
  if (!n.IsDefined() || n.IsNull()) fail(std::string("missing required key '") + key + "'");
  return toNumber(n, key);
}

double Reader::number(const char* key, double fallback) const { return has(key) ? number(key) : fallback; }

int Reader::integer(const char* key, int fallback) const {
  if (!has(key)) return fallback;
  const double x = number(key);
  if (x != std::floor(x) || std::abs(x) > 1e6) fail(node_[key], std::string(key) + ": expected a whole number");
  return static_cast<int>(x);
}

bool Reader::flag(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  const YAML::Node n = node_[key];
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail(n, std::string(key) + ": expected true or false");
}

Vec3 Reader::vec3(const char* key) const {
  if (!has(key)) fail(std::string("missing required key '") + key + "'");
  const auto v = toNumbers(node_[key], key, 3);
  return {v[0], v[1], v[2]};
}

Vec3 Reader::vec3(const char* key, const Vec3& fallback) const { return has(key) ? vec3(key) : fallback; }

std::vector<double> Reader::numbers(const char* key) const {
  if (!has(key)) return {};
  const YAML::Node n = node_[key];
  if (n.IsScalar()) return {toNumber(n, key)};
  if (!n.IsSequence()) fail(n, std::string(key) + ": expected a number or a list of numbers");
  std::vector<double> v;
  for (const auto& item : n) v.push_back(toNumber(item, key));
  return v;
}

}  // namespace articula::yaml
