#!/usr/bin/env bash
# Installs dependencies, builds, then differentiates and runs the examples:
#   examples/ackley.c         C with __enzyme_fwddiff (Enzyme's interface)
#   examples/slice_forward.c  a declared derivative named by --autodiff
#                             (the route a rustc-like host takes)
#   examples/embed.cpp        the C++ API (built as build/bin/embed-example)
# Each program prints its value, the derivative and a central finite
# difference, and exits non-zero when they disagree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh

out=build/example
mkdir -p "$out"

run() {
  echo "+ $*"
  "$@"
}

# run_example NAME [AUTODIFF-OPT OPTION]...
run_example() {
  local name=$1
  shift
  echo "== examples/$name.c"
  run clang-22 -O2 -S -emit-llvm "examples/$name.c" -o "$out/$name.ll"
  run build/bin/autodiff-opt "$out/$name.ll" -O2 -S "$@" -o "$out/$name.diff.ll"
  run clang-22 "$out/$name.diff.ll" -lm -o "$out/$name"
  run "$out/$name"
}

run_example ackley
run_example slice_forward \
  --autodiff 'log_sum_exp(x: &[f64]) -> f64=autodiff_forward(d_log_sum_exp, Dual, Dual)'

echo "== examples/embed.cpp"
run build/bin/embed-example
