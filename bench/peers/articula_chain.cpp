#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/simulate/system.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "peer.hpp"

namespace peers {

namespace {
class ArticulaChain final : public PeerChain {
 public:
  ArticulaChain(int n, bool spatial)
      : model_(articula::makeChain(n, spatial)), ws_(model_), q_(model_.nq), v_(model_.nv),
        tau_(Eigen::VectorXd::Zero(model_.nv)), qdd_(model_.nv) {}
  std::string engine() const override { return "articula"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    for (int i = 0; i < model_.nv; ++i) {
      q_[i] = q[static_cast<std::size_t>(i)];
      v_[i] = v[static_cast<std::size_t>(i)];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    articula::forwardDynamics(model_, ws_, q_, v_, tau_, nullptr, qdd_);
    qddot.assign(qdd_.data(), qdd_.data() + qdd_.size());
  }
  std::string timedCalls() const override { return "articula::forwardDynamics (ABA)"; }
  bool ownRk4(int steps, double dt, std::vector<double>& q, std::vector<double>& v) override {
    // Articula's own RK4 on its ODE form x = [q; v] (what `articula simulate --integrator
    // rk4` steps, without the sampling and output around it).
    setState(q, v);
    articula::MultibodySystem system(model_, articula::makeFormulation("aba", model_),
                                     articula::Stabilization::None);
    articula::IntegratorOptions options;
    options.dt = dt;
    const auto rk4 = articula::makeIntegrator("rk4", options);
    Eigen::VectorXd x(2 * model_.nv);
    x << q_, v_;
    rk4->initialize(system, 0.0, x);
    for (int s = 0; s < steps; ++s) rk4->step(steps * dt);
    for (int i = 0; i < model_.nv; ++i) {
      q[static_cast<std::size_t>(i)] = rk4->state()[i];
      v[static_cast<std::size_t>(i)] = rk4->state()[model_.nv + i];
    }
    return true;
  }
  double totalEnergy() override {
    articula::updateVelocities(model_, ws_, q_, v_);
    return articula::kineticEnergy(model_, ws_) + articula::potentialEnergy(model_, ws_, q_);
  }

 private:
  articula::Model model_;
  articula::Workspace ws_;
  Eigen::VectorXd q_, v_, tau_, qdd_;
};
}  // namespace

std::unique_ptr<PeerChain> makeArticula(int n, bool spatial) { return std::make_unique<ArticulaChain>(n, spatial); }

}  // namespace peers
