// libFuzzer target for the query-file parser of `trisect query`: any input parses into valid
// queries (which are then answered on a small mesh) or throws QueryFileError; an input holding
// a binary byte never parses.
#include <trisect/cli/query_file.hpp>
#include <trisect/io/text_token.hpp>
#include <trisect/trisect.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<trisect::Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                                    {0, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                                    {2, 0, 0}, {3, 0, 0}, {2, 0, 0}};
  static const trisect::Bvh bvh = trisect::build(trisect::TriangleSoup{positions});
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    const auto queries = trisect::cli::parse_query_file(content, "fuzz");
    if (trisect::find_binary_byte(content) != std::string_view::npos) std::abort();
    for (const auto& query : queries) {
      std::visit(
          [](const auto& shape) {
            using Shape = std::decay_t<decltype(shape)>;
            if constexpr (std::is_same_v<Shape, trisect::Ray>)
              (void)trisect::closest_hit(bvh, shape);
            else if constexpr (std::is_same_v<Shape, trisect::cli::ClosestQuery>)
              (void)trisect::closest_point(bvh, shape.point, shape.max_distance);
            else if constexpr (std::is_same_v<Shape, trisect::cli::NearestQuery>)
              (void)trisect::k_nearest(bvh, shape.point, shape.k, shape.max_distance);
            else if constexpr (std::is_same_v<Shape, trisect::cli::CastQuery>)
              (void)trisect::cast_box(bvh, shape.box, shape.motion);
            else if constexpr (std::is_same_v<Shape, trisect::cli::InsideQuery>)
              (void)trisect::side_of(bvh, shape.point);
            else
              (void)trisect::collect_touching(bvh, shape);
          },
          query);
    }
  } catch (const trisect::cli::QueryFileError&) {
  } catch (const trisect::InvalidInput&) {
    std::abort();  // the parser must reject everything the queries would
  }
  return 0;
}
