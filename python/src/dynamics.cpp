// The dynamics kernels on numpy arrays: RNEA, CRBA and ABA on the spanning tree, and the HDCA's
// Hamilton equations. Each call copies its arguments into the model's buffers (ModelHandle) and
// writes its result straight into a new numpy array; they are short, so they keep the GIL.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "model_handle.hpp"

namespace articula::python {

namespace {

void readState(const char* function, ModelHandle& h, const py::handle& q, const py::handle& v) {
  readVector(function, "q", q, h.q, "model.nq");
  readVector(function, "v", v, h.v, "model.nv");
}

py::array_t<double> rnea(ModelHandle& h, const py::handle& q, const py::handle& v, const py::handle& a) {
  readState("rnea", h, q, v);
  readVector("rnea", "a", a, h.rate, "model.nv");
  OutputVector tau(h.model.nv);
  inverseDynamics(h.model, h.ws, h.q, h.v, h.rate, nullptr, tau.values);
  return std::move(tau.array);
}

py::array_t<double> crba(ModelHandle& h, const py::handle& q) {
  readVector("crba", "q", q, h.q, "model.nq");
  py::array_t<double, py::array::f_style> M({h.model.nv, h.model.nv});
  Eigen::Map<Eigen::MatrixXd> values(M.mutable_data(), h.model.nv, h.model.nv);  // column-major, as the array
  massMatrix(h.model, h.ws, h.q, values);
  return M;
}

py::array_t<double> aba(ModelHandle& h, const py::handle& q, const py::handle& v, const py::handle& tau) {
  readState("aba", h, q, v);
  readVector("aba", "tau", tau, h.rate, "model.nv");
  OutputVector vdot(h.model.nv);
  forwardDynamics(h.model, h.ws, h.q, h.v, h.rate, nullptr, vdot.values);
  return std::move(vdot.array);
}

py::tuple hdcaDerivatives(ModelHandle& h, double t, const py::handle& q, const py::handle& p) {
  readVector("hdca_derivatives", "q", q, h.q, "model.nq");
  readVector("hdca_derivatives", "p", p, h.rate, "model.nv");
  h.hdca().derivatives(t, h.q, h.rate, h.hdcaVelocity, h.hdcaMomentumRate);
  OutputVector qdot(h.model.nq);
  configurationRate(h.model, h.q, h.hdcaVelocity, qdot.values);
  return py::make_tuple(std::move(qdot.array), toArray(h.hdcaMomentumRate));
}

py::array_t<double> hdcaVelocities(ModelHandle& h, double t, const py::handle& q, const py::handle& p) {
  readVector("hdca_velocities", "q", q, h.q, "model.nq");
  readVector("hdca_velocities", "p", p, h.rate, "model.nv");
  h.hdca().velocities(t, h.q, h.rate, h.hdcaVelocity);
  return toArray(h.hdcaVelocity);
}

py::array_t<double> hdcaMomenta(ModelHandle& h, const py::handle& q, const py::handle& v) {
  readState("hdca_momenta", h, q, v);
  h.hdca().momenta(h.q, h.v, h.rate);
  return toArray(h.rate);
}

}  // namespace

void bindDynamics(py::module_& m) {
  constexpr const char* treeOnly =
      " Rigid-body dynamics of the spanning tree: gravity is included; loop closures, force elements (springs, "
      "dampers, loads) and prescribed motions are not. Raises ValueError when an argument has the wrong size.";
  m.def("rnea", &rnea, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"),
        (std::string("Inverse dynamics (recursive Newton-Euler): the joint forces tau = M(q) a + C(q, v) (nv,), "
                     "N or N m, for positions q (nq,), velocities v (nv,) and accelerations a (nv,).") +
         treeOnly)
            .c_str());
  m.def("crba", &crba, py::arg("model"), py::arg("q"),
        (std::string("Joint-space inertia matrix M(q) (nv, nv), symmetric, by the composite-rigid-body "
                     "algorithm, for positions q (nq,).") +
         treeOnly)
            .c_str());
  m.def("aba", &aba, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau"),
        (std::string("Forward dynamics (articulated-body algorithm, planar kernel on planar models): the "
                     "accelerations vdot = M^-1 (tau - C) (nv,) for positions q (nq,), velocities v (nv,) and "
                     "joint forces tau (nv,). Raises articula.Error naming the joint when an articulated inertia "
                     "is singular.") +
         treeOnly)
            .c_str());
  constexpr const char* hdcaNote =
      " The HDCA works on trees and closed loops and includes gravity, force elements and prescribed motion "
      "(at time t). Raises ValueError when an argument has the wrong size.";
  m.def("hdca_derivatives", &hdcaDerivatives, py::arg("model"), py::arg("t"), py::arg("q"), py::arg("p"),
        (std::string("Hamilton's equations by the Hamiltonian divide-and-conquer algorithm: (qdot (nq,), pdot "
                     "(nv,)) at time t (s), positions q (nq,) and canonical momenta p (nv,) (p = M v on trees, "
                     "p = M v - J^T sigma with loops; see hdca_momenta).") +
         hdcaNote)
            .c_str());
  m.def("hdca_velocities", &hdcaVelocities, py::arg("model"), py::arg("t"), py::arg("q"), py::arg("p"),
        (std::string("The velocities v (nv,) of the canonical momenta p (nv,) at positions q (nq,) and time t: "
                     "M^-1 p on trees, M^-1 (p + J^T sigma) with J v = nu(t) with loops or prescribed motion.") +
         hdcaNote)
            .c_str());
  m.def("hdca_momenta", &hdcaMomenta, py::arg("model"), py::arg("q"), py::arg("v"),
        "The canonical momenta p = M(q) v (nv,) of positions q (nq,) and velocities v (nv,), by one recursion "
        "over the bodies; with loops (v satisfying J v = 0) the momenta with sigma = 0, which hdca_velocities "
        "maps back to v. Raises ValueError when an argument has the wrong size.");
}

}  // namespace articula::python
