// MJCF models generated in memory and loaded by MuJoCo 2.2.2 through its virtual file system
// (2.2.2 has no mj_parseXMLString; mj_loadXML looks files up in the VFS first, so no
// temporary files are needed). Shared by the chain and the linkages.
#pragma once

#include <mujoco/mujoco.h>

#include <string>
#include <utility>
#include <vector>

namespace peers {

/// Loads the model of files[0] (name, text); the other files are what it includes.
/// Throws std::runtime_error with MuJoCo's message on failure.
mjModel* loadMjcf(const std::vector<std::pair<std::string, std::string>>& files);

/// Kinetic + potential energy (mj_energyPos: -sum m g.com, zero height at the origin) at the
/// state in d. Recomputes the kinematics and the mass matrix only, so neither the next step nor
/// the constraint solver's warm start change; the energy flag is set for the call only.
double mujocoEnergy(mjModel* m, mjData* d);

}  // namespace peers
