#include "trisect/cli/query_file.hpp"

#include "trisect/io/text_token.hpp"
#include "trisect/math/validate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

namespace trisect::cli {
namespace {

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  Tokens splitter(line);
  for (std::string_view token = splitter.next(); !token.empty(); token = splitter.next())
    tokens.push_back(token);
  return tokens;
}

// Reads one line's numbers and checks them; each problem throws with the line named.
class LineReader {
 public:
  LineReader(const std::string& file_name, std::size_t line_number,
             std::vector<std::string_view> tokens)
      : where_(file_name + ":" + std::to_string(line_number) + ": "), tokens_(std::move(tokens)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw QueryFileError(where_ + problem);
  }

  std::size_t number_count() const { return tokens_.size() - 1; }

  void expect_count(std::size_t least, std::size_t most, const char* usage) const {
    const std::size_t numbers = number_count();
    if (numbers < least || numbers > most)
      fail("'" + std::string(tokens_[0]) + "' takes " + usage + ", got " + std::to_string(numbers) +
           " number" + (numbers == 1 ? "" : "s"));
  }

  // Number `index` (1-based after the keyword); `may_be_infinite` where a bound makes sense.
  float number(std::size_t index, const char* name, bool may_be_infinite) const {
    const std::string_view token = tokens_[index];
    const std::optional<float> value = read_float(token);
    if (!value) fail(std::string(name) + " " + quoted_excerpt(token) + " is not a number");
    if (std::isnan(*value)) fail(std::string(name) + " is NaN");
    if (std::isinf(*value) && !may_be_infinite)
      fail(std::string(name) + " " + quoted_excerpt(token) +
           " is infinite (or out of float range)");
    return *value;
  }

  // Number `index` as a whole decimal count from 1 to 2^32 - 1.
  std::size_t count(std::size_t index, const char* name) const {
    const std::string_view token = tokens_[index];
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error == std::errc::result_out_of_range || (error == std::errc{} && value > 0xFFFFFFFFu))
      fail(std::string(name) + " " + quoted_excerpt(token) + " is too large (at most 4294967295)");
    if (error != std::errc{} || end != token.data() + token.size())
      fail(std::string(name) + " " + quoted_excerpt(token) + " is not a whole number");
    if (value == 0) fail(std::string(name) + " is 0 (it must be at least 1)");
    return static_cast<std::size_t>(value);
  }

  Vec3 vector(std::size_t first, const char* name, bool may_be_infinite) const {
    return {number(first, name, may_be_infinite), number(first + 1, name, may_be_infinite),
            number(first + 2, name, may_be_infinite)};
  }

  std::string_view keyword() const { return tokens_[0]; }

 private:
  std::string where_;
  std::vector<std::string_view> tokens_;
};

Query parse_box(const LineReader& line) {
  line.expect_count(6, 6, "6 numbers: X0 Y0 Z0 X1 Y1 Z1");
  return Aabb::from_corners(line.vector(1, "box corner", true), line.vector(4, "box corner", true));
}

Query parse_plane(const LineReader& line) {
  line.expect_count(4, 4, "4 numbers: NX NY NZ D");
  const Plane plane{line.vector(1, "plane normal", false), line.number(4, "plane offset D", false)};
  if (plane.normal == Vec3(0.0f)) line.fail("plane normal is zero");
  return plane;
}

Query parse_sphere(const LineReader& line) {
  line.expect_count(4, 4, "4 numbers: CX CY CZ R");
  const Sphere sphere{line.vector(1, "sphere centre", false), line.number(4, "radius R", true)};
  if (sphere.radius < 0) line.fail("radius R is negative");
  return sphere;
}

Query parse_capsule(const LineReader& line) {
  line.expect_count(7, 7, "7 numbers: AX AY AZ BX BY BZ R");
  const Capsule capsule{line.vector(1, "capsule end", false), line.vector(4, "capsule end", false),
                        line.number(7, "radius R", false)};
  if (capsule.radius < 0) line.fail("radius R is negative");
  return capsule;
}

// The oriented box of an `obb` or `cast` line, validated.
OrientedBox oriented_box(const LineReader& line) {
  const OrientedBox box{line.vector(1, "obb centre", false),
                        {line.vector(4, "obb axis", false), line.vector(7, "obb axis", false),
                         line.vector(10, "obb axis", false)},
                        line.vector(13, "obb half extent", false)};
  try {
    validate(box, "obb");
  } catch (const InvalidInput& error) {
    line.fail(error.what());
  }
  return box;
}

