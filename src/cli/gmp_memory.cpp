#include "gmp_memory.hpp"

#include <gmp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace trisect::cli {
namespace {

// The line to write; two buffers, so that a new line is complete before it is published.
std::array<std::array<char, 4096>, 2> lines{};
std::array<std::size_t, 2> lengths{};
std::atomic<int> current{-1};

[[noreturn]] void out_of_memory() noexcept {
  const int at = current.load(std::memory_order_acquire);
  if (at >= 0) {
    const char* text = lines[static_cast<std::size_t>(at)].data();
    std::size_t left = lengths[static_cast<std::size_t>(at)];
    while (left > 0) {
      const ssize_t written = ::write(STDERR_FILENO, text, left);
      if (written <= 0) break;
      text += written;
      left -= static_cast<std::size_t>(written);
    }
  }
  ::_exit(2);
}

void* allocate(std::size_t size) {
  void* block = std::malloc(size);
  if (block == nullptr) out_of_memory();
  return block;
}

void* reallocate(void* block, std::size_t, std::size_t size) {
  void* moved = std::realloc(block, size);
  if (moved == nullptr) out_of_memory();
  return moved;
}

void release(void* block, std::size_t) { std::free(block); }

}  // namespace

void set_gmp_out_of_memory_line(std::string_view line) noexcept {
  const int next = current.load(std::memory_order_relaxed) == 0 ? 1 : 0;
  auto& buffer = lines[static_cast<std::size_t>(next)];
  const std::size_t length = std::min(line.size(), buffer.size());
  std::memcpy(buffer.data(), line.data(), length);
  lengths[static_cast<std::size_t>(next)] = length;
  current.store(next, std::memory_order_release);
}

void install_gmp_allocation() noexcept { mp_set_memory_functions(allocate, reallocate, release); }

}  // namespace trisect::cli
