// Typed, located access to yaml-cpp nodes: every failure is a ModelError that names
// the file, line, column and the element being read.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/spatial/spatial.hpp"

namespace articula::yaml {

class Reader {
 public:
  Reader(YAML::Node node, std::string file, std::string element)
      : node_(std::move(node)), file_(std::move(file)), element_(std::move(element)) {}

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }
  const std::string& element() const { return element_; }
  SourceLocation where() const { return locate(node_); }
  SourceLocation locate(const YAML::Node& n) const;
  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const;
  [[noreturn]] void fail(const std::string& what) const { fail(node_, what); }

  /// Rejects keys outside `allowed` (typo protection) and requires a map.
  void allowKeys(std::initializer_list<const char*> allowed) const;
  bool has(const char* key) const { return node_[key].IsDefined() && !node_[key].IsNull(); }
  YAML::Node get(const char* key) const { return node_[key]; }

  std::string text(const char* key) const;  ///< required
  std::string text(const char* key, const std::string& fallback) const;
  double number(const char* key) const;  ///< required
  double number(const char* key, double fallback) const;
  int integer(const char* key, int fallback) const;
  bool flag(const char* key, bool fallback) const;
  Vec3 vec3(const char* key, const Vec3& fallback) const;
  Vec3 vec3(const char* key) const;  ///< required
  /// A number or a list of numbers.
  std::vector<double> numbers(const char* key) const;

  /// Converts one scalar node to a finite number.
  double toNumber(const YAML::Node& n, const std::string& what) const;
  /// A list of exactly `count` numbers.
  std::vector<double> toNumbers(const YAML::Node& n, const std::string& what, int count) const;

 private:
  YAML::Node node_;
  std::string file_;
  std::string element_;
};

}  // namespace articula::yaml
