#include "articula/dynamics/subsystem_condensation.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "aba_passes.hpp"
#include "articula/core/error.hpp"

namespace articula {

namespace {

// For a body i with one dof and a handle h below it: w = T_ih^T s_i, r += T_ih^T e_i and, in
// place, T_parent(i),h^T = T_ih^T - w Ud^T (T_parent = P_i T_ih with P_i = 1 - U_i D_i^-1 s_i^T).
// Fixed-size Eigen products on the column-major T^T, each a sum of its columns, vectorised.
[[gnu::always_inline]] inline void pullThroughSingleDof(const Vec6& s, const Vec6& e, const Vec6& Ud, Vec6& w, Vec6& r,
                                                        Mat6& Tt) {
  w.noalias() = Tt * s;
  r.noalias() += Tt * e;
  Tt.noalias() -= w * Ud.transpose();
}

// D += a b^T.
[[gnu::always_inline]] inline void addOuterProduct(const Vec6& a, const Vec6& b, Mat6& D) { D.noalias() += a * b.transpose(); }

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
  std::vector<std::vector<int>> below(n);
  for (std::size_t s = 0; s < k; ++s) {
    const int li = local(handles_[s]);
    if (li < 0)
      throw Error("distributed formulation: handle body '" + model.bodies[static_cast<std::size_t>(handles_[s])].name +
                  "' is not in its subsystem");
    handleSlot_[static_cast<std::size_t>(li)] = static_cast<int>(s);
    for (int at = li; at >= 0; at = parentLocal_[static_cast<std::size_t>(at)])
      below[static_cast<std::size_t>(at)].push_back(static_cast<int>(s));
  }
  if (k == 0 || handleSlot_[0] != 0)
    throw Error("distributed formulation: the first handle of the subsystem topped by body '" +
                model.bodies[static_cast<std::size_t>(bodies_.front())].name + "' is not its top body");
  belowStart_.push_back(0);
  for (auto& b : below) {
    std::sort(b.begin(), b.end());
    belowSlots_.insert(belowSlots_.end(), b.begin(), b.end());
    belowStart_.push_back(static_cast<int>(belowSlots_.size()));
  }
  Tt_.assign(k, Mat6::Zero());
  w1_.assign(belowSlots_.size(), Vec6::Zero());
  Dacc_.assign(k * k, Mat6::Zero());
  Racc_.assign(k, Vec6::Zero());
  W_.resize(belowSlots_.size());
  for (std::size_t li = 0; li < n; ++li)
    for (int at = belowStart_[li]; at < belowStart_[li + 1]; ++at)
      W_[static_cast<std::size_t>(at)] = SubspaceForce::Zero(6, model.joints[static_cast<std::size_t>(bodies_[li])].nv);
}

void SubsystemCondensation::condense(Workspace& ws, const Eigen::VectorXd& tau, SubsystemInterface& out) {
  auto& w = ws.aba;
  const std::size_t k = handles_.size();
  // D and R are accumulated in fixed-size blocks (upper blocks of D only) and copied out at the end.
  for (Mat6& b : Dacc_) b.setZero();
  for (Vec6& r : Racc_) r.setZero();
  for (std::size_t li = bodies_.size() - 1; li >= 1; --li) {
    const int i = bodies_[li];
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    if (handleSlot_[li] >= 0) Tt_[static_cast<std::size_t>(handleSlot_[li])].setIdentity();
    articulatedProjection(w, i, j.parent, j, tau);  // eq. (1)-(2) for joint i: ABA pass 2
    const std::span<const int> below = belowOf(li);
    if (below.empty()) continue;
    Vec6* w1 = w1_.data() + belowStart_[li];  // w1[a]: handle below[a]
    SubspaceForce* W = W_.data() + belowStart_[li];
    const Vec6& c = w.c[static_cast<std::size_t>(i)];
    if (j.nv == 1) {
      const Vec6& s = w.s1[static_cast<std::size_t>(i)];
      const double invD = w.invD1[static_cast<std::size_t>(i)], u = w.u1[static_cast<std::size_t>(i)];
      const Vec6 Ud = invD * w.U1[static_cast<std::size_t>(i)];
      // The joint's acceleration term e = c + s u / D (u1 holds -U^T c).
      const Vec6 e = c + (invD * u) * s;
      for (std::size_t a = 0; a < below.size(); ++a) {
        const auto h = static_cast<std::size_t>(below[a]);
        pullThroughSingleDof(s, e, Ud, w1[a], Racc_[h], Tt_[h]);
      }
      for (std::size_t a = 0; a < below.size(); ++a) {
        const Vec6 wa = invD * w1[a];
        for (std::size_t b = a; b < below.size(); ++b)
          addOuterProduct(wa, w1[b], Dacc_[static_cast<std::size_t>(below[a]) * k + static_cast<std::size_t>(below[b])]);
      }
      continue;
    }
    const auto& S = w.S[static_cast<std::size_t>(i)];
    const auto& U = w.U[static_cast<std::size_t>(i)];
    const auto& Dinv = w.Dinv[static_cast<std::size_t>(i)];
    const SmallVector e = Dinv * (w.u[static_cast<std::size_t>(i)] - U.transpose() * c);
    for (std::size_t a = 0; a < below.size(); ++a) {
      const auto h = static_cast<std::size_t>(below[a]);
      Mat6& Tt = Tt_[h];
      SubspaceForce& Wh = W[a];
      Wh.noalias() = Tt * S;
      Racc_[h].noalias() += Tt * c + Wh * e;
      Tt.noalias() -= Wh * (Dinv * U.transpose());
    }
    for (std::size_t a = 0; a < below.size(); ++a)
      for (std::size_t b = a; b < below.size(); ++b)
        Dacc_[static_cast<std::size_t>(below[a]) * k + static_cast<std::size_t>(below[b])].noalias() +=
            W[a] * Dinv * W[b].transpose();
  }
  // The top body floats: IA_t a_t + pA_t = sum_h T_th F_h (eq. (3) at the top). Handle 0 is the
  // top itself (T_t0 = 1): its terms need no product with T.
  const int t = top();
  const Mat6& IAt = w.IA[static_cast<std::size_t>(t)];
  topInertia_.compute(IAt);
  if (topInertia_.info() != Eigen::Success || !IAt.allFinite())
    throw Error("distributed formulation: the articulated inertia of the subsystem topped by body '" +
                model_.bodies[static_cast<std::size_t>(t)].name + "' is singular or not finite");
  // IA_t^-1 by columns: the LLT's solve with a matrix right-hand side runs Eigen's blocked
  // triangular solver, which costs more than these six vector solves at this size.
  for (int col = 0; col < 6; ++col) topInverse_.col(col) = topInertia_.solve(Vec6::Unit(col));
  const Vec6 a0 = -topInverse_ * w.pA[static_cast<std::size_t>(t)];
  Tt_[0].setIdentity();
  Racc_[0] += a0;
  Dacc_[0] += topInverse_;
  for (std::size_t h = 1; h < k; ++h) {
    const Mat6 Y = topInverse_ * Tt_[h].transpose();  // IA_t^-1 T_th
    Racc_[h].noalias() += Tt_[h] * a0;
    Dacc_[h] += Y;  // D_0h
    for (std::size_t g = 1; g <= h; ++g) Dacc_[g * k + h].noalias() += Tt_[g] * Y;
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
  Vec6 load = F.head<6>() - w.pA[static_cast<std::size_t>(t)];  // handle 0 is the top (T_t0 = 1)
  for (std::size_t h = 1; h < k; ++h) load.noalias() += Tt_[h].transpose() * F.segment<6>(6 * static_cast<Eigen::Index>(h));
  w.a[static_cast<std::size_t>(t)].noalias() = topInverse_ * load;
  for (std::size_t li = 1; li < bodies_.size(); ++li) {
    const int i = bodies_[li];
    const Joint& j = model_.joints[static_cast<std::size_t>(i)];
    const Vec6& ap = w.a[static_cast<std::size_t>(j.parent)];
    Vec6& a = w.a[static_cast<std::size_t>(i)];
    // The handle forces below i add S^T T_ih F_h to u_i (pA_i loses T_ih F_h).
    if (j.nv == 1) {
      double u = w.u1[static_cast<std::size_t>(i)];  // holds -U^T c
      for (int at = belowStart_[li]; at < belowStart_[li + 1]; ++at)
        u += w1_[static_cast<std::size_t>(at)].dot(F.segment<6>(6 * belowSlots_[static_cast<std::size_t>(at)]));
      const double qdd = w.invD1[static_cast<std::size_t>(i)] * (u - w.U1[static_cast<std::size_t>(i)].dot(ap));
      vdot[j.iv] = qdd;
      a = ap + w.c[static_cast<std::size_t>(i)] + w.s1[static_cast<std::size_t>(i)] * qdd;
      continue;
    }
    a = ap + w.c[static_cast<std::size_t>(i)];
    SmallVector u = w.u[static_cast<std::size_t>(i)];
    for (int at = belowStart_[li]; at < belowStart_[li + 1]; ++at)
      u.noalias() += W_[static_cast<std::size_t>(at)].transpose() * F.segment<6>(6 * belowSlots_[static_cast<std::size_t>(at)]);
    auto qdd = vdot.segment(j.iv, j.nv);
    qdd.noalias() = w.Dinv[static_cast<std::size_t>(i)] * (u - w.U[static_cast<std::size_t>(i)].transpose() * a);
    a.noalias() += w.S[static_cast<std::size_t>(i)] * qdd;
  }
}

}  // namespace articula
