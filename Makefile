# Convenience entry points over the CMake presets (see CMakePresets.json). Every target that
# builds first runs `deps`, which installs missing Debian packages with apt-get (as root, or
# through sudo). Set CI (CI=true) to turn compiler warnings into errors.

.DEFAULT_GOAL := help
SHELL := /bin/bash

JOBS ?= 2
CMAKE ?= cmake
CTEST ?= ctest
CLANG_FORMAT ?= clang-format
# The program `make run` runs, from the release build.
RUN_CMD ?= build/release/trisect demo
# Extra arguments for every benchmark program, e.g. BENCH_ARGS=--benchmark_filter=aabb_triangle
BENCH_ARGS ?=

ifneq ($(strip $(CI)),)
CONFIGURE_FLAGS += -DTRISECT_WARNINGS_AS_ERRORS=ON
endif

# Every C++ file of the project (build folders excluded).
CXX_FILES = $(shell find include src tests bench examples -type f \
                      \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) 2>/dev/null | sort)

PRESETS := debug release asan
CONFIGURE_TARGETS := $(PRESETS:%=configure-%)
BUILD_TARGETS := $(PRESETS:%=build-%)

# What each entry point builds in build/release (one tree; switching only regenerates it).
RUN_PARTS := -DTRISECT_BUILD_TESTS=OFF -DTRISECT_BUILD_EXAMPLES=OFF -DTRISECT_BUILD_BENCH=OFF \
             -DTRISECT_BUILD_PYTHON=OFF
TEST_PARTS := -DTRISECT_BUILD_TESTS=ON -DTRISECT_BUILD_EXAMPLES=ON -DTRISECT_BUILD_BENCH=OFF \
              -DTRISECT_BUILD_PYTHON=ON
ALL_PARTS := -DTRISECT_BUILD_TESTS=ON -DTRISECT_BUILD_EXAMPLES=ON -DTRISECT_BUILD_BENCH=ON \
             -DTRISECT_BUILD_PYTHON=ON

.PHONY: help deps $(CONFIGURE_TARGETS) $(BUILD_TARGETS) run test asan bench bench-programs \
        format clean

help:
	@echo "trisect: make targets"
	@echo "  make run     install what the command needs, build only it (release), run $(RUN_CMD)"
	@echo "  make test    install what the tests need, build them (release), run the test suite"
	@echo "  make asan    build and test with AddressSanitizer + UBSan (RelWithDebInfo)"
	@echo "  make bench   install the benchmark peers, build (release) and run the benchmarks"
	@echo "  make format  clang-format every C++ file in place"
	@echo "  make deps    install every Debian package any target uses (apt-get, root or sudo)"
	@echo "  make clean   remove build/"
	@echo "Variables: JOBS=$(JOBS); CI=1 makes warnings errors; RUN_CMD=$(RUN_CMD);"
	@echo "  BENCH_ARGS (passed to every benchmark program)"

deps:
	./scripts/install-deps.sh all

$(CONFIGURE_TARGETS): configure-%: deps
	$(CMAKE) --preset $* $(CONFIGURE_FLAGS)

$(BUILD_TARGETS): build-%: configure-%
	$(CMAKE) --build --preset $* -j$(JOBS)

# `make run`: only the packages and the one target the demo needs.
run:
	./scripts/install-deps.sh run
	$(CMAKE) --preset release $(CONFIGURE_FLAGS) $(RUN_PARTS)
	$(CMAKE) --build --preset release -j$(JOBS) --target trisect_command
	$(RUN_CMD)

# `make test`: the tests, the examples and the Python module; no benchmarks.
test:
	./scripts/install-deps.sh test
	$(CMAKE) --preset release $(CONFIGURE_FLAGS) $(TEST_PARTS)
	$(CMAKE) --build --preset release -j$(JOBS)
	$(CTEST) --preset release

asan: build-asan
	$(CTEST) --preset asan

# Every program of the release tree, the benchmarks included (CI builds them all).
bench-programs:
	./scripts/install-deps.sh bench
	$(CMAKE) --preset release $(CONFIGURE_FLAGS) $(ALL_PARTS)
	$(CMAKE) --build --preset release -j$(JOBS)

bench: bench-programs
	@set -e; for program in build/release/bench/bench_*; do \
	  if [[ -f $$program && -x $$program ]]; then echo "== $$program"; $$program $(BENCH_ARGS); fi; \
	done

format:
	$(CLANG_FORMAT) -i $(CXX_FILES)

clean:
	rm -rf build
