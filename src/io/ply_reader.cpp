// PLY (Turk, "The PLY Polygon File Format", 1994): ascii, binary_little_endian and
// binary_big_endian; any scalar type; extra properties and elements skipped. Positions come
// from the `vertex` element's x, y, z; polygons from the `face` element's list `vertex_indices`
// (or `vertex_index`), fan-triangulated; or from a `tristrips` element's list
// `vertex_indices`, where -1 restarts the strip and each window of three indices is a triangle,
// every second one with its first two indices swapped to keep the orientation. Element
// counts are checked against the bytes left before anything is allocated for them.
#include "mesh_readers.hpp"
#include "text_lines.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace trisect::detail {
namespace {

enum class Encoding { ascii, little_endian, big_endian };
enum class Scalar { int8, uint8, int16, uint16, int32, uint32, float32, float64 };

std::optional<Scalar> scalar_named(std::string_view name) {
  if (name == "char" || name == "int8") return Scalar::int8;
  if (name == "uchar" || name == "uint8") return Scalar::uint8;
  if (name == "short" || name == "int16") return Scalar::int16;
  if (name == "ushort" || name == "uint16") return Scalar::uint16;
  if (name == "int" || name == "int32") return Scalar::int32;
  if (name == "uint" || name == "uint32") return Scalar::uint32;
  if (name == "float" || name == "float32") return Scalar::float32;
  if (name == "double" || name == "float64") return Scalar::float64;
  return std::nullopt;
}

std::size_t size_of(Scalar type) {
  switch (type) {
    case Scalar::int8:
    case Scalar::uint8:
      return 1;
    case Scalar::int16:
    case Scalar::uint16:
      return 2;
    case Scalar::int32:
    case Scalar::uint32:
    case Scalar::float32:
      return 4;
    case Scalar::float64:
      return 8;
  }
  return 0;
}

struct Property {
  std::string name;
  Scalar type;                 // the item type for lists
  std::optional<Scalar> list;  // the count type for lists
};

struct Element {
  std::string name;
  std::uint64_t count;
  std::vector<Property> properties;
  std::size_t header_line;

  // Fewest bytes one item takes in binary (lists of length zero).
  [[nodiscard]] std::uint64_t minimum_bytes() const {
    std::uint64_t bytes = 0;
    for (const Property& p : properties) bytes += size_of(p.list ? *p.list : p.type);
    return bytes;
  }
};

struct Header {
  Encoding encoding = Encoding::ascii;
  std::vector<Element> elements;
  std::size_t data_offset = 0;  // first byte after end_header's line
  std::size_t data_line = 0;    // line number of end_header
};

Header read_header(std::string_view content, const std::string& name) {
  LineScanner lines(content);
  Header header;
  bool have_format = false;
  const auto first = lines.next();
  if (!first || *first != "ply") fail_at_line(name, 1, "not a PLY file (first line must be 'ply')");
  // The header is text in every encoding: each line is checked before it is read.
  for (std::size_t start = lines.offset(); const auto line = lines.next(); start = lines.offset()) {
    require_text(content, name, start, lines.offset());
    Tokens tokens(*line);
    const std::string_view keyword = tokens.next();
    const std::size_t number = lines.number();
    if (keyword == "end_header") {
      if (!have_format) fail_at_line(name, number, "header has no 'format' line");
      header.data_offset = lines.offset();
      header.data_line = number;
      return header;
    }
    if (keyword == "format") {
      const std::string_view format = tokens.next();
      if (format == "ascii")
        header.encoding = Encoding::ascii;
      else if (format == "binary_little_endian")
        header.encoding = Encoding::little_endian;
      else if (format == "binary_big_endian")
        header.encoding = Encoding::big_endian;
      else
        fail_at_line(name, number, "unknown PLY format " + quoted_excerpt(format));
      have_format = true;
    } else if (keyword == "element") {
      const std::string_view element_name = tokens.next();
      const auto count = parse_integer(tokens.next());
      if (element_name.empty() || !count || *count < 0)
        fail_at_line(name, number, "element needs a name and a count >= 0");
      header.elements.push_back({std::string(element_name), std::uint64_t(*count), {}, number});
    } else if (keyword == "property") {
      if (header.elements.empty()) fail_at_line(name, number, "property before any element");
      Property property{};
      std::string_view type = tokens.next();
      if (type == "list") {
        const auto count_type = scalar_named(tokens.next());
        const std::string_view item = tokens.next();
        const auto item_type = scalar_named(item);
        if (!count_type || !item_type) fail_at_line(name, number, "unknown list property types");
        if (*count_type == Scalar::float32 || *count_type == Scalar::float64)
          fail_at_line(name, number, "list count type must be an integer type");
        property.list = count_type;
        property.type = *item_type;
      } else {
        const auto scalar = scalar_named(type);
        if (!scalar) fail_at_line(name, number, "unknown property type " + quoted_excerpt(type));
        property.type = *scalar;
      }
      property.name = std::string(tokens.next());
      if (property.name.empty()) fail_at_line(name, number, "property has no name");
      header.elements.back().properties.push_back(std::move(property));
    }
    // comment, obj_info and unknown header lines are ignored
  }
  fail(name, "PLY header has no 'end_header' line");
}

// Reads scalars one at a time from the data section, in the file's encoding.
class ValueReader {
 public:
  ValueReader(std::string_view content, const Header& header, const std::string& name)
      : content_(content),
        encoding_(header.encoding),
        name_(name),
        offset_(header.data_offset),
        lines_(content, header.data_offset),
        line_base_(header.data_line) {
    if (encoding_ == Encoding::ascii) require_text(content, name, header.data_offset);
  }

