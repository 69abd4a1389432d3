// Articula's vectors and matrices as the neutral arrays of linkage.hpp and car.hpp, for the
// Articula side of the peers program (articula_linkage.cpp, articula_car.cpp).
#pragma once

#include "articula/spatial/spatial.hpp"
#include "car.hpp"

namespace peers {

inline Vec3d toArray(const articula::Vec3& v) { return {v.x(), v.y(), v.z()}; }
inline articula::Vec3 toVec(const Vec3d& v) { return {v[0], v[1], v[2]}; }
/// Row-major, as Mat3d.
inline Mat3d toArray(const articula::Mat3& m) {
  Mat3d a;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[static_cast<std::size_t>(3 * i + j)] = m(i, j);
  return a;
}
inline articula::Mat3 toMat(const Mat3d& a) {
  articula::Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = a[static_cast<std::size_t>(3 * i + j)];
  return m;
}

}  // namespace peers
