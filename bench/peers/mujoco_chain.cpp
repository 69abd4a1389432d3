#include <mujoco/mujoco.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "peer.hpp"

namespace peers {

namespace {

// MJCF of the chain: nested bodies, one hinge each, explicit inertials, contacts off.
std::string chainXml(int n, bool spatial) {
  const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"chain\"><option gravity=\"0 -9.81 0\" timestep=\"0.001\"><flag contact=\"disable\"/></option><worldbody>";
  for (int i = 0; i < n; ++i)
    x << "<body name=\"link" << i + 1 << "\" pos=\"" << (i == 0 ? 0.0 : Link::length) << " 0 0\">"
      << "<joint type=\"hinge\" axis=\"" << axes[axisIndex(i, spatial)] << "\" pos=\"0 0 0\"/>"
      << "<inertial pos=\"0.25 0 0\" mass=\"" << Link::mass << "\" diaginertia=\"" << Link::ixx << ' ' << Link::iyy << ' '
      << Link::izz << "\"/>";
  for (int i = 0; i < n; ++i) x << "</body>";
  x << "</worldbody></mujoco>";
  return x.str();
}

class MujocoChain final : public PeerChain {
 public:
  MujocoChain(int n, bool spatial) {
    char path[] = "/tmp/articula-peers-XXXXXX.xml";
    const int fd = mkstemps(path, 4);
    if (fd < 0) throw std::runtime_error("cannot create a temporary MJCF file");
    close(fd);
    std::ofstream(path) << chainXml(n, spatial);
    char error[1000] = "";
    model_ = mj_loadXML(path, nullptr, error, sizeof error);
    std::remove(path);
    if (!model_) throw std::runtime_error(std::string("MuJoCo: ") + error);
    data_ = mj_makeData(model_);
  }
  ~MujocoChain() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }
  std::string engine() const override { return "mujoco"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    for (std::size_t i = 0; i < q.size(); ++i) {
      data_->qpos[i] = q[i];
      data_->qvel[i] = v[i];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    mj_forward(model_, data_);
    qddot.assign(data_->qacc, data_->qacc + model_->nv);
  }
  std::string timedCalls() const override { return "mj_forward (contacts disabled)"; }

 private:
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
};
}  // namespace

std::unique_ptr<PeerChain> makeMujoco(int n, bool spatial) { return std::make_unique<MujocoChain>(n, spatial); }

}  // namespace peers
