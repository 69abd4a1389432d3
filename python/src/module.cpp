// The Python module `articula`: pybind11 bindings of the Articula library (docs/python.md).
#include "bindings.hpp"

PYBIND11_MODULE(articula, m) {
  using namespace articula::python;
  m.doc() =
      "Articula: multibody dynamics (recursive, semi-recursive, index-3 augmented Lagrangian and "
      "Hamiltonian divide-and-conquer formulations) on models in Articula's YAML format.\n\n"
      "SI units throughout; angles in radians. See docs/python.md.";
  m.attr("__version__") = ARTICULA_VERSION;
  bindErrors(m);
  bindModel(m);
  bindDynamics(m);
  bindSimulation(m);
  bindOptimization(m);
}
