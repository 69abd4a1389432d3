// MJCF models generated in memory and loaded by MuJoCo 2.2.2 through its virtual file system
// (2.2.2 has no mj_parseXMLString; mj_loadXML looks files up in the VFS first, so no
// temporary files are needed). Shared by the chain, the linkages and the car, with the pieces of
// MJCF text they have in common.
#pragma once

#include <mujoco/mujoco.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace peers {

/// Loads the model of files[0] (name, text); the other files are what it includes.
/// Throws std::runtime_error with MuJoCo's message on failure.
mjModel* loadMjcf(const std::vector<std::pair<std::string, std::string>>& files);

/// Numbers separated by spaces, to 17 significant digits (an MJCF vector).
std::string mjcfNumbers(const double* v, std::size_t n);

/// The softness of MuJoCo's equality constraints (a spring-damper, solref, with an impedance,
/// solimp); an empty string keeps MuJoCo's default ("0.02 1", "0.9 0.95 0.001 0.5 2").
struct MujocoSoftness {
  const char* name;
  const char* solref;
  const char* solimp;
};
/// MuJoCo's default softness.
constexpr MujocoSoftness kMujocoDefaultSoftness{"default", "", ""};
/// Tightened as far as MuJoCo lets it: `solref` a time constant at its floor for the step (2 dt;
/// smaller is clamped unless the refsafe flag is off), solimp's impedance at its ceiling 0.9999.
constexpr MujocoSoftness mujocoTightened(const char* solref) {
  return {"tightened", solref, "0.9999 0.9999 0.001 0.5 2"};
}
/// The attributes ` solref="..." solimp="..."` of an equality element (none for a default).
std::string mjcfSoftness(const MujocoSoftness& s);
/// `NAME solref "..." solimp "..."`, with the defaults spelled out.
std::string describeSoftness(const MujocoSoftness& s);

/// Kinetic + potential energy (mj_energyPos: -sum m g.com, zero height at the origin) at the
/// state in d. Recomputes the kinematics and the mass matrix only, so neither the next step nor
/// the constraint solver's warm start change; the energy flag is set for the call only.
double mujocoEnergy(mjModel* m, mjData* d);

}  // namespace peers