  // The next value as double (exact for every PLY scalar type); for ascii floats `as_float`
  // receives the token rounded straight to float.
  double next(Scalar type, float* as_float = nullptr) {
    return encoding_ == Encoding::ascii ? next_text(type, as_float) : next_binary(type, as_float);
  }

  // Ascii: each element item is one line; binary: nothing to do.
  void start_item() {
    if (encoding_ != Encoding::ascii) return;
    do {
      const auto line = lines_.next();
      if (!line)
        fail(name_, "PLY data ends early (after line " +
                        std::to_string(line_base_ + lines_.number()) + ")");
      tokens_ = Tokens(*line);
      pending_ = tokens_.next();
    } while (pending_.empty());
  }

  void end_item() {
    if (encoding_ == Encoding::ascii && !pending_.empty())
      problem("more values on the line than the element's properties");
  }

  [[nodiscard]] std::uint64_t bytes_left() const {
    return content_.size() - std::min(offset_, content_.size());
  }

  [[noreturn]] void problem(const std::string& what) const {
    if (encoding_ == Encoding::ascii) fail_at_line(name_, line_base_ + lines_.number(), what);
    fail_at_byte(name_, offset_, what);
  }

 private:
  double next_text(Scalar type, float* as_float) {
    const std::string_view token = pending_;
    if (token.empty()) problem("fewer values on the line than the element's properties");
    pending_ = tokens_.next();
    if (type == Scalar::float32 || type == Scalar::float64) {
      const auto value = read_float(token);
      if (!value) problem(quoted_excerpt(token) + " is not a number");
      if (as_float) *as_float = *value;
      if (type == Scalar::float32) return *value;
      char* end = nullptr;
      const std::string text(token);
      return std::strtod(text.c_str(), &end);
    }
    const auto value = parse_integer(token);
    if (!value) problem(quoted_excerpt(token) + " is not an integer");
    if (as_float) *as_float = static_cast<float>(*value);
    return static_cast<double>(*value);
  }

  double next_binary(Scalar type, float* as_float) {
    const std::size_t size = size_of(type);
    if (offset_ + size > content_.size()) problem("binary PLY data is truncated");
    unsigned char bytes[8];
    std::memcpy(bytes, content_.data() + offset_, size);
    if (encoding_ == Encoding::big_endian) std::reverse(bytes, bytes + size);
    offset_ += size;
    double value = 0;
    switch (type) {
      case Scalar::int8: {
        std::int8_t v;
        std::memcpy(&v, bytes, 1);
        value = v;
        break;
      }
      case Scalar::uint8:
        value = bytes[0];
        break;
      case Scalar::int16: {
        std::int16_t v;
        std::memcpy(&v, bytes, 2);
        value = v;
        break;
      }
      case Scalar::uint16: {
        std::uint16_t v;
        std::memcpy(&v, bytes, 2);
        value = v;
        break;
      }
      case Scalar::int32: {
        std::int32_t v;
        std::memcpy(&v, bytes, 4);
        value = v;
        break;
      }
      case Scalar::uint32: {
        std::uint32_t v;
        std::memcpy(&v, bytes, 4);
        value = v;
        break;
      }
      case Scalar::float32: {
        float v;
        std::memcpy(&v, bytes, 4);
        if (as_float) *as_float = v;
        return v;
      }
      case Scalar::float64: {
        double v;
        std::memcpy(&v, bytes, 8);
        value = v;
        break;
      }
    }
    if (as_float) *as_float = static_cast<float>(value);
    return value;
  }

