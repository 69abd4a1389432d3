// Articula's other formulations on the chain benchmark model, timed next to the peers in the
// same interleaved rounds as its articulated-body algorithm (peers_main.cpp):
//   semi-recursive  seed 001's mass matrix and forces in world axes, then the tree-sparse
//                   Cholesky factorisation (the formulation's accelerations() on an open tree)
//   dca             Featherstone's divide-and-conquer, accelerations from (q, v), one thread
//   hdca            Hamilton's equations: v and pdot from (q, p), one thread; p = M(q) v is
//                   computed when the state is set (zero for the timed calls' v = 0)
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/model/generators.hpp"
#include "peer.hpp"

namespace peers {

namespace {

void copyState(const std::vector<double>& from, Eigen::VectorXd& to) {
  for (Eigen::Index i = 0; i < to.size(); ++i) to[i] = from[static_cast<std::size_t>(i)];
}

class ArticulaFormulationChain final : public PeerChain {
 public:
  ArticulaFormulationChain(int n, bool spatial, const std::string& formulation)
      : name_(formulation), model_(articula::makeChain(n, spatial)),
        formulation_(articula::makeFormulation(formulation, model_)), q_(model_.nq), v_(model_.nv),
        qdd_(model_.nv) {}
  std::string engine() const override { return "articula " + name_; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    copyState(q, q_);
    copyState(v, v_);
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    formulation_->accelerations(0.0, q_, v_, qdd_);
    qddot.assign(qdd_.data(), qdd_.data() + qdd_.size());
  }
  std::string timedCalls() const override { return "Formulation::accelerations of makeFormulation(\"" + name_ + "\")"; }

 private:
  std::string name_;
  articula::Model model_;
  std::unique_ptr<articula::Formulation> formulation_;
  Eigen::VectorXd q_, v_, qdd_;
};

// HDCA's state is (q, p): its evaluation is Hamilton's equations, which give v and pdot, not
// accelerations, so it is timed but not part of the acceleration checks (the unit tests check
// its pdot against ABA's M vdot + Mdot v to 1e-9 on random trees).
class ArticulaHdcaChain final : public PeerChain {
 public:
  ArticulaHdcaChain(int n, bool spatial)
      : model_(articula::makeChain(n, spatial)), hdca_(model_), q_(model_.nq), v_(model_.nv), p_(model_.nv),
        vOut_(model_.nv), pdot_(model_.nv) {}
  std::string engine() const override { return "articula hdca"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    copyState(q, q_);
    copyState(v, v_);
    // The timed calls keep v = 0, whose momenta M(q) v are zero at every q.
    if (v_.isZero(0.0))
      p_.setZero();
    else
      hdca_.momenta(q_, v_, p_);
  }
  void forwardDynamics(std::vector<double>& pdot) override {
    hdca_.derivatives(0.0, q_, p_, vOut_, pdot_);
    pdot.assign(pdot_.data(), pdot_.data() + pdot_.size());
  }
  std::string timedCalls() const override { return "Hdca::derivatives (v, pdot from q, p)"; }

 private:
  articula::Model model_;
  articula::Hdca hdca_;
  Eigen::VectorXd q_, v_, p_, vOut_, pdot_;
};

}  // namespace

std::unique_ptr<PeerChain> makeArticulaFormulation(int n, bool spatial, const std::string& formulation) {
  if (formulation == "hdca") return std::make_unique<ArticulaHdcaChain>(n, spatial);
  return std::make_unique<ArticulaFormulationChain>(n, spatial, formulation);
}

}  // namespace peers
