#pragma once
// The one writer of every `trisect` output: standard output and the files that options name.
// Every write is checked. A file is written under a temporary name in its own folder and renamed
// over its path only once everything is written, so that a failed run leaves no partial file
// and an existing file untouched.

#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>

namespace trisect::io {
class AtomicFile;
}

namespace trisect::cli {

/// The path that means standard output wherever an output path is expected.
inline constexpr const char* standard_output_path = "-";

/// One output a command line asks for: the option naming it (for messages) and its path.
struct OutputRequest {
  std::string option;  ///< e.g. "--svg"
  std::string path;    ///< a file, or `standard_output_path`
};

/// Checks, before any work, the outputs a command line asks for. Throws `UsageError` naming the
/// option when a path is empty, is a directory, lies in a folder that does not exist, names one
/// of `inputs` (the same file by any name, links included) or the same file as another output
/// (standard output twice included).
void check_outputs(std::span<const OutputRequest> outputs, std::span<const std::string> inputs);

/// One output being written: standard output, or a file through `io::AtomicFile` (a regular
/// file through a temporary file beside the file that its links lead to, a special file such as
/// a device or FIFO in place, since it cannot be replaced).
class OutputWriter {
 public:
  /// Writes to `standard_output` (named "standard output" in messages).
  explicit OutputWriter(std::ostream& standard_output);

  /// Writes `request`'s path, or `standard_output` when the path is `standard_output_path`.
  /// Throws `WriteError` when the temporary file (or the special file) cannot be opened.
  OutputWriter(const OutputRequest& request, std::ostream& standard_output);

  /// Removes the temporary file unless `publish` renamed it.
  ~OutputWriter();

  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;
  OutputWriter(OutputWriter&&) noexcept;
  OutputWriter& operator=(OutputWriter&&) = delete;

  /// The stream to write to. A failed write sets its error state; `check` and `finish` report it.
  [[nodiscard]] std::ostream& stream() noexcept { return *stream_; }

  /// Throws `WriteError` naming the output if any write so far failed.
  void check() const;

  /// Flushes (and closes a file), then `check`s. Nothing else may be written afterwards.
  void finish();

  /// Renames the finished temporary file over the output's path (nothing to do for standard
  /// output or a special file). Throws `WriteError` when the rename fails.
  void publish();

 private:
  // Runs `step` on the file, reporting its failure as a `WriteError` naming the output.
  template <class Step>
  void on_file(Step&& step) const;

  std::string name_;  // for messages: "standard output" or "--svg FILE"
  std::unique_ptr<io::AtomicFile> file_;
  std::ostream* stream_;
};

/// One output and what to write into it.
struct Output {
  OutputRequest request;
  std::function<void(std::ostream&)> write;
};

/// Writes every output, all or nothing as far as files go: the files are written under
/// temporary names first, then standard output, and only when every write has succeeded are
/// the files renamed over their paths. Throws `WriteError` naming the output that failed (then
/// no file is replaced).
void write_outputs(std::span<const Output> outputs, std::ostream& standard_output);

}  // namespace trisect::cli
