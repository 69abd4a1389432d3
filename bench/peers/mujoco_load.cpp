#include "mujoco_load.hpp"

#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace peers {

namespace {
void addFile(mjVFS& vfs, const std::string& name, const std::string& text) {
  if (mj_makeEmptyFileVFS(&vfs, name.c_str(), static_cast<int>(text.size())) != 0)
    throw std::runtime_error("MuJoCo: cannot add " + name + " to the VFS");
  std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, name.c_str())], text.data(), text.size());
}
}  // namespace

mjModel* loadMjcf(const std::vector<std::pair<std::string, std::string>>& files) {
  auto vfs = std::make_unique<mjVFS>();  // ~2 MB of file-name slots: not on the stack
  mj_defaultVFS(vfs.get());
  for (const auto& [name, text] : files) addFile(*vfs, name, text);
  char error[1000] = "";
  mjModel* m = mj_loadXML(files.at(0).first.c_str(), vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!m) throw std::runtime_error(std::string("MuJoCo: ") + error);
  return m;
}

std::string mjcfNumbers(const double* v, std::size_t n) {
  std::ostringstream s;
  s.precision(17);
  for (std::size_t i = 0; i < n; ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

std::string mjcfSoftness(const MujocoSoftness& s) {
  std::string a;
  if (*s.solref) a += std::string(" solref=\"") + s.solref + '"';
  if (*s.solimp) a += std::string(" solimp=\"") + s.solimp + '"';
  return a;
}

std::string describeSoftness(const MujocoSoftness& s) {
  return std::string(s.name) + " solref \"" + (*s.solref ? s.solref : "0.02 1") + "\" solimp \"" +
         (*s.solimp ? s.solimp : "0.9 0.95 0.001 0.5 2") + '"';
}

double mujocoEnergy(mjModel* m, mjData* d) {
  // mj_energyPos/Vel leave 0 unless the energy flag is on; it stays off while timing.
  m->opt.enableflags |= mjENBL_ENERGY;
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_crb(m, d);
  mj_energyPos(m, d);
  mj_energyVel(m, d);
  m->opt.enableflags &= ~mjENBL_ENERGY;
  return d->energy[0] + d->energy[1];
}

}  // namespace peers
