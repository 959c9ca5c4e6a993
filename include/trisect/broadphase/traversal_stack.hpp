#pragma once
/// \file
/// The stack of node indices a tree traversal keeps: inline storage for the usual depth, grown
/// on the heap when a tree is deeper, so it never overflows.

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace trisect {

/// A LIFO stack of 32-bit node indices. The first 64 entries live inside the object (no
/// allocation for balanced trees of any practical size); beyond that it grows on the heap.
class TraversalStack {
 public:
  TraversalStack() = default;
  TraversalStack(const TraversalStack&) = delete;
  TraversalStack& operator=(const TraversalStack&) = delete;

  /// Pushes `index`, growing the storage when it is full.
  void push(std::int32_t index) {
    if (size_ == capacity_) grow();
    data_[size_++] = index;
  }

  /// Removes and returns the top entry. Precondition: not empty.
  [[nodiscard]] std::int32_t pop() noexcept { return data_[--size_]; }

  /// True when nothing is on the stack.
  [[nodiscard]] bool is_empty() const noexcept { return size_ == 0; }

 private:
  void grow() {
    std::vector<std::int32_t> larger(2 * capacity_);
    for (std::size_t i = 0; i < size_; ++i) larger[i] = data_[i];
    heap_ = std::move(larger);
    data_ = heap_.data();
    capacity_ = heap_.size();
  }

  std::array<std::int32_t, 64> inline_{};
  std::vector<std::int32_t> heap_;
  std::int32_t* data_ = inline_.data();
  std::size_t size_ = 0;
  std::size_t capacity_ = inline_.size();
};

}  // namespace trisect
