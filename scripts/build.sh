#!/usr/bin/env bash
# Configures and builds the project into build/ (Release, Ninja).
# JOBS overrides the number of parallel jobs (default: nproc).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=build
jobs=${JOBS:-$(nproc)}

# A build/ configured with another generator cannot be reused by CMake.
cache="$build_dir/CMakeCache.txt"
if [[ -f "$cache" ]] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$cache"; then
  echo "build: $build_dir/ was configured with another generator;" \
    "remove it (rm -rf $build_dir) and run again." >&2
  exit 1
fi

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C "$build_dir" -j "$jobs"
