// Simbody's Runge-Kutta-Merson as the peers program sets it up for the linkages and the car
// (simbody_linkage.cpp, simbody_car.cpp): error-controlled or at a fixed step, with a constraint
// tolerance and Simbody's projection onto the constraints. C++17 (see CMakeLists.txt).
#pragma once

#include <Simbody.h>

#include <cstdio>
#include <memory>
#include <string>

#include "linkage.hpp"  // Vec3d

namespace peers {

inline SimTK::Vec3 simbodyVec(const Vec3d& v) { return SimTK::Vec3(v[0], v[1], v[2]); }

struct RkmSetting {
  double fixedStep;  ///< > 0: RKM at this fixed step; 0: error-controlled
  double accuracy;
  double constraintTolerance;
  bool projectEveryStep;  ///< false: Simbody's default, project when the error exceeds the tolerance
};

inline std::unique_ptr<SimTK::RungeKuttaMersonIntegrator> makeRkm(const SimTK::System& system, const RkmSetting& s) {
  auto integ = std::make_unique<SimTK::RungeKuttaMersonIntegrator>(system);
  integ->setAccuracy(s.accuracy);
  integ->setConstraintTolerance(s.constraintTolerance);
  integ->setProjectEveryStep(s.projectEveryStep);
  if (s.fixedStep > 0) integ->setFixedStepSize(s.fixedStep);
  return integ;
}

inline std::string describeRkm(const RkmSetting& s) {
  char t[200];
  const char* projection = s.projectEveryStep ? ", projection every step" : "";
  if (s.fixedStep > 0)
    std::snprintf(t, sizeof t, "RungeKuttaMerson fixed dt = %g s%s, constraint tol %g", s.fixedStep, projection,
                  s.constraintTolerance);
  else
    std::snprintf(t, sizeof t, "RungeKuttaMerson accuracy %g%s, constraint tol %g", s.accuracy, projection,
                  s.constraintTolerance);
  return t;
}

}  // namespace peers
