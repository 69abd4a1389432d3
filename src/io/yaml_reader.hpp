// Typed, located access to the maps of a YAML model file. Every failure is a
// ModelError naming the file, line and column of the offending node, the element
// being read ("joint 'A'", "loops[2]") and the key path ("shape: size: ...").
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/spatial/spatial.hpp"

namespace articula::yaml {

using Keys = std::vector<std::string_view>;

/// A type name ("revolute", "sine", ...) and the keys that only that type accepts.
struct TypeKeys {
  std::string_view name;
  Keys keys;
};

/// One allowed `type` value: what it selects and the keys only that type accepts.
template <class T>
struct Choice {
  T value;
  TypeKeys keys;
};

/// The single document of a model file. Syntax errors, an empty file and a second
/// document are ModelErrors at their location in `file`.
YAML::Node parseDocument(const std::string& text, const std::string& file);

/// 1-based location of a yaml-cpp mark (0 when it has none).
SourceLocation markLocation(const std::string& file, const YAML::Mark& mark);

/// "a list", "a map", "nothing" or "'text'": what a node is, for messages.
std::string describe(const YAML::Node& n);

class Reader {
 public:
  /// Reads the map `node`; fails (at the node) when it is not a map. `path` is the key
  /// path inside the element that prefixes messages ("shape"), empty at the element itself.
  Reader(YAML::Node node, std::string file, std::string element, std::string path = "");

  /// The map under `key` (required), read as part of the same element.
  Reader child(const char* key) const;

  const std::string& file() const { return file_; }
  const std::string& element() const { return element_; }
  SourceLocation where() const { return locate(node_); }
  /// Location of `n`, or of this map when `n` has none.
  SourceLocation locate(const YAML::Node& n) const;

  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const;
  [[noreturn]] void fail(const std::string& what) const { fail(node_, what); }

  /// Typo protection: rejects keys outside `allowed` + `more`, and keys given twice.
  /// `context` ("for a spherical joint") is added to the message when not empty.
  void allowKeys(const Keys& allowed, const Keys& more = {}, std::string_view context = {}) const;
  /// Reads the required `type`, checks it names one of `types` (else lists them) and
  /// that the keys are in `common` plus that type's own. Returns the index in `types`.
  std::size_t typeOf(const std::vector<TypeKeys>& types, const Keys& common, std::string_view kind) const;
  /// typeOf() over a table of choices; returns the chosen value.
  template <class T>
  T choose(const std::vector<Choice<T>>& choices, const Keys& common, std::string_view kind) const {
    std::vector<TypeKeys> types;
    for (const auto& c : choices) types.push_back(c.keys);
    return choices[typeOf(types, common, kind)].value;
  }

  /// Present with a value (a key with nothing after it counts as absent).
  bool has(const char* key) const;
  /// The value under `key`; fails when it is absent or empty.
  YAML::Node required(const char* key) const;

  // Typed fields: the one-argument forms require the key; the others return the fallback
  // when it is absent. Messages start with the key: "mass: 'heavy' is not a number".
  std::string text(const char* key) const { return toText(required(key), key); }
  std::string text(const char* key, const std::string& fallback) const { return has(key) ? text(key) : fallback; }
  double number(const char* key) const { return toNumber(required(key), key); }
  double number(const char* key, double fallback) const { return has(key) ? number(key) : fallback; }
  int integer(const char* key, int fallback) const;
  bool flag(const char* key, bool fallback) const;
  Vec3 vec3(const char* key) const { return toVec3(required(key), key); }
  Vec3 vec3(const char* key, const Vec3& fallback) const { return has(key) ? vec3(key) : fallback; }
  /// A number or a list of numbers; empty when absent.
  std::vector<double> numbers(const char* key) const { return has(key) ? toList(required(key), key) : std::vector<double>{}; }

  // Conversions of one node; `what` starts the message.
  std::string toText(const YAML::Node& n, const std::string& what) const;
  double toNumber(const YAML::Node& n, const std::string& what) const;
  /// A number or a list of numbers.
  std::vector<double> toList(const YAML::Node& n, const std::string& what) const;
  /// A list of exactly `count` numbers.
  std::vector<double> toNumbers(const YAML::Node& n, const std::string& what, std::size_t count) const;
  Vec3 toVec3(const YAML::Node& n, const std::string& what) const;

 private:
  /// The key node itself (for errors about a key or its empty value); undefined if absent.
  YAML::Node keyNode(const char* key) const;

  YAML::Node node_;
  std::string file_;
  std::string element_;
  std::string path_;
};

/// "joint 'A'" when a list entry has a name, else its place in the list: "joints[2]".
std::string elementLabel(const YAML::Node& item, const char* kind, const char* list, std::size_t index);

/// Calls read(Reader) for each entry of the optional list under `key` of `top`, each entry
/// labelled by elementLabel; returns the count. Fails when the value is not a list.
template <class Read>
std::size_t forEach(const Reader& top, const char* key, const char* kind, Read&& read) {
  if (!top.has(key)) return 0;
  const YAML::Node list = top.required(key);
  if (!list.IsSequence()) top.fail(list, std::string(key) + ": expected a list, got " + describe(list));
  std::size_t index = 0;
  for (const YAML::Node& item : list) {
    read(Reader(item, top.file(), elementLabel(item, kind, key, index)));
    ++index;
  }
  return index;
}

}  // namespace articula::yaml
