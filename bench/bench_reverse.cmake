#===- bench/bench_reverse.cmake - bench_reverse: reverse mode -----------===#
#
# reverse_kernels.c is built three times, each object exporting its names
# with the variant as suffix (reverse_kernels.h):
#   o2: clang -O2 IR             --autodiff-opt -O2--> --clang -O2 -c--> .o
#   o0: clang -O0 IR (no optnone) --autodiff-opt --pre-opt=O0 -O2--> ... .o
#   nf: as o2, with --derivative-fast-math=none (o2 has the default flags)
# so o2 differentiates optimized IR and o0 differentiates first and
# optimizes afterwards. Both are linked into bench_reverse with the
# allocation functions wrapped (heap_meter.c). See README.md.
#
#===----------------------------------------------------------------------===#
if(NOT TARGET autodiff-opt)
  message(STATUS "bench_reverse: no autodiff-opt target, skipped")
  return()
endif()

set(AUTODIFF_BENCH_CLANG ${AUTODIFF_LLVM_BIN}/clang CACHE FILEPATH
  "clang (LLVM 22) compiling the benchmark kernels to IR")

set(_rk_src ${CMAKE_CURRENT_SOURCE_DIR}/reverse_kernels.c)
set(_rk_objs)
foreach(_variant o2 o0 nf)
  if(_variant STREQUAL "o2")
    set(_cflags -O2)
    set(_adflags -O2)
  elseif(_variant STREQUAL "nf")
    set(_cflags -O2)
    set(_adflags -O2 --derivative-fast-math=none)
  else()
    set(_cflags -O0 -Xclang -disable-O0-optnone)
    set(_adflags --pre-opt=O0 -O2)
  endif()
  set(_ll ${CMAKE_CURRENT_BINARY_DIR}/reverse_kernels.${_variant}.ll)
  set(_ad ${CMAKE_CURRENT_BINARY_DIR}/reverse_kernels.${_variant}.ad.ll)
  set(_obj ${CMAKE_CURRENT_BINARY_DIR}/reverse_kernels.${_variant}.o)
  add_custom_command(
    OUTPUT ${_ll}
    COMMAND ${AUTODIFF_BENCH_CLANG} ${_cflags} -S -emit-llvm -fPIC
            -DRK_VARIANT=${_variant} -I${CMAKE_CURRENT_SOURCE_DIR} ${_rk_src}
            -o ${_ll}
    DEPENDS ${_rk_src} ${CMAKE_CURRENT_SOURCE_DIR}/reverse_kernels.h
    COMMENT "bench: reverse_kernels.c -> IR (${_variant})"
    VERBATIM)
  add_custom_command(
    OUTPUT ${_ad}
    COMMAND $<TARGET_FILE:autodiff-opt> ${_ll} ${_adflags} -o ${_ad}
    DEPENDS ${_ll} autodiff-opt
    COMMENT "bench: differentiating the reverse kernels (${_variant})"
    VERBATIM)
  add_custom_command(
    OUTPUT ${_obj}
    COMMAND ${AUTODIFF_BENCH_CLANG} -O2 -c -fPIC -Wno-override-module
            ${_ad} -o ${_obj}
    DEPENDS ${_ad}
    COMMENT "bench: reverse_kernels.${_variant}.ad.ll -> object"
    VERBATIM)
  set_source_files_properties(${_obj} PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  list(APPEND _rk_objs ${_obj})
endforeach()

add_executable(bench_reverse bench_reverse.cpp reverse_problems.cpp
  heap_meter.c ${_rk_objs})
target_include_directories(bench_reverse PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(bench_reverse PRIVATE benchmark::benchmark m)
# Calls from the program's own objects (the kernels) to the allocation
# functions go through heap_meter.c.
target_link_options(bench_reverse PRIVATE
  "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free")

# A quick smoke test: the gradient check at startup, then one short run of
# one kernel's three benchmarks.
if(AUTODIFF_BUILD_TESTS)
  add_test(NAME bench_reverse_smoke
    COMMAND bench_reverse --benchmark_filter=normalize
            --benchmark_min_time=0.01)
  set_tests_properties(bench_reverse_smoke PROPERTIES TIMEOUT 60)
endif()
