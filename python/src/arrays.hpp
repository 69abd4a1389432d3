// numpy arrays in and out of the bindings.
#pragma once

#include <string>
#include <vector>

#include <pybind11/numpy.h>

#include <Eigen/Core>

#include "bindings.hpp"

namespace articula::python {

/// Copies the argument `name` of `function` (any sequence of numbers numpy converts to float64)
/// into `into`, which has the expected size already: no allocation. Raises TypeError when it is
/// not numeric and ValueError when it is not one-dimensional or has another size, naming the
/// argument, the expected size and `sizeName` (what the size is, e.g. "model.nq").
void readVector(const char* function, const char* name, const py::handle& argument, Eigen::VectorXd& into,
                const char* sizeName);

/// A new float64 vector of n entries, and a writable Eigen view of its memory.
struct OutputVector {
  explicit OutputVector(Eigen::Index n) : array(n), values(array.mutable_data(), n) {}
  py::array_t<double> array;
  Eigen::Map<Eigen::VectorXd> values;
};

/// The vector's copy as a new float64 array.
py::array_t<double> toArray(const Eigen::VectorXd& x);

/// A float64 array of `shape` over `data` without copying: the array takes the vector over and
/// frees it when numpy frees the array. data.size() must be the product of `shape`.
py::array_t<double> adoptArray(std::vector<double>&& data, std::vector<py::ssize_t> shape);

}  // namespace articula::python
