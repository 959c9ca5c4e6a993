#pragma once
/// \file
/// One array of a BVH's (its nodes, triangles or ids): held in memory of its own, or viewing
/// memory that something else keeps alive, such as a mapped tree file (see io/bvh_file.hpp).

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace trisect {

namespace detail {
/// Asks the kernel to back the whole 4 KiB pages inside [data, data + bytes) with transparent
/// huge pages (arrays under 4 MiB are left alone). A BVH's large arrays are read at random by
/// queries and written fresh by builds; with 4 KiB pages, the misses in the address
/// translation cost a ray walk on a million triangles more than its node tests, and faulting
/// in fresh pages a quarter of a build. Only advice: a kernel without huge pages ignores it,
/// and elsewhere than Linux it does nothing. Call it before the memory is first written.
void advise_huge_pages(const void* data, std::size_t bytes) noexcept;
}  // namespace detail

/// A fixed-size array of trivially copyable `T` whose storage is either a vector it owns or
/// memory kept alive by a shared owner (a mapping). Elements are writable either way (a mapped
/// tree file is mapped copy-on-write, so `refit` may change a loaded tree without touching the
/// file). Copies are deep: a copy owns a vector of its own, whatever the original's storage,
/// advised for huge pages as a build's arrays are.
template <class T>
class BvhArray {
 public:
  /// No elements.
  BvhArray() = default;
  /// Takes the elements of `elements` (any allocator), without copying them.
  template <class Allocator>
  BvhArray(std::vector<T, Allocator>&& elements)  // NOLINT: implicit, as a vector converts
  {
    auto owned = std::make_shared<std::vector<T, Allocator>>(std::move(elements));
    data_ = owned->data();
    size_ = owned->size();
    keep_alive_ = std::move(owned);
  }
  /// Views `size` elements at `data`, which `keep_alive` keeps valid for as long as any array
  /// viewing it lives.
  BvhArray(T* data, std::size_t size, std::shared_ptr<const void> keep_alive) noexcept
      : data_(data), size_(size), keep_alive_(std::move(keep_alive)) {}

  BvhArray(const BvhArray& other) : BvhArray(copy_of(other)) {}
  BvhArray(BvhArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        keep_alive_(std::move(other.keep_alive_)) {}
  BvhArray& operator=(const BvhArray& other) {
    if (this != &other) *this = BvhArray(other);
    return *this;
  }
  BvhArray& operator=(BvhArray&& other) noexcept {
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    keep_alive_ = std::move(other.keep_alive_);
    return *this;
  }
  ~BvhArray() = default;

  /// Number of elements.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// True when there are no elements.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// Bytes the elements take.
  [[nodiscard]] std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  /// The first element.
  [[nodiscard]] T* data() noexcept { return data_; }
  /// The first element.
  [[nodiscard]] const T* data() const noexcept { return data_; }
  /// Element `i` (< size()).
  [[nodiscard]] T& operator[](std::size_t i) noexcept { return data_[i]; }
  /// Element `i` (< size()).
  [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  [[nodiscard]] T* begin() noexcept { return data_; }
  [[nodiscard]] T* end() noexcept { return data_ + size_; }
  [[nodiscard]] const T* begin() const noexcept { return data_; }
  [[nodiscard]] const T* end() const noexcept { return data_ + size_; }
  /// The last element (not empty()).
  [[nodiscard]] const T& back() const noexcept { return data_[size_ - 1]; }
  /// The elements as a span.
  [[nodiscard]] std::span<const T> span() const noexcept { return {data_, size_}; }
  /// The first `size` elements kept, the rest dropped (`size` <= size()).
  void shrink_to(std::size_t size) noexcept { size_ = std::min(size, size_); }

 private:
  static std::vector<T> copy_of(const BvhArray& other) {
    std::vector<T> copy;
    copy.reserve(other.size());
    detail::advise_huge_pages(copy.data(), other.bytes());
    copy.assign(other.begin(), other.end());
    return copy;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const void> keep_alive_;
};

}  // namespace trisect
