#!/bin/sh
# Regenerates the rustc-emitted IR used by tests/lit/lowering/rust-*.ll:
#   slices.O0.ll and slices.O3.ll from slices.rs.
# Needs rustc 1.95 (LLVM 22). The tests name the mangled symbols
# (_ZN6slices6sum_sq17h...E), whose hashes depend on the rustc version:
# after regenerating with another rustc, update the names in the tests.
set -eu
cd "$(dirname "$0")"
for level in 0 3; do
  rustc --crate-type=lib --crate-name=slices -C opt-level=$level \
    -C panic=abort --emit=llvm-ir slices.rs -o slices.O$level.ll
  # Drop the host-specific module ID / source path comment.
  sed -i -e 's/^; ModuleID = .*/; ModuleID = '"'"'slices'"'"'/' \
    -e 's/^source_filename = .*/source_filename = "slices.rs"/' slices.O$level.ll
done
