#include "model_handle.hpp"

namespace articula::python {

ModelHandle::ModelHandle(Model m)
    : model(std::move(m)),
      ws(model),
      q(model.nq),
      v(model.nv),
      rate(model.nv),
      hdcaVelocity(model.nv),
      hdcaMomentumRate(model.nv) {}

Hdca& ModelHandle::hdca() {
  if (!hdca_) hdca_ = std::make_unique<Hdca>(model);
  return *hdca_;
}

}  // namespace articula::python
