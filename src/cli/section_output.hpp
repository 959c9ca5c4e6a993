#pragma once
// How `trisect slice` writes sections: text, JSON (nlohmann-json) and an SVG picture.

#include <trisect/slice/slice.hpp>

#include <iosfwd>
#include <span>

namespace trisect::cli {

/// Per plane `plane D K`, then per contour `closed N` or `open N` and its N points `x y z`
/// on one line (every number `%.9g`).
void write_sections_text(std::ostream& out, std::span<const Section> sections);

/// `{"normal": [x, y, z], "planes": [{"d": D, "contours": [{"closed": bool, "points":
/// [[x, y, z], ...], "triangles": [id, ...], "length": L, "area": A}]}]}`, one plane object
/// at a time so that large slices need no whole document in memory.
void write_sections_json(std::ostream& out, const Vec3& normal, std::span<const Section> sections);

/// A picture for a person: each plane's contours drawn in its own cell of a grid, seen from
/// the side the normal points to, all cells at one scale; closed contours filled (holes left
/// open) with a blue outline, open contours in red; each cell labelled with its offset and
/// contour counts.
void write_sections_svg(std::ostream& out, const Vec3& normal, std::span<const Section> sections);

}  // namespace trisect::cli
