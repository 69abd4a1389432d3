// The car part of the peers program (car_runs.cpp, `peers --car`); built with Articula only.
#pragma once

namespace peers {

/// Prints the physics check at t = 0 and the table of 8 s runs of the car (models/car.yaml) in
/// Articula and its peers; false when the engines' initial states or dynamics disagree.
bool runCar(bool quick);

}  // namespace peers
