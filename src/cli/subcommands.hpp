#pragma once
// The subcommands of `trisect`, one registration function each (in its own file). A new
// subcommand is a new file with its `add_..._command` and one line in run.cpp's list.

#include "context.hpp"

namespace trisect::cli {

/// `trisect query MESH QUERYFILE` (query_command.cpp).
void add_query_command(CLI::App& app, Context& context);

/// `trisect info MESH` (info.cpp).
void add_info_command(CLI::App& app, Context& context);

/// `trisect slice MESH (--axis A | --normal N) (--at D... | --layers N | --step H)`
/// (slice_command.cpp).
void add_slice_command(CLI::App& app, Context& context);

/// `trisect overlap MESH_A MESH_B [--transform 12 numbers] [--count]` and `trisect overlap
/// MESH --self [--count]` (overlap.cpp).
void add_overlap_command(CLI::App& app, Context& context);

/// `trisect clearance MESH_A MESH_B D [--transform 12 numbers] [--count]` and `trisect
/// clearance MESH --self D [--count]` (clearance.cpp).
void add_clearance_command(CLI::App& app, Context& context);

/// `trisect distance MESH_A MESH_B [--transform ...]`: the nearest pair of triangles.
void add_distance_command(CLI::App& app, Context& context);

/// `trisect build MESH -o FILE [--method sah|ploc|morton] [--threads N]` (build_command.cpp).
void add_build_command(CLI::App& app, Context& context);

/// `trisect demo [--svg FILE]` (demo.cpp).
void add_demo_command(CLI::App& app, Context& context);

}  // namespace trisect::cli
