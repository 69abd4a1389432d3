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
    : Error(formatModelError(where, element, what)), where_(where), element_(element), reason_(what) {}

SimulationError::SimulationError(double time, long step, const std::string& what)
    : Error(formatSimulationError(time, step, what)), time_(time), step_(step) {}

}  // namespace articula
