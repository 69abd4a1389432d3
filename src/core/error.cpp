#include "articula/core/error.hpp"

#include <sstream>

namespace articula {

std::string SourceLocation::str() const {
  std::ostringstream s;
  s << (file.empty() ? "<model>" : file);
  if (line > 0) s << ':' << line;
  if (column > 0) s << ':' << column;
  return s.str();
}

namespace {
// Messages are one line: control characters quoted from the input (a newline inside a
// YAML escape, say) become '?'.
std::string oneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  return s;
}

std::string formatModelError(const SourceLocation& where, const std::string& element, const std::string& what) {
  std::string msg = where.known() ? where.str() + ": " : std::string();
  if (!element.empty()) msg += element + ": ";
  return msg + what;
}

std::string formatSimulationError(double time, long step, const std::string& what) {
  std::ostringstream s;
  s.precision(9);
  s << "at t = " << time << " s (step " << step << "): " << what;
  return s.str();
}
}  // namespace

ModelError::ModelError(const SourceLocation& where, const std::string& element, const std::string& what)
    : Error(formatModelError(where, oneLine(element), oneLine(what))),
      where_(where),
      element_(oneLine(element)),
      reason_(oneLine(what)) {}

SimulationError::SimulationError(double time, long step, const std::string& what)
    : Error(formatSimulationError(time, step, what)), time_(time), step_(step) {}

}  // namespace articula
