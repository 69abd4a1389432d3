// The linkages in MuJoCo 2.2.2: nested bodies on hinges, each loop an equality constraint
// `connect` (coincident points) solved by MuJoCo's soft-constraint solver, stepped by mj_step
// with its RK4 integrator. MuJoCo's constraints are soft (a spring-damper defined by solref and
// solimp): the loop closure is measured, once with the defaults and once tightened.
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "linkage.hpp"
#include "mujoco_load.hpp"

namespace peers {

namespace {

std::string xyz(const Vec3d& v) { return mjcfNumbers(v.data(), v.size()); }

// Everything but the equality constraints and gravity is off (contacts, limits, friction loss,
// passive forces, actuation, sensors).
std::string mjcf(const Linkage& l, const MujocoSoftness& soft, double dt) {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"" << l.name << "\"><compiler angle=\"radian\" inertiafromgeom=\"false\"/>"
    << "<option gravity=\"" << xyz(l.gravity) << "\" timestep=\"" << dt << "\" integrator=\"RK4\">"
    << "<flag contact=\"disable\" limit=\"disable\" frictionloss=\"disable\" passive=\"disable\""
       " actuation=\"disable\" sensor=\"disable\"/></option><worldbody>";
  std::function<void(int)> children = [&](int parent) {
    for (std::size_t i = 0; i < l.bodies.size(); ++i) {
      const LinkageBody& b = l.bodies[i];
      if (b.parent != parent) continue;
      x << "<body name=\"" << b.name << "\" pos=\"" << xyz(b.joint) << "\"><joint name=\"" << b.name
        << "\" type=\"hinge\" pos=\"0 0 0\" axis=\"0 0 1\"/><inertial pos=\"" << xyz(b.com) << "\" mass=\"" << b.mass
        << "\" diaginertia=\"" << xyz(b.inertia) << "\"/>";
      children(static_cast<int>(i));
      x << "</body>";
    }
  };
  children(-1);
  x << "</worldbody><equality>";
  for (const LinkageLoop& c : l.loops) {
    x << "<connect name=\"" << c.name << "\" body1=\"" << l.bodies[static_cast<std::size_t>(c.bodyA)].name
      << "\" body2=\"" << l.bodies[static_cast<std::size_t>(c.bodyB)].name << "\" anchor=\"" << xyz(c.pointA) << '"'
      << mjcfSoftness(soft) << "/>";
  }
  x << "</equality></mujoco>";
  return x.str();
}

class MujocoLinkage final : public LinkageRun {
 public:
  MujocoLinkage(const Linkage& l, const MujocoSoftness& soft, double dt)
      : linkage_(l), soft_(soft), dt_(dt), model_(loadMjcf({{"linkage.xml", mjcf(l, soft, dt)}})),
        data_(mj_makeData(model_)) {
    if (model_->nv != static_cast<int>(l.bodies.size()) || model_->neq != static_cast<int>(l.loops.size())) {
      mj_deleteData(data_);
      mj_deleteModel(model_);
      throw std::runtime_error("MuJoCo: compiled linkage differs from the specification");
    }
    // MuJoCo numbers bodies depth first; the linkage lists parents first in another order.
    for (const LinkageBody& b : l.bodies) {
      const int j = mj_name2id(model_, mjOBJ_JOINT, b.name.c_str());
      qpos_.push_back(model_->jnt_qposadr[j]);
      dof_.push_back(model_->jnt_dofadr[j]);
    }
    // 2.2.2 takes connect's second point (eq_data[3..5], in body2's frame) from the model's
    // reference configuration qpos0 = 0, where the loop is open: set it to the cut joint's end.
    for (std::size_t k = 0; k < l.loops.size(); ++k)
      for (int i = 0; i < 3; ++i) model_->eq_data[mjNEQDATA * k + 3 + i] = l.loops[k].pointB[static_cast<std::size_t>(i)];
  }
  ~MujocoLinkage() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }
  MujocoLinkage(const MujocoLinkage&) = delete;
  MujocoLinkage& operator=(const MujocoLinkage&) = delete;

  std::string engine() const override { return "mujoco"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "mj_step RK4 dt=" << dt_ << ", connect " << describeSoftness(soft_);
    return s.str();
  }
  Initial initial() override {
    reset();
    mj_forward(model_, data_);
    Initial init;
    for (std::size_t i = 0; i < qpos_.size(); ++i) {
      init.q.push_back(data_->qpos[qpos_[i]]);
      init.v.push_back(data_->qvel[dof_[i]]);
      init.qddot.push_back(data_->qacc[dof_[i]]);
    }
    init.closure = closure();
    init.energy = energy();
    return init;
  }

 protected:
  void reset() override {
    mj_resetData(model_, data_);
    for (std::size_t i = 0; i < linkage_.bodies.size(); ++i) {
      data_->qpos[qpos_[i]] = linkage_.bodies[i].q0;  // a hinge's qpos is the angle, qvel its rate
      data_->qvel[dof_[i]] = linkage_.bodies[i].v0;
    }
    steps_ = 0;
  }
  void advanceTo(double t) override {
    while (data_->time < t - 0.5 * dt_) {
      mj_step(model_, data_);
      ++steps_;
    }
  }
  long steps() const override { return steps_; }
  double closure() override {
    mj_kinematics(model_, data_);
    double worst = 0;
    for (int k = 0; k < model_->neq; ++k) {
      mjtNum p[2][3];
      for (int e = 0; e < 2; ++e) {
        const int body = model_->eq_obj1id[k] * (1 - e) + model_->eq_obj2id[k] * e;
        mju_rotVecMat(p[e], model_->eq_data + mjNEQDATA * k + 3 * e, data_->xmat + 9 * body);
        mju_addTo3(p[e], data_->xpos + 3 * body);
      }
      worst = std::max(worst, std::hypot(p[0][0] - p[1][0], p[0][1] - p[1][1], p[0][2] - p[1][2]));
    }
    return worst;
  }
  double energy() override { return mujocoEnergy(model_, data_); }
  std::vector<double> angles() override {
    std::vector<double> q;
    for (int a : qpos_) q.push_back(data_->qpos[a]);
    return q;
  }

 private:
  Linkage linkage_;
  MujocoSoftness soft_;
  double dt_;
  mjModel* model_;
  mjData* data_;
  std::vector<int> qpos_, dof_;  ///< per linkage body: its hinge's qpos and dof addresses
  long steps_ = 0;
};
}  // namespace

LinkageRuns makeMujocoLinkages(const Linkage& linkage) {
  LinkageRuns runs;
  // The default softness and tightened to its limit for the step of 1e-3 s.
  for (const MujocoSoftness& s : {kMujocoDefaultSoftness, mujocoTightened("0.002 1")})
    runs.push_back(std::make_unique<MujocoLinkage>(linkage, s, 1e-3));
  return runs;
}

}  // namespace peers
