#===- bench/bench.cmake - bench_forward: forward mode against the primal -===#
#
# kernels.c --clang -O2 -S -emit-llvm--> kernels.ll
#           --autodiff-opt -O2--------> kernels.ad.ll
#           --clang -O2 -c------------> kernels.ad.o, linked into
# bench_forward (Google Benchmark, bench_forward.cpp). See README.md.
#
#===----------------------------------------------------------------------===#
if(NOT TARGET autodiff-opt)
  message(STATUS "bench_forward: no autodiff-opt target, skipped")
  return()
endif()

set(AUTODIFF_BENCH_CLANG ${AUTODIFF_LLVM_BIN}/clang CACHE FILEPATH
  "clang (LLVM 22) compiling the benchmark kernels to IR")

set(_bench_src ${CMAKE_CURRENT_SOURCE_DIR}/kernels.c)
set(_bench_ll ${CMAKE_CURRENT_BINARY_DIR}/kernels.ll)
set(_bench_ad ${CMAKE_CURRENT_BINARY_DIR}/kernels.ad.ll)
set(_bench_obj ${CMAKE_CURRENT_BINARY_DIR}/kernels.ad.o)

add_custom_command(
  OUTPUT ${_bench_ll}
  COMMAND ${AUTODIFF_BENCH_CLANG} -O2 -S -emit-llvm -fPIC
          -I${CMAKE_CURRENT_SOURCE_DIR} ${_bench_src} -o ${_bench_ll}
  DEPENDS ${_bench_src} ${CMAKE_CURRENT_SOURCE_DIR}/kernels.h
  COMMENT "bench: kernels.c -> IR (clang -O2)"
  VERBATIM)
add_custom_command(
  OUTPUT ${_bench_ad}
  COMMAND $<TARGET_FILE:autodiff-opt> ${_bench_ll} -O2 -o ${_bench_ad}
  DEPENDS ${_bench_ll} autodiff-opt
  COMMENT "bench: differentiating the kernels (autodiff-opt -O2)"
  VERBATIM)
add_custom_command(
  OUTPUT ${_bench_obj}
  COMMAND ${AUTODIFF_BENCH_CLANG} -O2 -c -fPIC -Wno-override-module
          ${_bench_ad} -o ${_bench_obj}
  DEPENDS ${_bench_ad}
  COMMENT "bench: kernels.ad.ll -> object"
  VERBATIM)
set_source_files_properties(${_bench_obj} PROPERTIES
  EXTERNAL_OBJECT TRUE GENERATED TRUE)

add_executable(bench_forward bench_forward.cpp ${_bench_obj})
target_include_directories(bench_forward PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(bench_forward PRIVATE benchmark::benchmark m)

#===----------------------------------------------------------------------===#
# bench_ad_time: AD time and peak memory against module size. The modules
# are generated C programs (scale/gen_module.py N: N noinline functions,
# one request reaching all of them) compiled to IR at -O2.
#===----------------------------------------------------------------------===#
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "bench_ad_time: no python3, skipped")
  return()
endif()
set(_scale_modules)
# scale_<stem>.ll: gen_module.py <n> <extra arguments>, compiled at -O2.
function(autodiff_scale_module stem n what)
  set(_c ${CMAKE_CURRENT_BINARY_DIR}/scale_${stem}.c)
  set(_ll ${CMAKE_CURRENT_BINARY_DIR}/scale_${stem}.ll)
  add_custom_command(
    OUTPUT ${_ll}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scale/gen_module.py
            ${n} ${ARGN} --out ${_c}
    COMMAND ${AUTODIFF_BENCH_CLANG} -O2 -S -emit-llvm ${_c} -o ${_ll}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/scale/gen_module.py
    COMMENT "bench: generating the ${n}-function ${what} module"
    VERBATIM)
  set(_scale_modules ${_scale_modules} ${_ll} PARENT_SCOPE)
endfunction()
foreach(_n 250 1000 4000)
  autodiff_scale_module(${_n} ${_n} "scale")
endforeach()
# One gradient request (`__enzyme_autodiff`) over 25 functions: a module of
# about 95 KB of IR, the size the reverse-mode goal (under 50 ms of CPU to
# differentiate one request) is stated for; and over 250.
foreach(_n 25 250)
  autodiff_scale_module(rev_${_n} ${_n} "reverse scale" --reverse)
endforeach()
add_custom_target(bench_scale_modules DEPENDS ${_scale_modules})
add_executable(bench_ad_time bench_ad_time.cpp)
add_dependencies(bench_ad_time bench_scale_modules)
string(REPLACE ";" "\\;" _scale_list "${_scale_modules}")
target_compile_definitions(bench_ad_time PRIVATE
  "AUTODIFF_SCALE_MODULES=\"${_scale_list}\"")
target_link_libraries(bench_ad_time PRIVATE autodiff_codegen benchmark::benchmark)
