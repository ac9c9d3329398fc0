#!/usr/bin/env bash
# The test command: installs dependencies, builds, and runs every test
# (the gtest executables and the lit suite) through CTest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error
