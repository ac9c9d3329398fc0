# lit configuration for IR, diagnostic and executed-program tests.
import os
import shutil

import sys

import lit.formats

config.name = "autodiff"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test", ".rs", ".py", ".cu"]
config.excludes = ["Inputs", "lib", "fuzz", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt", "unit", "python"]
config.test_source_root = os.path.join(config.autodiff_src_root, "tests")
config.test_exec_root = os.path.join(config.autodiff_obj_root, "tests")

tools = config.llvm_tools_dir
bin_dir = os.path.join(config.autodiff_obj_root, "bin")
lib_dir = os.path.join(config.autodiff_obj_root, "lib")
config.environment["PATH"] = os.pathsep.join([bin_dir, tools, config.environment.get("PATH", "")])

config.substitutions.append(("%autodiff-opt", os.path.join(bin_dir, "autodiff-opt")))
config.substitutions.append(("%plugin", os.path.join(lib_dir, "AutodiffPlugin.so")))
# The C API: its header folder and the folder of libautodiff.so.
config.substitutions.append(("%capi-include", os.path.join(config.autodiff_src_root, "runtime", "include")))
config.substitutions.append(("%libdir", lib_dir))
config.substitutions.append(("%autodiff-compare", os.path.join(bin_dir, "autodiff-compare")))
config.substitutions.append(("%embed-example", os.path.join(bin_dir, "embed-example")))
config.substitutions.append(("%jit-host-example", os.path.join(bin_dir, "jit-host-example")))
config.substitutions.append(("%jit-runtime-example", os.path.join(bin_dir, "jit-runtime-example")))
config.substitutions.append(("%opt", os.path.join(tools, "opt")))
config.substitutions.append(("%clangxx", os.path.join(tools, "clang++")))
config.substitutions.append(("%clang", os.path.join(tools, "clang")))
config.substitutions.append(("%llvm-as", os.path.join(tools, "llvm-as")))
config.substitutions.append(("%llvm-dis", os.path.join(tools, "llvm-dis")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%testlib", os.path.join(config.test_source_root, "exec", "lib")))
# Executed programs: compile C to IR, differentiate, link with libc/libm.
config.substitutions.append(("%python-numba", "/usr/bin/python3.11"))

rustc = shutil.which("rustc")
if rustc:
    config.available_features.add("rustc")
    config.substitutions.append(("%rustc", rustc))
if os.path.exists("/usr/lib/python3/dist-packages/numba"):
    config.available_features.add("numba")
# GPU kernels (tests/exec/gpu) need the CUDA toolkit's headers and
# libdevice; they run their kernels only where a CUDA device is usable.
cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
if os.path.exists(os.path.join(cuda, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("cuda-toolkit")
    config.environment["CUDA_PATH"] = cuda
# autodiff-compare --plot draws with Debian's matplotlib.
if os.path.exists("/usr/lib/python3/dist-packages/matplotlib"):
    config.available_features.add("matplotlib")

# Executed C programs (tests/exec/lib/run-c.sh) take their tools from these.
config.environment["ADTEST_CLANG"] = os.path.join(tools, "clang")
config.environment["ADTEST_AUTODIFF_OPT"] = os.path.join(bin_dir, "autodiff-opt")

# Plain python for generator scripts (after %python-numba so it does not
# shadow it).
config.substitutions.append(("%python", sys.executable))

# Executed tests built for AVX2 run only where the CPU has it.
try:
    with open("/proc/cpuinfo") as f:
        if " avx2" in f.read():
            config.available_features.add("avx2")
except OSError:
    pass

# A sanitizer build (-DAUTODIFF_SANITIZERS): the programs the tests build
# from derivatives are instrumented too; tests that load the plugin or
# libautodiff into an uninstrumented host (clang-22, opt-22, python) are
# unsupported there (`REQUIRES: !sanitizers` is spelled `UNSUPPORTED:
# sanitizers`).
if getattr(config, "sanitizers", ""):
    config.available_features.add("sanitizers")
    config.environment["ADTEST_LINK_FLAGS"] = "-fsanitize=" + config.sanitizers
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