Query parse_oriented_box(const LineReader& line) {
  line.expect_count(15, 15, "15 numbers: CX CY CZ UX UY UZ VX VY VZ WX WY WZ HU HV HW");
  return oriented_box(line);
}

Query parse_cast(const LineReader& line) {
  line.expect_count(18, 18, "18 numbers: CX CY CZ UX UY UZ VX VY VZ WX WY WZ HU HV HW MX MY MZ");
  return CastQuery{oriented_box(line), line.vector(16, "cast motion", false)};
}

Query parse_frustum(const LineReader& line) {
  line.expect_count(24, 24, "24 numbers: six planes NX NY NZ D");
  Frustum frustum;
  for (std::size_t k = 0; k < 6; ++k) {
    frustum.planes[k] = {line.vector(1 + 4 * k, "frustum plane normal", false),
                         line.number(4 + 4 * k, "frustum plane offset D", false)};
    if (frustum.planes[k].normal == Vec3(0.0f))
      line.fail("frustum plane " + std::to_string(k) + " normal is zero");
  }
  return frustum;
}

Query parse_ray(const LineReader& line) {
  line.expect_count(6, 8, "6 to 8 numbers: OX OY OZ DX DY DZ [TMIN [TMAX]]");
  Ray ray{line.vector(1, "ray origin", false), line.vector(4, "ray direction", false)};
  if (ray.direction == Vec3(0.0f)) line.fail("ray direction is zero");
  if (line.number_count() >= 7) ray.t_min = line.number(7, "TMIN", true);
  if (line.number_count() >= 8) ray.t_max = line.number(8, "TMAX", true);
  return ray;
}

Query parse_closest(const LineReader& line) {
  line.expect_count(3, 4, "3 or 4 numbers: X Y Z [RMAX]");
  ClosestQuery query{line.vector(1, "closest point", false)};
  if (line.number_count() == 4) query.max_distance = line.number(4, "RMAX", true);
  if (query.max_distance < 0) line.fail("RMAX is negative");
  return query;
}

Query parse_nearest(const LineReader& line) {
  line.expect_count(4, 5, "4 or 5 numbers: K X Y Z [RMAX]");
  NearestQuery query{line.count(1, "K"), line.vector(2, "nearest point", false)};
  if (line.number_count() == 5) query.max_distance = line.number(5, "RMAX", true);
  if (query.max_distance < 0) line.fail("RMAX is negative");
  return query;
}

Query parse_inside(const LineReader& line, std::size_t line_number) {
  line.expect_count(3, 3, "3 numbers: X Y Z");
  return InsideQuery{line.vector(1, "inside point", false), line_number};
}

Query parse_line(const LineReader& line, std::size_t line_number) {
  const std::string_view keyword = line.keyword();
  if (keyword == "box") return parse_box(line);
  if (keyword == "plane") return parse_plane(line);
  if (keyword == "sphere") return parse_sphere(line);
  if (keyword == "capsule") return parse_capsule(line);
  if (keyword == "obb") return parse_oriented_box(line);
  if (keyword == "frustum") return parse_frustum(line);
  if (keyword == "cast") return parse_cast(line);
  if (keyword == "ray") return parse_ray(line);
  if (keyword == "closest") return parse_closest(line);
  if (keyword == "nearest") return parse_nearest(line);
  if (keyword == "inside") return parse_inside(line, line_number);
  line.fail("unknown query " + quoted_excerpt(keyword) +
            " (expected box, plane, sphere, capsule, obb, frustum, ray, closest, nearest, cast or "
            "inside)");
}

}  // namespace

std::vector<Query> parse_query_file(std::string_view content, const std::string& file_name) {
  if (auto problem = binary_data_problem(content, file_name)) throw QueryFileError(*problem);
  std::vector<Query> queries;
  LineScanner lines(content);
  while (const auto line = lines.next()) {
    const std::vector<std::string_view> tokens = split_tokens(*line);
    if (tokens.empty() || tokens[0].front() == '#') continue;
    queries.push_back(parse_line(LineReader(file_name, lines.number(), tokens), lines.number()));
  }
  return queries;
}

}  // namespace trisect::cli
