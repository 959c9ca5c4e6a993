#pragma once
// What the commands on two meshes (`overlap`, `distance`) share: the --transform argument and
// loading a mesh with progress on stderr.
#include "command_run.hpp"

#include <trisect/io/mesh.hpp>
#include <trisect/math/transform.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace trisect::cli {

/// The 12 numbers after --transform, rounded to float; throws `UsageError` unless there are 12
/// and each is a finite number (the message names the bad one).
[[nodiscard]] Transform parse_transform(const std::vector<std::string>& tokens);

}  // namespace trisect::cli
