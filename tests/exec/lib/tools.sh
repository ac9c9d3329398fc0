# Sourced by run-c.sh and run-rust.sh: which clang and autodiff-opt to use.
#   ADTEST_CLANG         clang (default /usr/lib/llvm-22/bin/clang, else
#                        clang-22 on PATH)
#   ADTEST_AUTODIFF_OPT  autodiff-opt (default: on PATH; lit puts the
#                        build's bin/ first)
if [ -n "${ADTEST_CLANG:-}" ]; then
  clang=$ADTEST_CLANG
elif [ -x /usr/lib/llvm-22/bin/clang ]; then
  clang=/usr/lib/llvm-22/bin/clang
else
  clang=clang-22
fi
adopt=${ADTEST_AUTODIFF_OPT:-autodiff-opt}
