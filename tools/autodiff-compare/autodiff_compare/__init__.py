#===- autodiff_compare/__init__.py - AD before vs after opt ----------------===#
#
# The package behind the `autodiff-compare` command (the thin script next
# to this folder). It builds the gradients of a user's C/C++ file (or IR
# module) by two or more routes, runs them, checks that they agree, and
# prints how fast each is:
#
#   after      clang -O2 IR              -> autodiff-opt -O2   (AD after optimization)
#   before     clang -O0 (no optnone) IR -> autodiff-opt -O2   (AD before it)
#   before:OX  the same with autodiff-opt --pre-opt=OX
#
# What to time is found by name in the module: each pair of entry points
#
#   double primal_NAME(void);                        one call of the function
#   size_t gradient_NAME(double *grad, size_t cap);  one gradient; returns
#                                                    the entries written
#   void   setup_NAME(void);                         optional, once per run
#
# is a kernel NAME. The tool writes a small C driver that calls them (and
# wraps malloc/calloc/realloc/free, and operator new/delete for C++, with
# `ld --wrap` to count heap bytes), links it with each route's object
# (where a user's own main is renamed), runs every binary once to compare
# the primal results and gradients (written exactly, with %a, to a results
# file apart from the program's own output), then runs them --reps times,
# alternating routes, to time them. Times are medians of the runs; each
# run times as many calls as fill --min-time.
#
# The modules, in the order a run uses them:
#
#   main.py       main() and the run from start to end
#   options.py    the command line: options, --help text, value checks
#   common.py     the program name and its one error channel (Failure)
#   toolchain.py  finding clang-22 and autodiff-opt; running a command
#   kernels.py    finding the kernels' entry points in the IR
#   build.py      the routes and their compiles and links
#   driver.py     the generated C driver (timing, heap accounting)
#   check.py      the check run: primal results and gradients compared
#   timing.py     the timed runs and their medians
#   report.py     the table, the JSON file and the plot
#
# Standard library Python 3.11 only; matplotlib for --plot, imported only
# then.
#
#===----------------------------------------------------------------------===#
