#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// Under AddressSanitizer, an allocation too large for memory throws std::bad_alloc as it does
// without it (the tests of out-of-memory errors rely on that) instead of aborting the run.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
