// A model as the Python module holds it: the immutable Model and the buffers the dynamics kernels
// work in, sized once, so that repeated kernel calls allocate nothing but their result arrays.
#pragma once

#include <memory>

#include "articula/dynamics/hdca.hpp"
#include "articula/model/model.hpp"

namespace articula::python {

// Thread safety: the kernels run with the GIL held, so one thread at a time uses the buffers;
// simulate() releases the GIL and reads only `model`, which never changes.
class ModelHandle {
 public:
  explicit ModelHandle(Model model);
  // The workspace and the HDCA refer to `model`: the handle stays where it was built.
  ModelHandle(const ModelHandle&) = delete;
  ModelHandle& operator=(const ModelHandle&) = delete;

  const Model model;
  Workspace ws;
  Eigen::VectorXd q, v, rate;  ///< copies of the arguments: q (nq), v (nv), and vdot, tau or p (nv)
  Eigen::VectorXd hdcaVelocity, hdcaMomentumRate;  ///< HDCA results (nv)

  /// The HDCA, built at its first use (it sizes an assembly tree and its handle buffers).
  Hdca& hdca();

 private:
  std::unique_ptr<Hdca> hdca_;
};

}  // namespace articula::python
