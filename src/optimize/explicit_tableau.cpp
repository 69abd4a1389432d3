#include "explicit_tableau.hpp"

#include <string>

#include "articula/core/error.hpp"

namespace articula::detail {

ExplicitTableau explicitTableau(std::string_view name) {
  ExplicitTableau T;
  if (name == "euler") {
    T.stages = 1;
    T.b[0] = 1.0;
  } else if (name == "heun") {
    T.stages = 2;
    T.c[1] = 1.0;
    T.a[1][0] = 1.0;
    T.b[0] = T.b[1] = 0.5;
  } else if (name == "rk4") {
    T.stages = 4;
    T.c[1] = T.c[2] = 0.5;
    T.c[3] = 1.0;
    T.a[1][0] = 0.5;
    T.a[2][1] = 0.5;
    T.a[3][2] = 1.0;
    T.b[0] = T.b[3] = 1.0 / 6.0;
    T.b[1] = T.b[2] = 1.0 / 3.0;
  } else {
    throw Error("no explicit Runge-Kutta tableau named '" + std::string(name) + "' (euler, heun, rk4)");
  }
  return T;
}

}  // namespace articula::detail
