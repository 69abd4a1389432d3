// Partitions of a model's bodies into subsystems for the distributed formulation (seed 003,
// docs/distributed.md): each subsystem is a connected part of the spanning tree, so it has one
// top body whose parent joint leads out of it (to the ground or to another subsystem).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "articula/model/model.hpp"

namespace articula {

/// What is wrong with a partition: the subsystem (0-based), the position of the offending body
/// in its list (-1: the subsystem as a whole) and a message naming the bodies.
struct PartitionProblem {
  int subsystem = 0;
  int entry = -1;
  std::string message;
};

/// The first problem of `parts` (lists of body indices 1..n) as a partition of the model's bodies
/// into connected subsystems: an empty subsystem, an index that is not a body, a body in two
/// subsystems, a body in none, a subsystem whose bodies are not connected through tree joints.
std::optional<PartitionProblem> findPartitionProblem(const Model& model, const std::vector<std::vector<int>>& parts);

/// Throws articula::Error with the message of findPartitionProblem, if any.
void checkPartition(const Model& model, const std::vector<std::vector<int>>& parts);

/// About `count` connected subsystems of similar size: bodies are taken from the leaves upwards
/// and a subtree is cut off as a subsystem once it holds ceil(n / count) bodies; what remains
/// above the cuts of each ground-attached tree is one more subsystem. A chain of n = k count
/// bodies gives count parts of k bodies; a branched tree may give fewer, larger parts. Each
/// list is ascending (parent before child); the lists are ordered by their top body.
/// Throws articula::Error for count < 1 or count > the number of bodies.
std::vector<std::vector<int>> balancedSubsystems(const Model& model, int count);

}  // namespace articula
