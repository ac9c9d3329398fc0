#!/bin/sh
#===- tests/exec/lib/run-rust.sh - Rust source, C driver, differentiate ---===#
#
# usage: sh run-rust.sh LEVEL SRC.rs DRIVER.c SPECS WORKDIR
#
# 1. rustc --crate-type=lib -C opt-level=LEVEL --emit=llvm-ir SRC.rs
# 2. autodiff-opt with one --autodiff per line of SPECS (blank lines and
#    lines starting with # skipped), -O2
# 3. clang 22: the result + DRIVER.c (-I this folder), -lm, and Rust's std
#    as a shared library (see below)
# 4. runs the program; then runs it with the argument `short`, which must
#    stop with the lowering's shadow-length message.
#
# Rust's std: at opt-level=0 rustc's IR calls core's panic functions
# (bounds checks, `expect`, slice index failures, the personality routine),
# named with a per-toolchain hash, e.g.
# _RNvNtCs..._4core9panicking18panic_bounds_check. They are never reached
# here, but must resolve: we link the toolchain's own libstd-*.so (from
# `rustc --print target-libdir`, with an rpath), which exports all of them.
# At opt-level=3 nothing is left to resolve and --as-needed drops it. No
# flag of rustc's (panic=abort, overflow-checks=off) removes the references.
#
# Environment: ADTEST_CLANG, ADTEST_AUTODIFF_OPT as in run-c.sh; RUSTC
# (default: rustc on PATH); ADTEST_RUSTFLAGS, more rustc flags (e.g.
# "-C panic=abort").
#
#===----------------------------------------------------------------------===#
set -u
if [ $# -ne 5 ]; then
  echo "usage: sh run-rust.sh LEVEL SRC.rs DRIVER.c SPECS WORKDIR" >&2
  exit 2
fi
level=$1 src=$2 driver=$3 specs=$4 work=$5
libdir=$(cd "$(dirname "$0")" && pwd)
. "$libdir/tools.sh"
rustc=${RUSTC:-rustc}

rm -rf "$work"
mkdir -p "$work" || exit 2
base=$(basename "$src" .rs)
ll="$work/$base.O$level.ll"

fail() {
  echo "run-rust.sh: $base at opt-level=$level: FAILED in $1"
  [ -f "$work/log" ] && sed -n '1,200p' "$work/log"
  exit 1
}

# shellcheck disable=SC2086
"$rustc" --crate-type=lib -C opt-level="$level" ${ADTEST_RUSTFLAGS:-} \
  --emit=llvm-ir "$src" -o "$ll" >"$work/log" 2>&1 || fail "rustc"

# One --autodiff per spec line; set -- rebuilds the argument list.
set --
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
  '' | '#'*) continue ;;
  esac
  set -- "$@" --autodiff "$line"
done <"$specs"
"$adopt" "$ll" "$@" -O2 -o "$work/$base.ad.ll" >"$work/log" 2>&1 ||
  fail "autodiff-opt"

targetlib=$("$rustc" --print target-libdir)
std=$(ls "$targetlib"/libstd-*.so 2>/dev/null | head -n 1)
[ -n "$std" ] || { echo "no libstd-*.so in $targetlib" >"$work/log"; fail "finding Rust's std"; }
"$clang" -Wno-override-module "$work/$base.ad.ll" "$driver" -I"$libdir" \
  -o "$work/driver" -lm -Wl,--as-needed "$std" -Wl,-rpath,"$targetlib" \
  >"$work/log" 2>&1 || fail "link"

timeout "${ADTEST_TIMEOUT:-60}" "$work/driver" >"$work/log" 2>&1 || fail "run"
cat "$work/log"

if timeout "${ADTEST_TIMEOUT:-60}" "$work/driver" short >"$work/log" 2>&1; then
  fail "run (short shadow not stopped)"
fi
grep -q "shadow" "$work/log" || fail "run (short shadow: no message)"
echo "short shadow stopped: $(grep shadow "$work/log" | head -n 1)"
echo "run-rust.sh: $base at opt-level=$level: ok"
exit 0
