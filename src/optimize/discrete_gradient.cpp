// Fixed-step explicit Runge-Kutta runs and their exact derivatives: the discrete adjoint
// (transposed linearisation of each step, run backward, with two-level checkpointing: states at
// the checkpoints, and the stages of the one segment being swept back) and direct
// differentiation (the tangent linear steps). optimize/trajectory_gradient.hpp has the method.
#include "gradient_engine.hpp"

namespace articula {

double TrajectoryGradient::Impl::stages(double t, double h, const Eigen::VectorXd& x) {
  const detail::ExplicitTableau& T = tableau;
  double cost = 0.0;
  for (int i = 0; i < T.stages; ++i) {
    const auto si = static_cast<std::size_t>(i);
    X[si] = x;
    for (int j = 0; j < i; ++j)
      if (T.a[i][j] != 0.0) X[si] += (h * T.a[i][j]) * K[static_cast<std::size_t>(j)];
    const double ti = t + T.c[i] * h;
    controlsAt(ti, U[si]);
    evaluate(ti, X[si], U[si], K[si], L[si]);
    cost += h * T.b[i] * L[si];
  }
  return cost;
}

double TrajectoryGradient::Impl::step(int k, Eigen::VectorXd& x) {
  const double t = time(k), h = time(k + 1) - t;
  const double cost = stages(t, h, x);
  for (int i = 0; i < tableau.stages; ++i) x += (h * tableau.b[i]) * K[static_cast<std::size_t>(i)];
  if (!x.allFinite())
    throw Error("the forward run produced a non-finite state at t = " + std::to_string(time(k + 1)) +
                " s (parameters out of a sensible range, or a time step too large?)");
  return cost;
}

double TrajectoryGradient::Impl::forward(Eigen::VectorXd& x, bool keepCheckpoints) {
  x = x0;
  double J = 0.0;
  for (int k = 0; k < steps; ++k) {
    if (keepCheckpoints && k % interval == 0) checkpoints[static_cast<std::size_t>(k / interval)] = x;
    J += step(k, x);
  }
  return J + terminalCost(x);
}

double TrajectoryGradient::Impl::discreteAdjoint(Eigen::VectorXd& g) {
  Eigen::VectorXd x(nx), lambda(nx);
  const double J = forward(x, true);
  terminalGradient(x, lambda);
  g.setZero(P);
  addTerminalDesignGradient(x, g);
  const detail::ExplicitTableau& T = tableau;
  const auto s = static_cast<std::size_t>(T.stages);
  for (int seg = static_cast<int>(checkpoints.size()) - 1; seg >= 0; --seg) {
    // Replay steps first .. last-1 from the segment's checkpoint, keeping every stage's argument,
    // control and slope: the backward sweep below needs them all, so it evaluates nothing again.
    const int first = seg * interval, last = std::min(steps, first + interval);
    x = checkpoints[static_cast<std::size_t>(seg)];
    for (int k = first; k < last; ++k) {
      step(k, x);
      for (std::size_t i = 0; i < s; ++i) {
        const std::size_t r = static_cast<std::size_t>(k - first) * s + i;
        segmentX[r] = X[i];
        segmentU[r] = U[i];
        segmentK[r] = K[i];
      }
    }
    for (int k = last - 1; k >= first; --k) {
      const double t = time(k), h = time(k + 1) - t;
      for (int i = T.stages - 1; i >= 0; --i) {
        // K_bar_i = h b_i lambda + sum_{j > i} h a_ji X_bar_j; the running cost's own adjoint is 1,
        // so its stage weight is h b_i.
        auto Kbar = weight.head(nx);
        Kbar = (h * T.b[i]) * lambda;
        for (int j = i + 1; j < T.stages; ++j)
          if (T.a[j][i] != 0.0) Kbar += (h * T.a[j][i]) * Xbar[static_cast<std::size_t>(j)];
        weight[nx] = h * T.b[i];
        const double ti = t + T.c[i] * h;
        const auto si = static_cast<std::size_t>(i), r = static_cast<std::size_t>(k - first) * s + si;
        localAdjointProduct(ti, segmentX[r], segmentU[r], &segmentK[r], weight);
        Xbar[si] = localAdjoint.head(nx);
        addControlAdjoint(ti, localAdjoint.segment(nx, nu), g);
        g.head(nd) += localAdjoint.tail(nd);
      }
      for (int i = 0; i < T.stages; ++i) lambda += Xbar[static_cast<std::size_t>(i)];
    }
  }
  stats.storedStates = static_cast<long>(checkpoints.size() + 2 * segmentX.size());
  stats.checkpointInterval = interval;
  return J;
}

double TrajectoryGradient::Impl::discreteDirect(Eigen::VectorXd& g) {
  if (S.rows() != nx || S.cols() != P) {  // first direct run: size once
    S.resize(nx, P);
    G.resize(nx + nu + nd, P);
    dKL.assign(static_cast<std::size_t>(tableau.stages), Eigen::MatrixXd(nx + 1, P));
  }
  const detail::ExplicitTableau& T = tableau;
  Eigen::VectorXd x = x0;
  S.setZero();
  Eigen::RowVectorXd dJ = Eigen::RowVectorXd::Zero(P);
  double J = 0.0;
  for (int k = 0; k < steps; ++k) {
    const double t = time(k), h = time(k + 1) - t;
    J += stages(t, h, x);
    for (int i = 0; i < T.stages; ++i) {
      const double ti = t + T.c[i] * h;
      auto dX = G.topRows(nx);  // dX_i/db
      dX = S;
      for (int j = 0; j < i; ++j)
        if (T.a[i][j] != 0.0) dX += (h * T.a[i][j]) * dKL[static_cast<std::size_t>(j)].topRows(nx);
      fillParameterRows(ti, G.bottomRows(nu + nd));
      localDerivatives(ti, X[static_cast<std::size_t>(i)], U[static_cast<std::size_t>(i)]);
      dKL[static_cast<std::size_t>(i)].noalias() = D * G;
    }
    for (int i = 0; i < T.stages; ++i) {
      S += (h * T.b[i]) * dKL[static_cast<std::size_t>(i)].topRows(nx);
      dJ += (h * T.b[i]) * dKL[static_cast<std::size_t>(i)].row(nx);
      x += (h * T.b[i]) * K[static_cast<std::size_t>(i)];
    }
    if (!x.allFinite())
      throw Error("the forward run produced a non-finite state at t = " + std::to_string(time(k + 1)) + " s");
  }
  Eigen::VectorXd sx(nx);
  terminalGradient(x, sx);
  g = (dJ + sx.transpose() * S).transpose();
  addTerminalDesignGradient(x, g);
  return J + terminalCost(x);
}

}  // namespace articula
