// Errors shared by the articulated-body kernels.
#pragma once

#include <string>

#include "articula/core/error.hpp"
#include "articula/model/joint.hpp"

namespace articula {

/// D = S^T IA S is not positive definite at joint j: either the state or the loads
/// are already non-finite (`finite` false), or the subtree carries no inertia about
/// the joint's axes.
[[noreturn]] inline void singular(const Joint& j, bool finite) {
  if (!finite) throw Error("non-finite articulated inertia at joint '" + j.name + "' (the state or the loads are not finite)");
  throw Error("articulated inertia is singular at joint '" + j.name + "' (a massless leaf or zero inertia about its axis)");
}

}  // namespace articula
