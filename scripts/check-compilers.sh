#!/usr/bin/env bash
# Builds the project a second time with clang++-22 (into build-clang/),
# runs its tests (less the executed C and C++ programs, compared below),
# and checks that the tool it builds emits exactly the same IR and
# diagnostics as the g++ build in build/ on every C and C++ test program
# (at -O0, -O2, -O3) and every lit IR input. The emitted IR must not
# depend on the compiler that built the tool (for instance through the
# order in which a C++ compiler evaluates function arguments).
#
# Run after scripts/test.sh (which makes build/). JOBS overrides -j.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs=${JOBS:-$(nproc)}
gcc_tool=build/bin/autodiff-opt
clang_tool=build-clang/bin/autodiff-opt
if [[ ! -x $gcc_tool ]]; then
  echo "check-compilers: $gcc_tool is missing; run scripts/test.sh first" >&2
  exit 1
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "${launcher[@]}"
ninja -C build-clang -j "$jobs"
# The executed C and C++ programs (tests/exec/{forward,reverse,cpp}) are
# not run again here: the comparison below checks that this build emits
# the same IR for each of them as the g++ build, whose run passed.
LIT_FILTER_OUT='exec/(forward|reverse|cpp)/' \
  ctest --test-dir build-clang --output-on-failure --no-tests=error

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compared=0
differ=0
compare() { # INPUT.ll
  "$gcc_tool" "$1" --no-postopt -o "$work/g.ll" >"$work/g.out" 2>&1 || true
  "$clang_tool" "$1" --no-postopt -o "$work/c.ll" >"$work/c.out" 2>&1 || true
  compared=$((compared + 1))
  if ! cmp -s "$work/g.out" "$work/c.out" ||
     { [[ -f $work/g.ll ]] && ! cmp -s "$work/g.ll" "$work/c.ll"; }; then
    echo "check-compilers: the two builds differ on $1 (${2:-})"
    differ=$((differ + 1))
  fi
  rm -f "$work/g.ll" "$work/c.ll"
}
for src in tests/exec/forward/*.c tests/exec/reverse/*.c tests/exec/cpp/*.cpp \
    examples/*.c; do
  for level in 0 2 3; do
    ll="$work/$(basename "$src").O$level.ll"
    flags=(-O$level)
    [[ $level == 0 ]] && flags+=(-Xclang -disable-O0-optnone)
    clang-22 "${flags[@]}" -S -emit-llvm -Itests/exec/lib "$src" -o "$ll" \
      2>/dev/null || continue
    compare "$ll" "$src at -O$level"
  done
done
while IFS= read -r ll; do
  compare "$ll"
done < <(find tests/lit -name '*.ll' | sort)

echo "check-compilers: $compared inputs compared, $differ differ"
[[ $differ == 0 ]]
