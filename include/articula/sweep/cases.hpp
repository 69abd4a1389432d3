// The cases of an ensemble (`articula sweep`, docs/sweep.md): a CSV table whose first column is
// a case id and whose other columns each name one quantity that varies (`mass:upper`,
// `q0:shoulder`, `stiffness:spring1`, `gravity:y`, `t_end`), resolved against the model.
#pragma once

#include <string>
#include <vector>

#include "articula/optimize/problem.hpp"
#include "articula/simulate/simulation.hpp"

namespace articula::sweep {

/// What one column of a cases table changes.
struct CaseColumn {
  enum class Kind {
    Parameter,        ///< a body's mass or a spring's stiffness, damping, rest length (optimize/problem.hpp)
    InitialPosition,  ///< q0 of one joint coordinate
    InitialVelocity,  ///< v0 of one joint coordinate
    Gravity,          ///< one component of the gravity
    EndTime,          ///< the run's end time
  };
  std::string name;  ///< as written in the header
  Kind kind = Kind::EndTime;
  DesignParameter parameter;  ///< Kind::Parameter
  int index = 0;              ///< the coordinate in q0 or v0, or the gravity component
};

/// Resolves a column name (docs/sweep.md) against the model; throws articula::Error with the
/// reason (an unknown property, an unknown element listing the known ones).
CaseColumn resolveColumn(const Model& model, const std::string& name);

struct Case {
  std::string id;
  std::vector<double> values;  ///< one per column
};

struct CaseTable {
  std::vector<CaseColumn> columns;
  std::vector<Case> cases;
};

/// Reads a cases table. A bad table (no id column, an unknown column or element, a value that is
/// not a finite number, a row of the wrong length, a duplicate or unusable id, no case) throws
/// ModelError at `file:line:column`.
CaseTable parseCases(const std::string& text, const std::string& file, const Model& model);

/// Writes case `c` into a copy of the model and options. Throws articula::Error naming the column
/// when a value is not allowed there (a mass that is not positive, a negative stiffness): such a
/// case fails, the sweep goes on. `reference` is the unchanged model (a mass scales its inertia).
void applyCase(const CaseTable& table, const Case& c, Model& model, SimulationOptions& options, const Model& reference);

/// The shortest text that reads back to the same double.
std::string formatNumber(double x);

}  // namespace articula::sweep
