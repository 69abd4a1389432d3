#include "articula/dynamics/subsystem_condensation.hpp"

#include <algorithm>
#include <string>

#include "aba_passes.hpp"
#include "articula/core/error.hpp"

namespace articula {

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
  T_.assign(n * k, Mat6::Zero());
  W_.resize(n * k);
  for (std::size_t li = 0; li < n; ++li)
    for (std::size_t s = 0; s < k; ++s) W_[li * k + s] = SubspaceForce::Zero(6, model.joints[static_cast<std::size_t>(bodies_[li])].nv);
}

void SubsystemCondensation::condense(Workspace& ws, const Eigen::VectorXd& tau, SubsystemInterface& out) {
  auto& w = ws.aba;
  const std::size_t k = handles_.size();
  out.D.setZero();
  out.R.setZero();
  auto Dblock = [&](int g, int h) { return out.D.block<6, 6>(6 * g, 6 * h); };
  auto Rblock = [&](int g) { return out.R.segment<6>(6 * g); };
  for (std::size_t li = bodies_.size() - 1; li >= 1; --li) {
    const int i = bodies_[li];
    const std::size_t lp = static_cast<std::size_t>(parentLocal_[li]);
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    if (handleSlot_[li] >= 0) T_[li * k + static_cast<std::size_t>(handleSlot_[li])].setIdentity();
    articulatedProjection(w, i, j.parent, j, tau);  // eq. (1)-(2) for joint i: ABA pass 2
    const std::vector<int>& below = below_[li];
    if (below.empty()) continue;
    const Vec6& c = w.c[static_cast<std::size_t>(i)];
    if (j.nv == 1) {
      const Vec6& s = w.s1[static_cast<std::size_t>(i)];
      const Vec6 Ud = w.invD1[static_cast<std::size_t>(i)] * w.U1[static_cast<std::size_t>(i)];
      const double invD = w.invD1[static_cast<std::size_t>(i)], u = w.u1[static_cast<std::size_t>(i)];
      for (int h : below) {
        const Mat6& T = T_[li * k + static_cast<std::size_t>(h)];
        const Vec6 wh = T.transpose() * s;  // (S^T T)^T
        W_[li * k + static_cast<std::size_t>(h)].col(0) = wh;
        Mat6& Tp = T_[lp * k + static_cast<std::size_t>(h)];
        Tp = T;
        Tp.noalias() -= Ud * wh.transpose();
        Rblock(h).noalias() += T.transpose() * c;  // u1 already holds -U^T c
        Rblock(h) += (invD * u) * wh;
      }
      for (std::size_t a = 0; a < below.size(); ++a)
        for (std::size_t b = a; b < below.size(); ++b)
          Dblock(below[a], below[b]).noalias() +=
              (invD * W_[li * k + static_cast<std::size_t>(below[a])].col(0)) *
              W_[li * k + static_cast<std::size_t>(below[b])].col(0).transpose();
      continue;
    }
    const auto& S = w.S[static_cast<std::size_t>(i)];
    const auto& U = w.U[static_cast<std::size_t>(i)];
    const auto& Dinv = w.Dinv[static_cast<std::size_t>(i)];
    const SmallVector e = Dinv * (w.u[static_cast<std::size_t>(i)] - U.transpose() * c);
    for (int h : below) {
      const Mat6& T = T_[li * k + static_cast<std::size_t>(h)];
      SubspaceForce& Wh = W_[li * k + static_cast<std::size_t>(h)];
      Wh.noalias() = T.transpose() * S;
      Mat6& Tp = T_[lp * k + static_cast<std::size_t>(h)];
      Tp = T;
      Tp.noalias() -= U * (Dinv * Wh.transpose());
      Rblock(h).noalias() += T.transpose() * c + Wh * e;
    }
    for (std::size_t a = 0; a < below.size(); ++a)
      for (std::size_t b = a; b < below.size(); ++b)
        Dblock(below[a], below[b]).noalias() += W_[li * k + static_cast<std::size_t>(below[a])] * Dinv *
                                                 W_[li * k + static_cast<std::size_t>(below[b])].transpose();
  }
  // The top body floats: IA_t a_t + pA_t = sum_h T_th F_h (eq. (3) at the top).
  const int t = top();
  if (handleSlot_[0] >= 0) T_[static_cast<std::size_t>(handleSlot_[0])].setIdentity();
  topInertia_.compute(w.IA[static_cast<std::size_t>(t)]);
  if (topInertia_.info() != Eigen::Success || !w.IA[static_cast<std::size_t>(t)].allFinite())
    throw Error("distributed formulation: the articulated inertia of the subsystem topped by body '" +
                model_.bodies[static_cast<std::size_t>(t)].name + "' is singular or not finite");
  const Vec6 a0 = -topInertia_.solve(w.pA[static_cast<std::size_t>(t)]);
  for (std::size_t h = 0; h < k; ++h) {
    const Mat6& Th = T_[h];
    const Mat6 Y = topInertia_.solve(Th);
    Rblock(static_cast<int>(h)).noalias() += Th.transpose() * a0;
    for (std::size_t g = 0; g <= h; ++g) Dblock(static_cast<int>(g), static_cast<int>(h)).noalias() += T_[g].transpose() * Y;
  }
  // Only the upper blocks were accumulated: D is symmetric.
  for (std::size_t h = 0; h < k; ++h)
    for (std::size_t g = h + 1; g < k; ++g)
      Dblock(static_cast<int>(g), static_cast<int>(h)) = Dblock(static_cast<int>(h), static_cast<int>(g)).transpose();
  for (std::size_t h = 0; h < k; ++h) {
    const Mat6 sym = 0.5 * (Dblock(static_cast<int>(h), static_cast<int>(h)) + Dblock(static_cast<int>(h), static_cast<int>(h)).transpose());
    Dblock(static_cast<int>(h), static_cast<int>(h)) = sym;
  }
}

void SubsystemCondensation::expand(Workspace& ws, const Eigen::VectorXd& F, Eigen::Ref<Eigen::VectorXd> vdot) const {
  auto& w = ws.aba;
  const std::size_t k = handles_.size();
  const int t = top();
  Vec6 load = -w.pA[static_cast<std::size_t>(t)];
  for (std::size_t h = 0; h < k; ++h) load.noalias() += T_[h] * F.segment<6>(6 * static_cast<Eigen::Index>(h));
  w.a[static_cast<std::size_t>(t)] = topInertia_.solve(load);
  for (std::size_t li = 1; li < bodies_.size(); ++li) {
    const int i = bodies_[li];
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    const Vec6& ap = w.a[static_cast<std::size_t>(j.parent)];
    Vec6& a = w.a[static_cast<std::size_t>(i)];
    // The handle forces below i add S^T T_ih F_h to u_i (pA_i loses T_ih F_h).
    if (j.nv == 1) {
      double u = w.u1[static_cast<std::size_t>(i)];  // holds -U^T c
      for (int h : below_[li]) u += W_[li * k + static_cast<std::size_t>(h)].col(0).dot(F.segment<6>(6 * h));
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
