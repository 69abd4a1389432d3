// The exact motion of IFToMM benchmark A02, the N four-bar mechanism (../shared/reference/README.md,
// section 1), on the branch where every crank stays parallel to crank 0.
//
// Derivation (unit rods of 1 kg, L = 1 m, gravity g along -y; phi the angle of every crank from
// +x): each of the N + 1 cranks turns about its ground pivot (I_pivot = m L^2 / 3) and each of the
// N couplers translates with the crank tips (speed L phi'), so
//   T = 1/2 [(N + 1)/3 + N] phi'^2 = 1/2 A phi'^2,
//   V = g [(N + 1)/2 + N] sin phi = g B sin phi   (crank centres at height sin(phi)/2, couplers at sin phi),
// and Lagrange's equation for the one coordinate is A phi'' = -g B cos phi. Energy is conserved:
// 1/2 A phi'^2 + g B sin phi = const, which the test checks against the model's own kinetic and
// potential energies (so A and B are not only derived but measured on the generated model).
// B0, the tip of crank 0, is at (cos phi, sin phi).
//
// Reference: that scalar ODE integrated with Boost.odeint's Dormand-Prince 5(4) under error
// control (absolute and relative tolerance 1e-12), sampled at the output times.
#pragma once

#include <boost/numeric/odeint.hpp>
#include <array>
#include <cmath>
#include <vector>

namespace a02 {

constexpr double kG = 9.81;

struct CrankMotion {
  std::vector<double> t, phi, phiDot;
};

inline double inertiaCoefficient(int fourBars) { return (fourBars + 1) / 3.0 + fourBars; }  // A
inline double weightCoefficient(int fourBars) { return (fourBars + 1) / 2.0 + fourBars; }    // B

/// phi(t) and phi'(t) at t_k = k tEnd / outputs, k = 0..outputs, from phi(0) = phi0, phi'(0) = rate0.
inline CrankMotion exactCrankMotion(int fourBars, double phi0, double rate0, double tEnd, int outputs,
                                    double tolerance) {
  using State = std::array<double, 2>;
  namespace odeint = boost::numeric::odeint;
  const double c = kG * weightCoefficient(fourBars) / inertiaCoefficient(fourBars);
  const auto rhs = [c](const State& x, State& dx, double) {
    dx[0] = x[1];
    dx[1] = -c * std::cos(x[0]);
  };
  CrankMotion m;
  std::vector<double> times;
  for (int k = 0; k <= outputs; ++k) times.push_back(tEnd * k / outputs);
  State x{phi0, rate0};
  odeint::integrate_times(odeint::make_dense_output(tolerance, tolerance, odeint::runge_kutta_dopri5<State>()), rhs, x,
                          times.begin(), times.end(), 1e-3, [&m](const State& s, double t) {
                            m.t.push_back(t);
                            m.phi.push_back(s[0]);
                            m.phiDot.push_back(s[1]);
                          });
  return m;
}

}  // namespace a02
