#include "section_output.hpp"

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

namespace trisect::cli {
namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

nlohmann::ordered_json point_json(const Vec3& p) { return {p.x, p.y, p.z}; }

nlohmann::ordered_json contour_json(const Contour& contour) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const Vec3& p : contour.points) points.push_back(point_json(p));
  return {{"closed", contour.closed},
          {"points", std::move(points)},
          {"triangles", contour.triangles},
          {"length", contour.length},
          {"area", contour.area}};
}

// An orthonormal basis (u, v) of the plane with u × v along the normal, so that a contour
// counter-clockwise seen from the normal's side is counter-clockwise in the picture. Axis
// normals keep the usual axes: z gives (x, y), x gives (y, z), y gives (z, x).
std::pair<glm::dvec3, glm::dvec3> picture_axes(const Vec3& normal) {
  const glm::dvec3 n = glm::normalize(glm::dvec3(normal));
  for (int axis = 0; axis < 3; ++axis) {
    const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
    if (normal[u_axis] == 0 && normal[v_axis] == 0) {
      glm::dvec3 u(0.0), v(0.0);
      u[u_axis] = 1;
      v[v_axis] = normal[axis] > 0 ? 1 : -1;
      return {u, v};
    }
  }
  const glm::dvec3 least = std::fabs(n.x) <= std::fabs(n.y) && std::fabs(n.x) <= std::fabs(n.z)
                               ? glm::dvec3(1, 0, 0)
                           : std::fabs(n.y) <= std::fabs(n.z) ? glm::dvec3(0, 1, 0)
                                                              : glm::dvec3(0, 0, 1);
  const glm::dvec3 u = glm::normalize(glm::cross(least, n));
  return {u, glm::cross(n, u)};
}

// Maps plane points into one grid cell of the picture.
struct CellMap {
  glm::dvec3 u, v;
  double low_u = 0, low_v = 0, scale = 1;  // picture units per model unit
  double cell = 200, margin = 10, label = 18;

  [[nodiscard]] std::string at(const Vec3& p, double left, double top) const {
    const glm::dvec3 q(p);
    const double x = left + margin + (glm::dot(q, u) - low_u) * scale;
    const double y = top + label + cell - margin - (glm::dot(q, v) - low_v) * scale;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f,%.2f", x, y);
    return buffer;
  }
};

CellMap fit_cells(const Vec3& normal, std::span<const Section> sections, double cell) {
  CellMap map;
  std::tie(map.u, map.v) = picture_axes(normal);
  map.cell = cell;
  double high_u = -INFINITY, high_v = -INFINITY;
  map.low_u = map.low_v = INFINITY;
  for (const Section& section : sections)
    for (const Contour& contour : section.contours)
      for (const Vec3& p : contour.points) {
        const double a = glm::dot(glm::dvec3(p), map.u), b = glm::dot(glm::dvec3(p), map.v);
        map.low_u = std::min(map.low_u, a), high_u = std::max(high_u, a);
        map.low_v = std::min(map.low_v, b), high_v = std::max(high_v, b);
      }
  const double size = std::max(high_u - map.low_u, high_v - map.low_v);
  map.scale = size > 0 ? (cell - 2 * map.margin) / size : 1;
  return map;
}

void draw_cell(std::ostream& svg, const CellMap& map, const Section& section, double left,
               double top) {
  std::size_t closed = 0;
  std::string filled;
  for (const Contour& contour : section.contours) {
    if (!contour.closed) continue;
    ++closed;
    filled += 'M';
    for (const Vec3& p : contour.points) filled += map.at(p, left, top) + ' ';
    filled += 'Z';
  }
  svg << "<rect x='" << left + 2 << "' y='" << top + 2 << "' width='" << map.cell - 4
      << "' height='" << map.cell + map.label - 4 << "' fill='#fafafa' stroke='#ddd'/>\n";
  svg << "<text x='" << left + 6 << "' y='" << top + 15 << "'>d = " << number(section.d) << "  ("
      << closed << " closed, " << section.contours.size() - closed << " open)</text>\n";
  if (!filled.empty())
    svg << "<path fill-rule='evenodd' fill='#cfe0f7' stroke='#1f5fbf' d='" << filled << "'/>\n";
  for (const Contour& contour : section.contours) {
    if (contour.closed) continue;
    svg << "<polyline fill='none' stroke='#d62020' stroke-width='1.6' points='";
    for (const Vec3& p : contour.points) svg << map.at(p, left, top) << ' ';
    svg << "'/>\n";
  }
}

}  // namespace

void write_sections_text(std::ostream& out, std::span<const Section> sections) {
  std::string line;
  for (const Section& section : sections) {
    out << "plane " << number(section.d) << ' ' << section.contours.size() << '\n';
    for (const Contour& contour : section.contours) {
      line = contour.closed ? "closed " : "open ";
      line += std::to_string(contour.points.size());
      for (const Vec3& p : contour.points)
        line += ' ' + number(p.x) + ' ' + number(p.y) + ' ' + number(p.z);
      out << line << '\n';
    }
  }
}

void write_sections_json(std::ostream& out, const Vec3& normal, std::span<const Section> sections) {
  out << "{\"normal\": " << point_json(normal).dump() << ", \"planes\": [";
  for (std::size_t i = 0; i < sections.size(); ++i) {
    nlohmann::ordered_json contours = nlohmann::ordered_json::array();
    for (const Contour& contour : sections[i].contours) contours.push_back(contour_json(contour));
    const nlohmann::ordered_json plane{{"d", sections[i].d}, {"contours", std::move(contours)}};
    out << (i > 0 ? ",\n  " : "\n  ") << plane.dump();
  }
  out << (sections.empty() ? "]}\n" : "\n]}\n");
}

void write_sections_svg(std::ostream& out, const Vec3& normal, std::span<const Section> sections) {
  const std::size_t count = std::max<std::size_t>(sections.size(), 1);
  const auto columns = std::size_t(std::ceil(std::sqrt(double(count))));
  const std::size_t rows = (count + columns - 1) / columns;
  const double cell = std::clamp(2400.0 / double(columns), 60.0, 260.0);
  const CellMap map = fit_cells(normal, sections, cell);
  const double width = double(columns) * cell, height = double(rows) * (cell + map.label) + 30;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
      << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' "
         "fill='white'/>\n<text x='6' y='20' font-size='14'>trisect slice: "
      << sections.size() << " planes, normal (" << number(normal.x) << ", " << number(normal.y)
      << ", " << number(normal.z)
      << "), seen from the normal's side; blue: closed contours, red: open</text>\n";
  for (std::size_t i = 0; i < sections.size(); ++i)
    draw_cell(out, map, sections[i], double(i % columns) * cell,
              30 + double(i / columns) * (cell + map.label));
  out << "</svg>\n";
}

}  // namespace trisect::cli
