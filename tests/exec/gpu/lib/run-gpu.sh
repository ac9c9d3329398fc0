#!/bin/sh
#===- tests/exec/gpu/lib/run-gpu.sh - Build, differentiate and run a kernel ===#
#
# usage: sh run-gpu.sh KERNEL.cu
#
# For each level in ADTEST_LEVELS (default "0 1 2 3"; -O0 without
# optnone): compiles KERNEL.cu's
# device code to NVPTX IR with clang 22 (-nocudalib: libdevice calls stay
# calls), differentiates it with autodiff-opt, links libdevice, internalizes
# all but the kernels, optimizes (-O2) and compiles to PTX with llc, and
# assembles the PTX with ptxas when it is there. Then runs the kernels with
# lib/gpu_check.c (finite differences, forward against reverse) when a CUDA
# device is usable, and says "not run" otherwise (exit 0: the compile steps
# are what a machine without a GPU can check).
#
# The kernel's `// GPU:` line gives the sizes: `check=N time=N n_in=EXPR
# n_out=EXPR grid=GX[,GY] block=BX[,BY] [aux=gather]`, expressions in N.
#
# Environment:
#   CUDA_PATH        the CUDA toolkit (default /usr/local/cuda)
#   ADTEST_GPU_OUT   keep the PTX and the driver there, with a `run.sh` line
#                    per level that runs them on another machine
#   ADTEST_GPU_TIME  also time the kernels (at the `time` size, level 2)
#
#===----------------------------------------------------------------------===#
set -u
src=$1
libdir=$(cd "$(dirname "$0")" && pwd)
. "$libdir/../../lib/tools.sh"
cuda=${CUDA_PATH:-/usr/local/cuda}
levels=${ADTEST_LEVELS:-0 1 2 3}
bin=/usr/lib/llvm-22/bin
base=$(basename "$src" .cu)
work=$(mktemp -d "${TMPDIR:-/tmp}/adgpu.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
out=${ADTEST_GPU_OUT:-$work}
mkdir -p "$out"

spec=$(sed -n 's|^// GPU: ||p' "$src")
field() { echo "$spec" | tr ' ' '\n' | sed -n "s|^$1=||p"; }
# Evaluates a size expression of N (`N/8`, `2*N`) for N=$2.
size() { echo "$(( $(echo "$1" | sed "s|N|$2|g") ))"; }
shape() {
  n=$1
  gx=$(size "$(field grid | cut -d, -f1)" "$n")
  gy=1; by=1
  case $(field grid) in *,*) gy=$(size "$(field grid | cut -d, -f2)" "$n");; esac
  bx=$(field block | cut -d, -f1)
  case $(field block) in *,*) by=$(field block | cut -d, -f2);; esac
  echo "$n $(size "$(field n_in)" "$n") $(size "$(field n_out)" "$n") $gx $gy $bx $by ${aux:-none}"
}
aux=$(field aux)

driver="$out/gpu_check"
if [ ! -x "$driver" ]; then
  if ! "$clang" -O2 -I"$cuda/include" "$libdir/gpu_check.c" -ldl -lm \
      -o "$driver" >"$work/driver.log" 2>&1; then
    echo "FAIL: building the driver"; cat "$work/driver.log"; exit 1
  fi
fi

failed=""
for lvl in $levels; do
  stem="$work/$base.O$lvl"
  ptx="$out/$base.O$lvl.ptx"
  step() {
    what=$1; shift
    if ! "$@" >"$stem.log" 2>&1; then
      echo "FAIL O$lvl: $what"; cat "$stem.log"; failed="$failed O$lvl"; return 1
    fi
  }
  oflags="-O$lvl"
  [ "$lvl" = 0 ] && oflags="-O0 -Xclang -disable-O0-optnone"
  # shellcheck disable=SC2086
  step "clang (device code)" "$clang" -x cuda --cuda-path="$cuda" \
      --cuda-gpu-arch=sm_90 --cuda-device-only -nocudalib $oflags \
      -Wno-unknown-cuda-version -I"$(dirname "$src")" -S -emit-llvm "$src" \
      -o "$stem.ll" || continue
  step "autodiff-opt" "$adopt" "$stem.ll" -O2 -o "$stem.ad.bc" || continue
  step "llvm-link libdevice" "$bin/llvm-link" "$stem.ad.bc" \
      "$cuda/nvvm/libdevice/libdevice.10.bc" -o "$stem.linked.bc" || continue
  step "opt" "$bin/opt" -passes='internalize,default<O2>' \
      -internalize-public-api-list=primal,gradient,tangent "$stem.linked.bc" \
      -o "$stem.opt.bc" || continue
  step "llc" "$bin/llc" -march=nvptx64 -mcpu=sm_90 "$stem.opt.bc" -o "$ptx" \
      || continue
  if [ -x "$cuda/bin/ptxas" ]; then
    step "ptxas" "$cuda/bin/ptxas" -arch=sm_90 "$ptx" -o "$stem.cubin" || continue
  fi
  args="$(shape "$(field check)")"
  echo "\"\$(dirname \"\$0\")/gpu_check\" \"\$(dirname \"\$0\")/$base.O$lvl.ptx\" check $args || echo FAIL $base O$lvl" >>"$out/run.sh"
  # shellcheck disable=SC2086
  "$driver" "$ptx" check $args >"$stem.run" 2>&1
  rc=$?
  if [ $rc = 77 ]; then
    echo "O$lvl: built; $(cat "$stem.run")"
  elif [ $rc != 0 ]; then
    echo "FAIL O$lvl: run"; cat "$stem.run"; failed="$failed O$lvl"
  else
    echo "O$lvl: passed"; sed 's|^|  |' "$stem.run"
  fi
  if [ "$lvl" = 2 ]; then
    targs="$(shape "$(field time)")"
    echo "\"\$(dirname \"\$0\")/gpu_check\" \"\$(dirname \"\$0\")/$base.O2.ptx\" time $targs | sed 's|^|$base: |'" >>"$out/run.sh"
    # shellcheck disable=SC2086
    [ -n "${ADTEST_GPU_TIME:-}" ] && "$driver" "$ptx" time $targs
  fi
done
if [ -n "$failed" ]; then
  echo "$base: failed at$failed"
  exit 1
fi
exit 0
