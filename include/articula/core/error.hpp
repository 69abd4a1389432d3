// Exceptions that carry what failed and where. The CLI turns each into one line
// and a non-zero exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace articula {

/// Position in a source file (1-based; 0 when unknown).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const { return !file.empty() || line > 0; }
  /// "file:line:column" with the parts that are known.
  std::string str() const;
};

/// Base of every Articula exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Invalid model description: names the element and, when loaded from a file,
/// the file, line and column.
/// A problem in a model or its file; element and reason are kept on one line (control
/// characters quoted from the input become '?').
class ModelError : public Error {
 public:
  ModelError(const SourceLocation& where, const std::string& element, const std::string& what);
  const SourceLocation& where() const { return where_; }
  const std::string& element() const { return element_; }
  const std::string& reason() const { return reason_; }

 private:
  SourceLocation where_;
  std::string element_;
  std::string reason_;
};

/// Failure during a run (non-finite state, singular system, no convergence).
class SimulationError : public Error {
 public:
  SimulationError(double time, long step, const std::string& what);
  double time() const { return time_; }
  long step() const { return step_; }

 private:
  double time_;
  long step_;
};

}  // namespace articula