  std::string_view content_;
  Encoding encoding_;
  const std::string& name_;
  std::size_t offset_;
  LineScanner lines_;
  std::size_t line_base_;
  Tokens tokens_{""};
  std::string_view pending_;
};

class PlyReader {
 public:
  PlyReader(std::string_view content, const std::string& name)
      : name_(name), header_(read_header(content, name)), values_(content, header_, name) {
    for (const Element& element : header_.elements)
      if (element.name == "vertex") vertex_count_ = element.count;
  }

  Mesh read() {
    for (const Element& element : header_.elements) {
      check_count(element);
      if (element.name == "vertex")
        read_vertices(element);
      else if (element.name == "face")
        read_polygons(element, false);
      else if (element.name == "tristrips")
        read_polygons(element, true);
      else
        skip(element);
    }
    return std::move(mesh_);
  }

 private:
  void check_count(const Element& element) {
    // Binary items take at least minimum_bytes(); ascii items at least one byte per line.
    const std::uint64_t least = header_.encoding == Encoding::ascii
                                    ? 2
                                    : std::max<std::uint64_t>(element.minimum_bytes(), 1);
    if (element.count > 0 && element.count > values_.bytes_left() / least)
      fail_at_line(name_, element.header_line,
                   "element " + quoted_excerpt(element.name) + " declares " +
                       std::to_string(element.count) + " items, more than the " +
                       std::to_string(values_.bytes_left()) + " bytes of data left can hold");
  }

  void read_vertices(const Element& element) {
    int axis_of[64];
    std::fill(std::begin(axis_of), std::end(axis_of), -1);
    bool found[3] = {false, false, false};
    for (std::size_t p = 0; p < element.properties.size() && p < 64; ++p) {
      const std::string& property = element.properties[p].name;
      const int axis = property == "x" ? 0 : property == "y" ? 1 : property == "z" ? 2 : -1;
      if (axis >= 0 && !element.properties[p].list) {
        axis_of[p] = axis;
        found[axis] = true;
      }
    }
    if (!found[0] || !found[1] || !found[2])
      fail_at_line(name_, element.header_line, "vertex element needs scalar properties x, y and z");
    if (element.properties.size() > 64)
      fail_at_line(name_, element.header_line, "too many vertex properties");
    if (element.count > std::numeric_limits<std::uint32_t>::max())
      fail_at_line(name_, element.header_line, "more vertices than 32-bit indices can address");
    mesh_.positions.reserve(mesh_.positions.size() + element.count);
    for (std::uint64_t item = 0; item < element.count; ++item) {
      values_.start_item();
      float xyz[3] = {0, 0, 0};
      for (std::size_t p = 0; p < element.properties.size(); ++p) {
        if (axis_of[p] >= 0) {
          values_.next(element.properties[p].type, &xyz[axis_of[p]]);
          if (!std::isfinite(xyz[axis_of[p]]))
            values_.problem("vertex " + std::to_string(item) +
                            " has a coordinate that is not finite");
        } else {
          skip_property(element.properties[p]);
        }
      }
      values_.end_item();
      mesh_.positions.emplace_back(xyz[0], xyz[1], xyz[2]);
    }
  }

