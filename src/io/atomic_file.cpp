#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <streambuf>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace trisect::io {
namespace fs = std::filesystem;

namespace {

// What Linux allows in one path resolution (MAXSYMLINKS).
constexpr int most_links = 40;

[[noreturn]] void fail(int error_number, const char* what) {
  throw std::system_error(error_number, std::generic_category(), what);
}

// Permission bits for the file written at `target`: those of the file it replaces, or what a
// plain open would give (0666 without the umask's bits).
mode_t new_file_mode(const fs::path& target) {
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// `.NAME.trisect-XXXXXX` in `target`'s folder, as mkstemp wants it.
std::string temporary_pattern(const fs::path& target) {
  const fs::path folder = target.has_parent_path() ? target.parent_path() : ".";
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string.
  std::string name(1, '.');
  name += target.filename().string();
  name += ".trisect-XXXXXX";
  return (folder / name).string();
}

// True when `target` exists and is neither a regular file nor a directory (a device, a FIFO, a
// socket). Throws for a directory, which no write can replace.
bool is_special_file(const fs::path& target) {
  struct stat status {};
  if (::stat(target.c_str(), &status) != 0) return false;
  if (S_ISDIR(status.st_mode)) fail(EISDIR, "cannot create file");
  return !S_ISREG(status.st_mode);
}

}  // namespace

fs::path write_target(const fs::path& path) {
  fs::path target = path;
  for (int links = 0; links <= most_links; ++links) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(target, error))) return target;
    const fs::path next = fs::read_symlink(target, error);
    if (error) fail(error.value(), "cannot create file");
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  fail(ELOOP, "cannot create file");
}

// Bytes collected and handed to the file descriptor, keeping the errno of the first failure.
class AtomicFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int descriptor) : descriptor_(descriptor), bytes_(std::size_t{1} << 16) {
    setp(bytes_.data(), bytes_.data() + bytes_.size());
  }
  ~Buffer() override {  // an unfinished file: what is buffered is dropped
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  [[nodiscard]] int error() const noexcept { return error_; }

  // Writes what is buffered and closes the descriptor; false on failure (see `error`).
  bool close() {
    const bool written = sync() == 0;
    const int descriptor = std::exchange(descriptor_, -1);
    if (descriptor >= 0 && ::close(descriptor) != 0 && error_ == 0) error_ = errno;
    return written && error_ == 0;
  }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }

  int sync() override {
    if (error_ == 0 && !write_all(pbase(), static_cast<std::size_t>(pptr() - pbase())))
      error_ = errno;
    setp(bytes_.data(), bytes_.data() + bytes_.size());
    return error_ == 0 ? 0 : -1;
  }

 private:
  bool write_all(const char* at, std::size_t count) const {
    if (count > 0 && descriptor_ < 0) {
      errno = EBADF;
      return false;
    }
    while (count > 0) {
      const ssize_t written = ::write(descriptor_, at, count);
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) return false;
      at += written;
      count -= static_cast<std::size_t>(written);
    }
    return true;
  }

  int descriptor_;
  std::vector<char> bytes_;
  int error_ = 0;
};

AtomicFile::AtomicFile(const fs::path& path) : target_(write_target(path)), stream_(nullptr) {
  int descriptor = -1;
  if (is_special_file(target_)) {
    descriptor = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (descriptor < 0) fail(errno, "cannot create file");
  } else {
    std::string pattern = temporary_pattern(target_);
    descriptor = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (descriptor < 0) fail(errno, "cannot create file");
    temporary_ = pattern;
    if (::fchmod(descriptor, new_file_mode(target_)) != 0) {
      const int error = errno;
      ::close(descriptor);
      ::unlink(temporary_.c_str());
      fail(error, "cannot create file");
    }
  }
  buffer_ = std::make_unique<Buffer>(descriptor);
  stream_.rdbuf(buffer_.get());
}

AtomicFile::~AtomicFile() {
  buffer_.reset();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

std::ostream& AtomicFile::stream() noexcept { return stream_; }

void AtomicFile::check() const {
  if (buffer_->error() != 0) fail(buffer_->error(), "cannot write");
  if (!stream_) fail(EIO, "cannot write");
}

void AtomicFile::finish() {
  if (finished_) return;
  stream_.flush();
  buffer_->close();
  finished_ = true;
  check();
}

void AtomicFile::publish() {
  finish();
  if (temporary_.empty()) return;
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno, "cannot replace the file");
  temporary_.clear();
}

}  // namespace trisect::io
