#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang++-22, build-san/) and runs the test suite there: the gtest
# executables, the lit suite (autodiff-opt instrumented; the programs built
# from derivatives compiled with the same sanitizers) and the benchmark
# smoke tests. Tests that load the plugin or libautodiff into an
# uninstrumented host (clang-22, opt-22, python) are unsupported there.
#   scripts/sanitize.sh [ctest arguments...]   e.g. -R lit
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-san}
sanitizers=${SANITIZERS:-address,undefined}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
  -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
  -DAUTODIFF_SANITIZERS="$sanitizers"
ninja -C "$build_dir"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j2 "$@"
