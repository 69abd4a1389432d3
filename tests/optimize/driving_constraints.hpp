// The reference answer of the thesis's stabilisation problems (seed 002 sections 5.4.2 and 5.5.2):
// the controls that hold some joints where they start are the reactions of driving constraints on
// those joints. Shared by the tests of those problems.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/optimize/problem.hpp"

namespace articula::test_problems {

/// Control i of p acts on joints[i] (one coordinate each, with q_dot = v on every joint of the
/// model) and has a knot at every step. Returns the control coefficients that reproduce the
/// reactions of the driving constraints q_i(t) = q_i(0) at the knots: the model with those
/// prescribed motions, run by the reference formulation (Lagrange multipliers) with rk4 at the
/// problem's step, and the driving constraints' multipliers (from J^T lambda = ID - tau_app with
/// the model's loops, least norm) divided by the controls' gains.
inline Eigen::VectorXd drivingConstraintControls(const OptimalControlProblem& p, const std::vector<std::string>& joints) {
  Model m = p.model;
  std::vector<int> held;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const int j = *m.findJoint(joints[i]);
    PrescribedMotion hold;
    hold.name = "hold_" + joints[i];
    hold.joint = j;
    hold.position = TimeFunction::constant(m.q0[m.joints[static_cast<std::size_t>(j)].iq]);
    m.prescribed.push_back(hold);
    held.push_back(m.joints[static_cast<std::size_t>(j)].iv);
    EXPECT_EQ(p.controls[i].joint, j);
  }
  auto formulation = makeFormulation("reference", m);
  ConstrainedSolver solver(m);
  Workspace& ws = solver.ws;
  const int first = m.constraintCount() - static_cast<int>(joints.size());  // the driving rows come last
  Eigen::VectorXd lambda(m.constraintCount());
  const std::vector<double>& knots = p.controls[0].basis.knots();
  const double dt = p.dt;
  EXPECT_NEAR(knots[1] - knots[0], dt, 1e-15);  // one knot per step
  const auto count = static_cast<Eigen::Index>(knots.size());
  Eigen::VectorXd q = m.q0, v = m.v0, a(m.nv), tau(m.nv), b(count * static_cast<Eigen::Index>(joints.size()));
  Eigen::VectorXd k1q, k1v, k2q, k2v, k3q, k3v, k4q, k4v, vd(m.nv);
  const auto f = [&](double t, const Eigen::VectorXd& qs, const Eigen::VectorXd& vs, Eigen::VectorXd& dq,
                     Eigen::VectorXd& dv) {
    formulation->accelerations(t, qs, vs, vd);
    dq = vs;
    dv = vd;
  };
  for (Eigen::Index k = 0; k < count; ++k) {
    const double t = static_cast<double>(k) * dt;
    formulation->accelerations(t, q, v, a);
    solver.factorize(t, q);
    residualForces(m, ws, t, q, v, a, tau);
    solver.multipliers(tau, lambda);
    for (std::size_t i = 0; i < held.size(); ++i) {
      b[static_cast<Eigen::Index>(i) * count + k] = lambda[first + static_cast<int>(i)] / p.controls[i].gain;
      EXPECT_LT(std::abs(q[held[i]] - m.q0[held[i]]) + std::abs(v[held[i]]), 1e-12);  // the joint stays put
    }
    if (k + 1 == count) break;
    f(t, q, v, k1q, k1v);
    f(t + dt / 2, q + dt / 2 * k1q, v + dt / 2 * k1v, k2q, k2v);
    f(t + dt / 2, q + dt / 2 * k2q, v + dt / 2 * k2v, k3q, k3v);
    f(t + dt, q + dt * k3q, v + dt * k3v, k4q, k4v);
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return b;
}

}  // namespace articula::test_problems
