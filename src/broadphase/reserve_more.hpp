#pragma once
// Room made ahead of a change, so that the push_backs after it cannot throw.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace trisect::detail {

/// Makes room for `count` more elements in `vector`, growing its capacity geometrically (at
/// least doubling it) so that repeated calls cost amortised constant time per element.
template <class T>
void reserve_more(std::vector<T>& vector, std::size_t count) {
  const std::size_t needed = vector.size() + count;
  if (needed > vector.capacity()) vector.reserve(std::max(needed, 2 * vector.capacity()));
}

}  // namespace trisect::detail
