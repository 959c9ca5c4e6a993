#include "output.hpp"

#include "errors.hpp"

#include <trisect/io/text_token.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <vector>

namespace trisect::cli {
namespace fs = std::filesystem;

namespace {

bool is_standard_output(const std::string& path) { return path == standard_output_path; }

std::string describe(const OutputRequest& request) {
  return request.option + ' ' + quoted_excerpt(request.path);
}

// True when `a` and `b` name the same file: the same inode when both exist, else the same
// normalised absolute path.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) return fs::equivalent(a, b, error);
  return fs::weakly_canonical(fs::absolute(a, error), error) ==
         fs::weakly_canonical(fs::absolute(b, error), error);
}

void check_location(const OutputRequest& request) {
  if (request.path.empty()) throw UsageError(request.option + ": the path is empty");
  // No command line holds one, but `run` may be called with any strings.
  if (request.path.find('\0') != std::string::npos)
    throw UsageError(request.option + ": the path holds a NUL byte");
  if (is_standard_output(request.path)) return;
  std::error_code error;
  if (fs::is_directory(request.path, error))
    throw UsageError(describe(request) + " is a directory");
  const fs::path folder = fs::path(request.path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, error))
    throw UsageError(describe(request) + ": the folder " + quoted_excerpt(folder.string()) +
                     " does not exist");
}

// The message for a failed write, from errno at the moment the failure was seen.
// `OutputWriter` clears errno when it starts, so that 0 means the stream failed without a
// system call failing (a stream of the caller's).
WriteError write_error(const std::string& name, int error_number) {
  std::string message = "cannot write " + name;
  if (error_number != 0) message += std::string(": ") + std::strerror(error_number);
  return WriteError(message, error_number == EPIPE);
}

// Permission bits for a new output file: those of the file it replaces, or what a plain open
// would give (0666 without the umask's bits).
mode_t new_file_mode(const fs::path& target) {
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void check_outputs(std::span<const OutputRequest> outputs, std::span<const std::string> inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputRequest& output = outputs[i];
    check_location(output);
    for (std::size_t j = 0; j < i; ++j) {
      const OutputRequest& earlier = outputs[j];
      const bool both_standard =
          is_standard_output(output.path) && is_standard_output(earlier.path);
      const bool both_files = !is_standard_output(output.path) && !is_standard_output(earlier.path);
      if (both_standard || (both_files && same_file(output.path, earlier.path)))
        throw UsageError(earlier.option + " and " + output.option + " name the same output " +
                         quoted_excerpt(output.path));
    }
    if (is_standard_output(output.path)) continue;
    for (const std::string& input : inputs)
      if (same_file(output.path, input))
        throw UsageError(describe(output) + " names the input file " + quoted_excerpt(input));
  }
}

// A file output: the temporary file beside the target, or the special file itself.
struct OutputWriter::TemporaryFile {
  fs::path target;
  fs::path temporary;  // empty for a special file, written in place
  std::ofstream stream;
  bool finished = false;

  ~TemporaryFile() {
    if (temporary.empty()) return;
    stream.close();
    std::error_code ignored;
    fs::remove(temporary, ignored);
  }
};

OutputWriter::OutputWriter(std::ostream& standard_output)
    : name_("standard output"), stream_(&standard_output) {
  errno = 0;
}

OutputWriter::OutputWriter(const OutputRequest& request, std::ostream& standard_output)
    : OutputWriter(standard_output) {
  if (is_standard_output(request.path)) return;
  name_ = describe(request);
  file_ = std::make_unique<TemporaryFile>();
  std::error_code error;
  // Links are followed, so that the file they point to is replaced, not the link.
  file_->target =
      fs::exists(request.path, error) ? fs::canonical(request.path, error) : fs::path(request.path);
  const bool special = fs::exists(file_->target, error) && !fs::is_regular_file(file_->target);
  fs::path opened = file_->target;
  if (!special) {
    const fs::path folder = file_->target.parent_path();
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string.
    std::string name(1, '.');
    name += file_->target.filename().string();
    name += ".trisect-XXXXXX";
    std::string pattern = (folder / name).string();
    const int descriptor = ::mkstemp(pattern.data());
    if (descriptor < 0) throw write_error(name_, errno);
    file_->temporary = opened = pattern;
    const bool mode_set = ::fchmod(descriptor, new_file_mode(file_->target)) == 0;
    ::close(descriptor);
    if (!mode_set) throw write_error(name_, errno);
  }
  file_->stream.open(opened, std::ios::binary | std::ios::trunc);
  if (!file_->stream) throw write_error(name_, errno);
  stream_ = &file_->stream;
}

OutputWriter::~OutputWriter() = default;

OutputWriter::OutputWriter(OutputWriter&& other) noexcept
    : name_(std::move(other.name_)), file_(std::move(other.file_)), stream_(other.stream_) {}

void OutputWriter::check() const {
  if (!*stream_) throw write_error(name_, errno);
}

void OutputWriter::finish() {
  stream_->flush();
  check();
  if (!file_) return;
  file_->stream.close();
  check();
  file_->finished = true;
}

void OutputWriter::publish() {
  if (!file_ || file_->temporary.empty()) return;
  if (!file_->finished) finish();
  if (std::rename(file_->temporary.c_str(), file_->target.c_str()) != 0)
    throw write_error(name_, errno);
  file_->temporary.clear();
}

void write_outputs(std::span<const Output> outputs, std::ostream& standard_output) {
  std::vector<OutputWriter> writers;
  writers.reserve(outputs.size());
  for (const bool standard : {false, true})
    for (const Output& output : outputs) {
      if (is_standard_output(output.request.path) != standard) continue;
      writers.emplace_back(output.request, standard_output);
      output.write(writers.back().stream());
      writers.back().finish();
    }
  for (OutputWriter& writer : writers) writer.publish();
}

}  // namespace trisect::cli
