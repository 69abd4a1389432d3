#include "articula/dynamics/subsystem_condensation.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "aba_passes.hpp"
#include "articula/spatial/spd_inverse.hpp"
#include "articula/core/error.hpp"

namespace articula {

namespace {

// The 6-vectors and the columns of the 6x6s below as three pairs of doubles, in GCC's and
// Clang's generic vectors: SSE2 on x86-64, NEON on arm64, scalar pairs elsewhere. GCC leaves
// Eigen's fixed-size 6x6-by-6 products here as calls (perf); written with pairs they are inlined
// and interleave with the rest of the step.
typedef double Pair __attribute__((vector_size(16), may_alias, aligned(8)));

[[gnu::always_inline]] inline Pair load(const double* p) { return *reinterpret_cast<const Pair*>(p); }
[[gnu::always_inline]] inline void store(double* p, Pair v) { *reinterpret_cast<Pair*>(p) = v; }
[[gnu::always_inline]] inline Pair splat(double x) { return Pair{x, x}; }

// For a body i with one dof and a handle h below it: w = T_ih^T s_i, r += T_ih^T e_i and, in
// place, T_parent(i),h^T = T_ih^T - w Ud^T (T_parent = P_i T_ih with P_i = 1 - U_i D_i^-1 s_i^T),
// on the column-major T^T: each product a sum of its columns.
[[gnu::always_inline]] inline void pullThroughSingleDof(const Vec6& s, const Vec6& e, const Vec6& Ud, Vec6& w, Vec6& r,
                                                        Mat6& Tt) {
  double* T = Tt.data();
  Pair w0 = load(T) * splat(s[0]), w1 = load(T + 2) * splat(s[0]), w2 = load(T + 4) * splat(s[0]);
  Pair r0 = load(T) * splat(e[0]), r1 = load(T + 2) * splat(e[0]), r2 = load(T + 4) * splat(e[0]);
#pragma GCC unroll 5
  for (int k = 1; k < 6; ++k) {
    const Pair c0 = load(T + 6 * k), c1 = load(T + 6 * k + 2), c2 = load(T + 6 * k + 4);
    const Pair sk = splat(s[k]), ek = splat(e[k]);
    w0 += c0 * sk;
    w1 += c1 * sk;
    w2 += c2 * sk;
    r0 += c0 * ek;
    r1 += c1 * ek;
    r2 += c2 * ek;
  }
#pragma GCC unroll 6
  for (int k = 0; k < 6; ++k) {
    const Pair u = splat(Ud[k]);
    store(T + 6 * k, load(T + 6 * k) - w0 * u);
    store(T + 6 * k + 2, load(T + 6 * k + 2) - w1 * u);
    store(T + 6 * k + 4, load(T + 6 * k + 4) - w2 * u);
  }
  store(w.data(), w0);
  store(w.data() + 2, w1);
  store(w.data() + 4, w2);
  store(r.data(), load(r.data()) + r0);
  store(r.data() + 2, load(r.data() + 2) + r1);
  store(r.data() + 4, load(r.data() + 4) + r2);
}

// D += a b^T, by columns.
[[gnu::always_inline]] inline void addOuterProduct(const Vec6& a, const Vec6& b, Mat6& D) {
  const Pair a0 = load(a.data()), a1 = load(a.data() + 2), a2 = load(a.data() + 4);
  double* d = D.data();
#pragma GCC unroll 6
  for (int k = 0; k < 6; ++k) {
    const Pair bk = splat(b[k]);
    store(d + 6 * k, load(d + 6 * k) + a0 * bk);
    store(d + 6 * k + 2, load(d + 6 * k + 2) + a1 * bk);
    store(d + 6 * k + 4, load(d + 6 * k + 4) + a2 * bk);
  }
}

// sum_i d_i w_i w_i^T over a run of bodies, in registers: its upper triangle, column c's rows
// 0..c as pairs (for an even c the last pair reaches a row below the diagonal, which flushInto
// does not read). 12 pairs where the whole 6x6 would take 18, more than SSE2's 16 registers.
class UpperOuterSum {
 public:
  void add(double d, const Vec6& w) {
    const Pair w0 = load(w.data()), w1 = load(w.data() + 2), w2 = load(w.data() + 4);
    const Pair a0 = w0 * splat(d), a1 = w1 * splat(d), a2 = w2 * splat(d);
#pragma GCC unroll 6
    for (int c = 0; c < 6; ++c) {
      const Pair wc = splat(w[c]);
      p_[kFirst[c]] += a0 * wc;
      if (c >= 2) p_[kFirst[c] + 1] += a1 * wc;
      if (c >= 4) p_[kFirst[c] + 2] += a2 * wc;
    }
  }
  /// D += the sum (its upper triangle mirrored); the sum restarts.
  void flushInto(Mat6& D) {
    double upper[36];
#pragma GCC unroll 6
    for (int c = 0; c < 6; ++c)
      for (int q = 0; q <= c / 2; ++q) {
        store(upper + 6 * c + 2 * q, p_[kFirst[c] + q]);
        p_[kFirst[c] + q] = splat(0.0);
      }
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) {
        D(r, c) += upper[6 * c + r];
        if (r != c) D(c, r) += upper[6 * c + r];
      }
  }

 private:
  static constexpr int kFirst[6] = {0, 1, 2, 4, 6, 9};  // column c's first pair
  Pair p_[12] = {};
};

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
      if (inRunSum(li)) continue;  // D_hh: the runs' sums below
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
  // D_hh's terms from the single-dof bodies with h alone below them, summed per run of bodies in
  // registers rather than added into D_hh body by body.
  UpperOuterSum sum;
  int run = -1;
  for (std::size_t li = 1; li < bodies_.size(); ++li) {
    if (!inRunSum(li)) continue;
    const int i = bodies_[li];
    const int h = belowSlots_[static_cast<std::size_t>(belowStart_[li])];
    if (h != run) {
      if (run >= 0) sum.flushInto(Dacc_[static_cast<std::size_t>(run) * (k + 1)]);
      run = h;
    }
    sum.add(w.invD1[static_cast<std::size_t>(i)], w1_[static_cast<std::size_t>(belowStart_[li])]);
  }
  if (run >= 0) sum.flushInto(Dacc_[static_cast<std::size_t>(run) * (k + 1)]);
  // The top body floats: IA_t a_t + pA_t = sum_h T_th F_h (eq. (3) at the top). Handle 0 is the
  // top itself (T_t0 = 1): its terms need no product with T.
  const int t = top();
  const Mat6& IAt = w.IA[static_cast<std::size_t>(t)];
  if (!IAt.allFinite() || !invertSpd6(IAt, topInverse_))
    throw Error("distributed formulation: the articulated inertia of the subsystem topped by body '" +
                model_.bodies[static_cast<std::size_t>(t)].name + "' is singular or not finite");
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
