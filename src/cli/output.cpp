#include "output.hpp"

#include "errors.hpp"
#include "io/atomic_file.hpp"

#include <trisect/io/text_token.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <system_error>
#include <vector>

namespace trisect::cli {
namespace fs = std::filesystem;

namespace {

bool is_standard_output(const std::string& path) { return path == standard_output_path; }

std::string describe(const OutputRequest& request) {
  return request.option + ' ' + quoted_excerpt(request.path);
}

// Where a write to `path` lands (its links followed), or `path` itself for a loop of links,
// which the write then reports.
fs::path write_target(const std::string& path) {
  try {
    return io::write_target(path);
  } catch (const std::system_error&) {
    return path;
  }
}

// True when `a` and `b` name the same file: the same inode when both exist, else the same
// normalised absolute path of the file their links lead to.
bool same_file(const std::string& a_path, const std::string& b_path) {
  const fs::path a = write_target(a_path), b = write_target(b_path);
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
  const fs::path folder = write_target(request.path).parent_path();
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

OutputWriter::OutputWriter(std::ostream& standard_output)
    : name_("standard output"), stream_(&standard_output) {
  errno = 0;
}

OutputWriter::OutputWriter(const OutputRequest& request, std::ostream& standard_output)
    : OutputWriter(standard_output) {
  if (is_standard_output(request.path)) return;
  name_ = describe(request);
  on_file([&] { file_ = std::make_unique<io::AtomicFile>(request.path); });
  stream_ = &file_->stream();
}

OutputWriter::~OutputWriter() = default;

OutputWriter::OutputWriter(OutputWriter&& other) noexcept
    : name_(std::move(other.name_)), file_(std::move(other.file_)), stream_(other.stream_) {}

template <class Step>
void OutputWriter::on_file(Step&& step) const {
  try {
    step();
  } catch (const std::system_error& error) {
    throw write_error(name_, error.code().value());
  }
}

void OutputWriter::check() const {
  if (file_) on_file([&] { file_->check(); });
  if (!*stream_) throw write_error(name_, errno);
}

void OutputWriter::finish() {
  if (file_) return on_file([&] { file_->finish(); });
  stream_->flush();
  check();
}

void OutputWriter::publish() {
  if (file_) on_file([&] { file_->publish(); });
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
