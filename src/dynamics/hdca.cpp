#include "articula/dynamics/hdca.hpp"

#include <type_traits>
#include <vector>

#include "articula/model/planarity.hpp"

namespace articula {

template <class Scalar>
typename BasicHdca<Scalar>::Kernels BasicHdca<Scalar>::makeKernel(const Model& model, const HdcaOptions& options) {
  std::vector<PlanarJoint> joints;
  if (options.planarKernel && describePlanar(model, joints)) return Kernels(std::in_place_index<1>, model, options);
  return Kernels(std::in_place_index<0>, model, options);
}

template <class Scalar>
BasicHdca<Scalar>::BasicHdca(const Model& model, const HdcaOptions& options) : kernel_(makeKernel(model, options)) {}

template <class Scalar>
Vec6 BasicHdca<Scalar>::jointMomentum(int j) const {
  return std::visit(
      [j](const auto& kernel) -> Vec6 {
        using Space = typename std::remove_cvref_t<decltype(kernel)>::VectorSpace;
        return Space::template toWorld<Scalar>(kernel.jointMomenta()[static_cast<std::size_t>(j)]);
      },
      kernel_);
}

template class BasicHdca<double>;
template class BasicHdca<float>;

}  // namespace articula
