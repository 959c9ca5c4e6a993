#pragma once
// What the commands on two meshes (`overlap`, `clearance`, `distance`) share: the --transform
// argument and the printing of triangle pairs.
#include "command_run.hpp"

#include <trisect/io/mesh.hpp>
#include <trisect/math/transform.hpp>
#include <trisect/overlap/overlap.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace trisect::cli {

/// The 12 numbers after --transform, rounded to float; throws `UsageError` unless there are 12
/// and each is a finite number (the message names the bad one).
[[nodiscard]] Transform parse_transform(const std::vector<std::string>& tokens);

/// `pairs` as the pair commands print them: one "I J" line each, or with `count` only their
/// number and a newline.
[[nodiscard]] std::string format_pairs(const std::vector<TrianglePair>& pairs, bool count);

}  // namespace trisect::cli