  void read_polygons(const Element& element, bool strips) {
    const auto is_index_list = [](const Property& p) {
      return p.list && (p.name == "vertex_indices" || p.name == "vertex_index");
    };
    const auto list =
        std::find_if(element.properties.begin(), element.properties.end(), is_index_list);
    // A face element whose polygons cannot be read would silently give a mesh without them.
    if (list == element.properties.end() && element.count > 0)
      fail_at_line(
          name_, element.header_line,
          "element '" + element.name + "' has no list property 'vertex_indices' or 'vertex_index'");
    if (list == element.properties.end()) return skip(element);
    for (std::uint64_t item = 0; item < element.count; ++item) {
      values_.start_item();
      for (const Property& property : element.properties) {
        if (&property != &*list) {
          skip_property(property);
          continue;
        }
        read_index_list(property, item);
        if (strips)
          append_strips(static_cast<std::uint32_t>(item));
        else
          append_polygon(item);
      }
      values_.end_item();
    }
  }

  void read_index_list(const Property& property, std::uint64_t item) {
    const double length = values_.next(*property.list);
    if (length < 0)
      values_.problem("list of item " + std::to_string(item) + " has a negative length");
    if (length * double(size_of(property.type)) > double(values_.bytes_left()) + 1)
      values_.problem("list of item " + std::to_string(item) + " is longer than the data left");
    list_.clear();
    for (std::uint64_t i = 0; i < std::uint64_t(length); ++i) {
      const double index = values_.next(property.type);
      if (index != std::floor(index))
        values_.problem("vertex index " + std::to_string(index) + " is not an integer");
      list_.push_back(static_cast<std::int64_t>(index));
    }
  }

  void append_polygon(std::uint64_t item) {
    if (list_.size() < 3)
      values_.problem("face " + std::to_string(item) + " has " + std::to_string(list_.size()) +
                      " vertices; at least 3 are needed");
    if (list_.size() > max_polygon_vertices)
      values_.problem("face " + std::to_string(item) + " has more than " +
                      std::to_string(max_polygon_vertices) + " vertices");
    polygon_.clear();
    for (const std::int64_t index : list_) {
      if (index < 0 || std::uint64_t(index) >= vertex_count_)
        values_.problem("face " + std::to_string(item) + " has vertex index " +
                        std::to_string(index) + ", out of range for " +
                        std::to_string(vertex_count_) + " vertices");
      polygon_.push_back(static_cast<std::uint32_t>(index));
    }
    append_fan(mesh_, polygon_, faces_++);
  }

  // Each strip between -1 restarts yields its windows (a, b, c); odd windows swap a and b.
  void append_strips(std::uint32_t item) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= list_.size(); ++i) {
      if (i < list_.size() && list_[i] != -1) continue;
      for (std::size_t k = start; k + 2 < i; ++k) {
        std::uint32_t corner[3];
        for (int c = 0; c < 3; ++c) {
          const std::int64_t index = list_[k + std::size_t(c)];
          if (index < 0 || std::uint64_t(index) >= vertex_count_)
            values_.problem("strip " + std::to_string(item) + " has vertex index " +
                            std::to_string(index) + ", out of range for " +
                            std::to_string(vertex_count_) + " vertices");
          corner[c] = static_cast<std::uint32_t>(index);
        }
        if ((k - start) % 2 == 1) std::swap(corner[0], corner[1]);
        mesh_.indices.insert(mesh_.indices.end(), {corner[0], corner[1], corner[2]});
        mesh_.source_faces.push_back(item);
      }
      start = i + 1;
    }
  }

  void skip_property(const Property& property) {
    if (!property.list) {
      values_.next(property.type);
      return;
    }
    const double length = values_.next(*property.list);
    if (length < 0 || length * double(size_of(property.type)) > double(values_.bytes_left()) + 1)
      values_.problem("list property " + quoted_excerpt(property.name) + " has a bad length");
    for (std::uint64_t i = 0; i < std::uint64_t(length); ++i) values_.next(property.type);
  }

  void skip(const Element& element) {
    for (std::uint64_t item = 0; item < element.count; ++item) {
      values_.start_item();
      for (const Property& property : element.properties) skip_property(property);
      values_.end_item();
    }
  }

  const std::string& name_;
  Header header_;
  ValueReader values_;
  Mesh mesh_;
  std::vector<std::int64_t> list_;
  std::vector<std::uint32_t> polygon_;
  std::uint32_t faces_ = 0;
  std::uint64_t vertex_count_ = 0;
};

}  // namespace

Mesh read_ply(std::string_view content, const std::string& name) {
  return PlyReader(content, name).read();
}

}  // namespace trisect::detail
