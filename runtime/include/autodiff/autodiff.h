/*===- autodiff/autodiff.h - The C API of the autodiff library -----------===*
 *
 * What a host (a language runtime, a JIT, a Python program through ctypes)
 * calls to differentiate LLVM IR in memory and get callable derivatives
 * back, in the same process. C99; no LLVM or C++ types. Link with
 * -lautodiff (libautodiff.so).
 *
 * Errors: every function that can fail returns 0 or NULL and, when `error`
 * is not NULL, sets *error to a message (the diagnostic text autodiff-opt
 * prints, one problem per line) that the caller frees with ad_free_error.
 * Nothing aborts the host process.
 *
 * Threads: one ad_jit must not be used from two threads at once; different
 * ad_jit objects may be used from different threads at the same time.
 * ad_differentiate and ad_version may be called from any thread.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_AUTODIFF_H
#define AUTODIFF_AUTODIFF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An in-process JIT holding modules, requests and compiled code. */
typedef struct ad_jit ad_jit;

/* The library's version and the LLVM it is built on, e.g.
 * "autodiff 0.1.0 (LLVM 22.1.0)". Static storage; do not free. */
const char *ad_version(void);

/* Frees a message set by a failing call; NULL is ignored. */
void ad_free_error(char *error);

/* Creates a JIT. `options` (may be NULL or "") takes autodiff-opt's words,
 * separated by spaces: -O0, -O1, -O2 (default), -O3, -Os, -Oz (optimization
 * after differentiation), --pre-opt=O0..O3, --no-postopt,
 * --derivative-fast-math=FLAGS, --no-undo-log, --replace-targets,
 * --no-annotations.
 * Host process symbols (libc, libm, ...) are found automatically. */
ad_jit *ad_jit_create(const char *options, char **error);

/* Adds a module: textual IR or bitcode (from clang-22, rustc 1.95, or
 * Numba's LLVM 14 text), `size` bytes (text need not be NUL-terminated).
 * Modules added before a lookup are linked together and compiled at that
 * lookup. Returns 1, or 0 on error (nothing is added). */
int ad_jit_add_module(ad_jit *jit, const char *ir, size_t size,
                      char **error);

/* Adds a rustc-style item in autodiff-opt's --autodiff syntax, e.g.
 * "f=autodiff_reverse(df, Duplicated, Active)" or
 * "f(x: &[f64]) -> f64=autodiff_reverse(df, Duplicated, Active)". It is
 * lowered with the modules at the next lookup. Returns 1, or 0 when the
 * spec does not parse. */
int ad_jit_add_item(ad_jit *jit, const char *spec, char **error);

/* Makes `name` resolve to `address` in the modules (a function or data
 * the host provides, e.g. Numba's NRT helpers). Returns 1, or 0 on error
 * (the name is already defined). */
int ad_jit_define_symbol(ad_jit *jit, const char *name, void *address,
                         char **error);

/* Returns the address of function or global `name`. First, what was added
 * since the last lookup is differentiated (items and every __enzyme_* call
 * in the modules), optimized and compiled; later lookups reuse the code.
 * NULL on error: a problem in the modules or requests (then they are
 * dropped, and the JIT stays usable for new ones), or no such symbol. */
void *ad_jit_lookup(ad_jit *jit, const char *name, char **error);

/* Destroys the JIT and its code; NULL is ignored. */
void ad_jit_destroy(ad_jit *jit);

/* Ahead of time: differentiates the module `ir` (text or bitcode) with
 * `options` (as ad_jit_create's, plus --bitcode for bitcode output) and
 * the `nitems` items, and returns the result in *out (textual IR unless
 * --bitcode; NUL-terminated either way, *out_size bytes without the NUL;
 * free with ad_free_error). Returns 1, or 0 on error. */
int ad_differentiate(const char *ir, size_t size, const char *options,
                     const char *const *items, size_t nitems, char **out,
                     size_t *out_size, char **error);

#ifdef __cplusplus
}
#endif

#endif /* AUTODIFF_AUTODIFF_H */
