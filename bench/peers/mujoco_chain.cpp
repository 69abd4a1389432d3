// The chain in MuJoCo 2.2.2 (C API), built from MJCF generated here (mujoco_load.hpp).
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "mujoco_load.hpp"
#include "peer.hpp"

namespace peers {

namespace {

// MuJoCo parses MJCF with tinyxml2 9, which refuses elements nested deeper than 100, and a
// chain is one nested <body> per link. So the chain is split into files of at most this many
// bodies, each ending in an <include> of the next inside its innermost body: includes are
// expanded after parsing, where no depth limit applies.
constexpr int kBodiesPerFile = 64;

std::string fileName(int part) { return part == 0 ? "chain.xml" : "chain" + std::to_string(part) + ".xml"; }

// Bodies first .. last-1 (0-based), nested, plus the include of the next part if any.
std::string bodiesXml(int first, int last, int n, bool spatial) {
  static const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
  std::ostringstream x;
  x.precision(17);
  for (int i = first; i < last; ++i)
    x << "<body name=\"link" << i + 1 << "\" pos=\"" << (i == 0 ? 0.0 : Link::length) << " 0 0\">"
      << "<joint name=\"joint" << i + 1 << "\" type=\"hinge\" pos=\"0 0 0\" axis=\"" << axes[axisIndex(i, spatial)]
      << "\"/><inertial pos=\"0.25 0 0\" mass=\"" << Link::mass << "\" diaginertia=\"" << Link::ixx << ' '
      << Link::iyy << ' ' << Link::izz << "\"/>";
  if (last < n) x << "<include file=\"" << fileName(last / kBodiesPerFile) << "\"/>";
  for (int i = first; i < last; ++i) x << "</body>";
  return x.str();
}

// Everything that is not rigid-body dynamics is switched off: contacts, limits, equality
// and friction-loss constraints, passive forces (joint damping/springs, also zero by
// default), actuation and sensors. Armature and damping keep their default 0.
const char* kHeader =
    "<mujoco model=\"chain\"><compiler angle=\"radian\" inertiafromgeom=\"false\"/>"
    "<option gravity=\"0 -9.81 0\" timestep=\"0.001\" integrator=\"Euler\">"
    "<flag constraint=\"disable\" contact=\"disable\" limit=\"disable\" equality=\"disable\""
    " frictionloss=\"disable\" passive=\"disable\" actuation=\"disable\" sensor=\"disable\"/></option>";

mjModel* loadChain(int n, bool spatial) {
  std::vector<std::pair<std::string, std::string>> files;
  for (int first = 0; first < n; first += kBodiesPerFile) {
    const int last = std::min(n, first + kBodiesPerFile);
    const std::string bodies = bodiesXml(first, last, n, spatial);
    files.emplace_back(fileName(first / kBodiesPerFile), first == 0
                                                             ? kHeader + ("<worldbody>" + bodies + "</worldbody></mujoco>")
                                                             : "<mujoco>" + bodies + "</mujoco>");
  }
  mjModel* m = loadMjcf(files);
  // The compiled model is the intended one: one dof per link, no limits, damping, armature.
  bool ok = m->nv == n && m->nbody == n + 1;
  for (int j = 0; ok && j < m->njnt; ++j)
    ok = m->jnt_type[j] == mjJNT_HINGE && !m->jnt_limited[j] && m->dof_damping[j] == 0 &&
         m->dof_armature[j] == 0 && m->dof_frictionloss[j] == 0 && m->jnt_stiffness[j] == 0;
  if (!ok) {
    mj_deleteModel(m);
    throw std::runtime_error("MuJoCo: compiled chain differs from the specification");
  }
  return m;
}

class MujocoChain final : public PeerChain {
 public:
  MujocoChain(int n, bool spatial) : model_(loadChain(n, spatial)), data_(mj_makeData(model_)) {}
  ~MujocoChain() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }
  MujocoChain(const MujocoChain&) = delete;
  MujocoChain& operator=(const MujocoChain&) = delete;

  std::string engine() const override { return "mujoco"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    // Hinge qpos is the angle in radians and qvel its rate: one-to-one with q and v.
    for (std::size_t i = 0; i < q.size(); ++i) {
      data_->qpos[i] = q[i];
      data_->qvel[i] = v[i];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    // mj_forward recomputes everything from qpos/qvel (it keeps no validity flags).
    mj_forward(model_, data_);
    qddot.assign(data_->qacc, data_->qacc + model_->nv);
  }
  std::string timedCalls() const override { return "mj_forward (all constraints, passive forces, sensors off)"; }
  bool ownRk4(int steps, double dt, std::vector<double>& q, std::vector<double>& v) override {
    const mjtNum timestep = model_->opt.timestep;
    const int integrator = model_->opt.integrator;
    model_->opt.timestep = dt;
    model_->opt.integrator = mjINT_RK4;
    setState(q, v);
    for (int s = 0; s < steps; ++s) mj_step(model_, data_);
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = data_->qpos[i];
      v[i] = data_->qvel[i];
    }
    model_->opt.timestep = timestep;
    model_->opt.integrator = integrator;
    return true;
  }
  double totalEnergy() override { return mujocoEnergy(model_, data_); }

 private:
  mjModel* model_;
  mjData* data_;
};
}  // namespace

std::unique_ptr<PeerChain> makeMujoco(int n, bool spatial) { return std::make_unique<MujocoChain>(n, spatial); }

}  // namespace peers
