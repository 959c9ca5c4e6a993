#pragma once
// How every `trisect` command turns its failures into an exit status and a message, in one
// place: each command's body runs inside `CommandRun::operator()`.

#include "errors.hpp"
#include "gmp_memory.hpp"

#include <trisect/cli/run.hpp>
#include <trisect/detail/thread_fallback.hpp>
#include <trisect/error.hpp>
#include <trisect/math/validate.hpp>

#include <new>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace trisect::cli {

/// One run of a command, named in its messages ("trisect slice").
class CommandRun {
 public:
  CommandRun(std::string name, std::ostream& err) : name_(std::move(name)), err_(err) {
    set_gmp_out_of_memory_line(out_of_memory_line());
  }

  /// Names the file being read or processed from now on: memory exhaustion (also GMP's, see
  /// gmp_memory.hpp) and the library's `InvalidInput` (a bad vertex) are blamed on it.
  void processing(std::string file) {
    processing_ = std::move(file);
    set_gmp_out_of_memory_line(out_of_memory_line());
  }

  /// Runs `body` (which returns the exit status of a success, 0) and maps what it throws:
  /// a bad command line or bad input gives `exit_bad_input`, an output that could not be
  /// written `exit_write_failed` (quietly for a closed pipe), each with one line on `err`
  /// starting with the command's name.
  template <class Body>
  int operator()(Body&& body) {
    try {
      return std::forward<Body>(body)();
    } catch (const WriteError& error) {
      if (!error.is_closed_pipe()) report(error.what());
      return exit_write_failed;
    } catch (const InvalidInput& error) {  // a value: blamed on the file being processed
      report(processing_ + ": " + error.what());
    } catch (const Error& error) {  // UsageError, MeshError, FileError, QueryFileError
      report(error.what());
    } catch (const std::bad_alloc&) {
      report(out_of_memory_message());
    } catch (const std::length_error&) {  // a container asked for more than it can hold
      report(out_of_memory_message());
    } catch (const std::exception& error) {  // a thread that could not start: no memory either
      if (!detail::is_thread_start_failure(error)) throw;
      report(out_of_memory_message());
    }
    return exit_bad_input;
  }

 private:
  void report(const std::string& message) { err_ << line(message); }
  std::string line(const std::string& message) const { return name_ + ": " + message + '\n'; }
  std::string out_of_memory_message() const { return processing_ + ": out of memory"; }
  std::string out_of_memory_line() const { return line(out_of_memory_message()); }

  std::string name_;
  std::ostream& err_;
  std::string processing_;
};

}  // namespace trisect::cli
