// The parts of the Python module `articula` (docs/python.md), each registered by its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace articula::python {

namespace py = pybind11;

void bindErrors(py::module_& m);      // errors.cpp: articula.Error, articula.ModelError
void bindModel(py::module_& m);       // model.cpp: Model, load_model, model_from_yaml_string, models.*
void bindDynamics(py::module_& m);    // dynamics.cpp: rnea, crba, aba, hdca_*
void bindSimulation(py::module_& m);  // simulation.cpp: simulate, SimulationResult, names
void bindOptimization(py::module_& m);  // optimization.cpp: Problem, load_problem

}  // namespace articula::python
