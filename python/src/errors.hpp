// Articula's C++ exceptions as Python exceptions (registered by bindErrors).
#pragma once

#include <utility>

#include "articula/core/error.hpp"
#include "bindings.hpp"

namespace articula::python {

/// Runs `f`, turning an articula::Error it throws into ValueError with the same message: for
/// calls whose only failures are bad arguments (run options, generator parameters).
template <class F>
auto checkedArguments(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const ModelError&) {
    throw;  // articula.ModelError is a ValueError already, and carries where the problem is
  } catch (const Error& e) {
    throw py::value_error(e.what());
  }
}

}  // namespace articula::python
