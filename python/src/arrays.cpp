#include "arrays.hpp"

namespace articula::python {

void readVector(const char* function, const char* name, const py::handle& argument, Eigen::VectorXd& into,
                const char* sizeName) {
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Array array = Array::ensure(argument);
  if (!array)
    throw py::type_error(std::string(function) + ": argument '" + name + "' must be an array of numbers, not " +
                         std::string(py::str(py::type::of(argument).attr("__name__"))));
  const std::string expected = std::to_string(into.size()) + " entries (" + sizeName + ")";
  if (array.ndim() != 1)
    throw py::value_error(std::string(function) + ": argument '" + name + "' must be one-dimensional with " + expected +
                          ", got " + std::to_string(array.ndim()) + " dimensions");
  if (array.size() != into.size())
    throw py::value_error(std::string(function) + ": argument '" + name + "' must have " + expected + ", got " +
                          std::to_string(array.size()));
  into = Eigen::Map<const Eigen::VectorXd>(array.data(), into.size());
}

py::array_t<double> toArray(const Eigen::VectorXd& x) {
  OutputVector out(x.size());
  out.values = x;
  return std::move(out.array);
}

py::array_t<double> adoptArray(std::vector<double>&& data, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<double>(std::move(data));
  const py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(std::move(shape), owned->data(), owner);
}

}  // namespace articula::python
