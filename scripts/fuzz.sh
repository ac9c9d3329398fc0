#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-22, -DAUTODIFF_FUZZ=ON, build-fuzz/)
# and runs each from its seed corpus in tests/fuzz/ with a fixed seed:
#   fuzz_attribute  the attribute parser, signatures and validation
#   fuzz_ir         any bytes as a module, through the whole pipeline
#   fuzz_request    generated modules, differentiated in both modes
#   scripts/fuzz.sh [TARGET...]      default: all three
# Environment:
#   FUZZ_RUNS      executions per target (default 20000; CI runs the default)
#   FUZZ_SEED      libFuzzer's -seed (default 1)
#   FUZZ_JOBS      parallel workers per target (default 1)
#   FUZZ_BUILD_DIR the build folder (default build-fuzz)
# New inputs found go to build-fuzz/corpus/TARGET (the checked-in seeds are
# only read); a crash, leak or timeout stops the run, leaves its input in
# build-fuzz/artifacts/ and fails the script. Each target prints its
# executions ("Done N runs in S second(s)").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
runs=${FUZZ_RUNS:-20000}
seed=${FUZZ_SEED:-1}
jobs=${FUZZ_JOBS:-1}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_attribute fuzz_ir fuzz_request)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
  -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
  -DAUTODIFF_FUZZ=ON -DAUTODIFF_BUILD_TESTS=OFF -DAUTODIFF_BUILD_BENCH=OFF \
  >/dev/null
ninja -C "$build_dir" "${targets[@]}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$build_dir/artifacts"
for target in "${targets[@]}"; do
  name=${target#fuzz_}
  corpus="$build_dir/corpus/$name"
  mkdir -p "$corpus"
  extra=()
  # With -jobs libFuzzer runs workers that log to fuzz-N.log in the current
  # folder: there, under build-fuzz/logs.
  if [ "$jobs" -gt 1 ]; then
    mkdir -p "$build_dir/logs"
    extra=(-jobs="$jobs" -workers="$jobs")
  fi
  case $name in
    ir) extra+=(-dict="$PWD/tests/fuzz/ir.dict" -max_len=4096) ;;
    request) extra+=(-max_len=512) ;;
    attribute) extra+=(-max_len=256) ;;
  esac
  echo "== $target: $runs runs, seed $seed"
  root=$PWD
  (cd "$build_dir" && mkdir -p logs && cd logs &&
    "$root/$build_dir/bin/$target" "$root/$corpus" "$root/tests/fuzz/$name" \
      -runs="$runs" -seed="$seed" -timeout=30 -rss_limit_mb=4096 \
      -artifact_prefix="$root/$build_dir/artifacts/$target-" \
      -print_final_stats=1 "${extra[@]}" >"$target.log" 2>&1 || true
    grep -E "^(Done|INFO: Seed|==[0-9]+==|SUMMARY|finding|stat::number_of_executed_units)" \
      "$target.log" || true)
  if ls "$build_dir/artifacts/$target-"* >/dev/null 2>&1; then
    # The cause (a sanitizer's report, LLVM's fatal error, the finding and
    # its input) is in the log: show it, the input may not be kept.
    echo "--- the end of $build_dir/logs/$target.log:"
    grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse|INITED|RELOAD)' \
      "$build_dir/logs/$target.log" | tail -n 80
    for a in "$build_dir/artifacts/$target-"*; do
      echo "--- $a (base64):"; head -c 4096 "$a" | base64
    done
    echo "FAIL: $target left inputs in $build_dir/artifacts/"; exit 1
  fi
done
