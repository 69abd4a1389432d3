#include "articula/dynamics/subsystem_condensation.hpp"

#include <algorithm>
#include <string>

#include "aba_passes.hpp"
#include "articula/core/error.hpp"

namespace articula {

namespace {

// The products of the single-dof pass, written as sums of the columns of column-major 6x6
// matrices: each line is a 6-vector axpy, which the compiler keeps in registers and vectorises.
// (Eigen's expressions T.transpose() * [s, e] and T - Ud w^T made temporaries and out-of-line
// calls: on the 1024-body chain in 8 subsystems the condensation's own work took 0.73 M
// instructions per evaluation with them and 0.59 M with these loops, callgrind, docs/distributed.md.)

// For a body i with one dof and a handle h below it: w = T_ih^T s_i, r += T_ih^T e_i and
// T_parent(i),h^T = T_ih^T - w Ud^T (T_parent = P_i T_ih with P_i = 1 - U_i D_i^-1 s_i^T).
void pullThroughSingleDof(const Mat6& Tt, const Vec6& s, const Vec6& e, const Vec6& Ud, Vec6& w, Vec6& r,
                          Mat6& TtParent) {
  w = Tt.col(0) * s[0];
  Vec6 pulledE = Tt.col(0) * e[0];
  for (int col = 1; col < 6; ++col) {
    w += Tt.col(col) * s[col];
    pulledE += Tt.col(col) * e[col];
  }
  r += pulledE;
  for (int col = 0; col < 6; ++col) TtParent.col(col) = Tt.col(col) - w * Ud[col];
}

// D += a b^T.
void addOuterProduct(const Vec6& a, const Vec6& b, Mat6& D) {
  for (int col = 0; col < 6; ++col) D.col(col) += a * b[col];
}

}  // namespace

SubsystemCondensation::SubsystemCondensation(const Model& model, std::vector<int> bodies, std::vector<int> handles)
    : model_(model), bodies_(std::move(bodies)), handles_(std::move(handles)) {
  const std::size_t n = bodies_.size(), k = handles_.size();
  auto local = [&](int body) {
    const auto it = std::lower_bound(bodies_.begin(), bodies_.end(), body);
    return it != bodies_.end() && *it == body ? static_cast<int>(it - bodies_.begin()) : -1;
  };
  parentLocal_.assign(n, -1);
  for (std::size_t li = 1; li < n; ++li) parentLocal_[li] = local(model.parent(bodies_[li]));
  handleSlot_.assign(n, -1);
  below_.assign(n, {});
  for (std::size_t s = 0; s < k; ++s) {
    const int li = local(handles_[s]);
    if (li < 0)
      throw Error("distributed formulation: handle body '" + model.bodies[static_cast<std::size_t>(handles_[s])].name +
                  "' is not in its subsystem");
    handleSlot_[static_cast<std::size_t>(li)] = static_cast<int>(s);
    for (int at = li; at >= 0; at = parentLocal_[static_cast<std::size_t>(at)])
      below_[static_cast<std::size_t>(at)].push_back(static_cast<int>(s));
  }
  for (auto& b : below_) std::sort(b.begin(), b.end());
  Tt_.assign(n * k, Mat6::Zero());
  w1_.assign(n * k, Vec6::Zero());
  Dacc_.assign(k * k, Mat6::Zero());
  Racc_.assign(k, Vec6::Zero());
  W_.resize(n * k);
  for (std::size_t li = 0; li < n; ++li)
    for (std::size_t s = 0; s < k; ++s) W_[li * k + s] = SubspaceForce::Zero(6, model.joints[static_cast<std::size_t>(bodies_[li])].nv);
}

void SubsystemCondensation::condense(Workspace& ws, const Eigen::VectorXd& tau, SubsystemInterface& out) {
  auto& w = ws.aba;
  const std::size_t k = handles_.size();
  // D and R are accumulated in fixed-size blocks (upper blocks of D only) and copied out at the end.
  for (Mat6& b : Dacc_) b.setZero();
  for (Vec6& r : Racc_) r.setZero();
  for (std::size_t li = bodies_.size() - 1; li >= 1; --li) {
    const int i = bodies_[li];
    const std::size_t lp = static_cast<std::size_t>(parentLocal_[li]);
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    if (handleSlot_[li] >= 0) Tt_[li * k + static_cast<std::size_t>(handleSlot_[li])].setIdentity();
    articulatedProjection(w, i, j.parent, j, tau);  // eq. (1)-(2) for joint i: ABA pass 2
    const std::vector<int>& below = below_[li];
    if (below.empty()) continue;
    const Vec6& c = w.c[static_cast<std::size_t>(i)];
    if (j.nv == 1) {
      const Vec6& s = w.s1[static_cast<std::size_t>(i)];
      const double invD = w.invD1[static_cast<std::size_t>(i)], u = w.u1[static_cast<std::size_t>(i)];
      const Vec6 Ud = invD * w.U1[static_cast<std::size_t>(i)];
      // The joint's acceleration term e = c + s u / D (u1 holds -U^T c).
      const Vec6 e = c + (invD * u) * s;
      for (int h : below)
        pullThroughSingleDof(Tt_[li * k + static_cast<std::size_t>(h)], s, e, Ud, w1_[li * k + static_cast<std::size_t>(h)],
                             Racc_[static_cast<std::size_t>(h)], Tt_[lp * k + static_cast<std::size_t>(h)]);
      for (std::size_t a = 0; a < below.size(); ++a) {
        const Vec6 wa = invD * w1_[li * k + static_cast<std::size_t>(below[a])];
        for (std::size_t b = a; b < below.size(); ++b)
          addOuterProduct(wa, w1_[li * k + static_cast<std::size_t>(below[b])],
                          Dacc_[static_cast<std::size_t>(below[a]) * k + static_cast<std::size_t>(below[b])]);
      }
      continue;
    }
    const auto& S = w.S[static_cast<std::size_t>(i)];
    const auto& U = w.U[static_cast<std::size_t>(i)];
    const auto& Dinv = w.Dinv[static_cast<std::size_t>(i)];
    const SmallVector e = Dinv * (w.u[static_cast<std::size_t>(i)] - U.transpose() * c);
    for (int h : below) {
      const Mat6& Tt = Tt_[li * k + static_cast<std::size_t>(h)];
      SubspaceForce& Wh = W_[li * k + static_cast<std::size_t>(h)];
      Wh.noalias() = Tt * S;
      Mat6& Ttp = Tt_[lp * k + static_cast<std::size_t>(h)];
      Ttp = Tt;
      Ttp.noalias() -= Wh * (Dinv * U.transpose());
      Racc_[static_cast<std::size_t>(h)].noalias() += Tt * c + Wh * e;
    }
    for (std::size_t a = 0; a < below.size(); ++a)
      for (std::size_t b = a; b < below.size(); ++b)
        Dacc_[static_cast<std::size_t>(below[a]) * k + static_cast<std::size_t>(below[b])].noalias() +=
            W_[li * k + static_cast<std::size_t>(below[a])] * Dinv * W_[li * k + static_cast<std::size_t>(below[b])].transpose();
  }
  // The top body floats: IA_t a_t + pA_t = sum_h T_th F_h (eq. (3) at the top).
  const int t = top();
  if (handleSlot_[0] >= 0) Tt_[static_cast<std::size_t>(handleSlot_[0])].setIdentity();
  topInertia_.compute(w.IA[static_cast<std::size_t>(t)]);
  if (topInertia_.info() != Eigen::Success || !w.IA[static_cast<std::size_t>(t)].allFinite())
    throw Error("distributed formulation: the articulated inertia of the subsystem topped by body '" +
                model_.bodies[static_cast<std::size_t>(t)].name + "' is singular or not finite");
  const Vec6 a0 = -topInertia_.solve(w.pA[static_cast<std::size_t>(t)]);
  for (std::size_t h = 0; h < k; ++h) {
    const Mat6& Tth = Tt_[h];
    const Mat6 Y = topInertia_.solve(Tth.transpose());
    Racc_[h].noalias() += Tth * a0;
    for (std::size_t g = 0; g <= h; ++g) Dacc_[g * k + h].noalias() += Tt_[g] * Y;
  }
  // D is symmetric: the upper blocks were accumulated, the diagonal ones are symmetrised.
  for (std::size_t h = 0; h < k; ++h) {
    out.R.segment<6>(6 * static_cast<Eigen::Index>(h)) = Racc_[h];
    const Mat6& Dhh = Dacc_[h * k + h];
    out.D.block<6, 6>(6 * static_cast<Eigen::Index>(h), 6 * static_cast<Eigen::Index>(h)) = 0.5 * (Dhh + Dhh.transpose());
    for (std::size_t g = 0; g < h; ++g) {
      out.D.block<6, 6>(6 * static_cast<Eigen::Index>(g), 6 * static_cast<Eigen::Index>(h)) = Dacc_[g * k + h];
      out.D.block<6, 6>(6 * static_cast<Eigen::Index>(h), 6 * static_cast<Eigen::Index>(g)) = Dacc_[g * k + h].transpose();
    }
  }
}

void SubsystemCondensation::expand(Workspace& ws, const Eigen::VectorXd& F, Eigen::Ref<Eigen::VectorXd> vdot) const {
  auto& w = ws.aba;
  const std::size_t k = handles_.size();
  const int t = top();
  Vec6 load = -w.pA[static_cast<std::size_t>(t)];
  for (std::size_t h = 0; h < k; ++h) load.noalias() += Tt_[h].transpose() * F.segment<6>(6 * static_cast<Eigen::Index>(h));
  w.a[static_cast<std::size_t>(t)] = topInertia_.solve(load);
  for (std::size_t li = 1; li < bodies_.size(); ++li) {
    const int i = bodies_[li];
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    const Vec6& ap = w.a[static_cast<std::size_t>(j.parent)];
    Vec6& a = w.a[static_cast<std::size_t>(i)];
    // The handle forces below i add S^T T_ih F_h to u_i (pA_i loses T_ih F_h).
    if (j.nv == 1) {
      double u = w.u1[static_cast<std::size_t>(i)];  // holds -U^T c
      for (int h : below_[li]) u += w1_[li * k + static_cast<std::size_t>(h)].dot(F.segment<6>(6 * h));
      const double qdd = w.invD1[static_cast<std::size_t>(i)] * (u - w.U1[static_cast<std::size_t>(i)].dot(ap));
      vdot[j.iv] = qdd;
      a = ap + w.c[static_cast<std::size_t>(i)] + w.s1[static_cast<std::size_t>(i)] * qdd;
      continue;
    }
    a = ap + w.c[static_cast<std::size_t>(i)];
    SmallVector u = w.u[static_cast<std::size_t>(i)];
    for (int h : below_[li]) u.noalias() += W_[li * k + static_cast<std::size_t>(h)].transpose() * F.segment<6>(6 * h);
    auto qdd = vdot.segment(j.iv, j.nv);
    qdd.noalias() = w.Dinv[static_cast<std::size_t>(i)] * (u - w.U[static_cast<std::size_t>(i)].transpose() * a);
    a.noalias() += w.S[static_cast<std::size_t>(i)] * qdd;
  }
}

}  // namespace articula
