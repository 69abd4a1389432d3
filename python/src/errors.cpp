#include "errors.hpp"

namespace articula::python {

namespace {

// The exception types, created once at import (as pybind11's own py::exception does) and kept
// for the life of the interpreter.
PyObject* errorType = nullptr;
PyObject* modelErrorType = nullptr;

}  // namespace

void bindErrors(py::module_& m) {
  errorType = PyErr_NewExceptionWithDoc("articula.Error",
                                        "Base of Articula's errors: a failure inside the library (for example a "
                                        "singular articulated inertia); the message says what failed and where.",
                                        PyExc_RuntimeError, nullptr);
  // A model error is a bad argument as much as a library error: catchable as either.
  const py::tuple modelErrorBases = py::make_tuple(py::handle(errorType), py::handle(PyExc_ValueError));
  modelErrorType = PyErr_NewExceptionWithDoc(
      "articula.ModelError",
      "A model that cannot be read or is invalid. The message names the file, line, column and element; the "
      "attributes file, line, column (0 when unknown), element and reason hold the parts.",
      modelErrorBases.ptr(), nullptr);
  m.add_object("Error", py::handle(errorType));
  m.add_object("ModelError", py::handle(modelErrorType));

  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const ModelError& e) {
      py::object error = py::reinterpret_borrow<py::object>(modelErrorType)(e.what());
      error.attr("file") = e.where().file;
      error.attr("line") = e.where().line;
      error.attr("column") = e.where().column;
      error.attr("element") = e.element();
      error.attr("reason") = e.reason();
      PyErr_SetObject(modelErrorType, error.ptr());
    } catch (const Error& e) {
      PyErr_SetString(errorType, e.what());
    }
  });
}

}  // namespace articula::python
