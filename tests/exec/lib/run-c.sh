#!/bin/sh
#===- tests/exec/lib/run-c.sh - Build, differentiate and run a C test -----===#
#
# usage: sh run-c.sh SRC [CFLAGS...]
#
# For each of -O0 (without optnone), -O1, -O2 and -O3: compiles SRC to IR
# with clang 22 (-I this folder, then CFLAGS, e.g. -DFD_REAL=float),
# differentiates it with `autodiff-opt IN -O2 -o OUT`, links the result
# with libm, and runs it. Exits 0 only when every level passes; otherwise
# prints the failing stage's output and which levels failed.
#
# Environment:
#   ADTEST_CLANG         clang to use (default: /usr/lib/llvm-22/bin/clang,
#                        else clang-22 on PATH)
#   ADTEST_AUTODIFF_OPT  autodiff-opt to use (default: autodiff-opt on PATH;
#                        lit puts the build's bin/ first)
#   ADTEST_LEVELS        levels to run (default: "0 1 2 3")
#   ADTEST_KEEP          if set, keep the work directory and print its name
#   ADTEST_TIMEOUT       seconds a program may run (default 60)
#
#===----------------------------------------------------------------------===#
set -u

if [ $# -lt 1 ]; then
  echo "usage: sh run-c.sh SRC [CFLAGS...]" >&2
  exit 2
fi
src=$1
shift

libdir=$(cd "$(dirname "$0")" && pwd)
. "$libdir/tools.sh"
levels=${ADTEST_LEVELS:-0 1 2 3}
limit=${ADTEST_TIMEOUT:-60}

work=$(mktemp -d "${TMPDIR:-/tmp}/adtest.XXXXXX") || exit 2
if [ -z "${ADTEST_KEEP:-}" ]; then
  trap 'rm -rf "$work"' EXIT
else
  echo "run-c.sh: keeping $work"
fi
base=$(basename "$src" .c)

# ADTEST_LINK_FLAGS: extra flags for building the program from the
# derivative (lit sets -fsanitize=... in a sanitizer build).
link_flags=${ADTEST_LINK_FLAGS:-}

failed=""
for lvl in $levels; do
  stem="$work/$base.O$lvl"
  if [ "$lvl" = 0 ]; then
    oflags="-O0 -Xclang -disable-O0-optnone"
  else
    oflags="-O$lvl"
  fi
  stage=""
  # shellcheck disable=SC2086
  if ! "$clang" -S -emit-llvm $oflags -I"$libdir" "$@" "$src" \
      -o "$stem.ll" >"$stem.log" 2>&1; then
    stage="compile (clang $oflags)"
  elif ! "$adopt" "$stem.ll" -O2 -o "$stem.ad.ll" >"$stem.log" 2>&1; then
    stage="differentiate (autodiff-opt -O2)"
  elif ! "$clang" $link_flags "$stem.ad.ll" -o "$stem.exe" -lm >"$stem.log" 2>&1; then
    stage="link (clang ... -lm)"
  elif ! timeout "$limit" "$stem.exe" >"$stem.log" 2>&1; then
    stage="run"
  fi
  if [ -n "$stage" ]; then
    echo "=== $base at -O$lvl: FAILED in $stage"
    sed -n '1,200p' "$stem.log"
    failed="$failed -O$lvl"
  else
    echo "=== $base at -O$lvl: ok ($(tail -n 1 "$stem.log"))"
  fi
done

if [ -n "$failed" ]; then
  echo "run-c.sh: $src ($*) failed at:$failed"
  exit 1
fi
exit 0
