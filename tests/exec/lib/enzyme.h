/*===- tests/exec/lib/enzyme.h - Enzyme's C entry points ---------*- C -*-===*
 *
 * What C programs declare to request derivatives (see
 * /work/shared/CALLING-CONVENTION.md). A call is a request when the callee's
 * name contains `__enzyme_fwddiff` (forward) or `__enzyme_autodiff`
 * (reverse); the first argument is the function, then each argument with an
 * optional marker before it.
 *
 * Variadic calls promote float to double, so a float scalar must go through
 * a prototype that names its types, e.g.
 *   float __enzyme_fwddiff_ff(float (*)(float, float), float, float,
 *                             float, float);
 * Each program may declare further entry points with the return type it
 * needs; only the name must contain `__enzyme_fwddiff`.
 *
 * The marker globals are declared, not defined: after differentiation no
 * use of them may remain, or the program does not link.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_TESTS_ENZYME_H
#define AUTODIFF_TESTS_ENZYME_H

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out,
    enzyme_width, enzyme_primal_return;

/* Tangents of W = 2 and W = 4 lanes. The C ABI returns the first in
 * registers ({double, double}) and the second through an sret pointer. */
typedef struct {
  double d[2];
} enzyme_v2;
typedef struct {
  double d[4];
} enzyme_v4;
/* With enzyme_primal_return in forward mode: (primal, tangent). */
typedef struct {
  double primal, tangent;
} enzyme_dual;

/* Forward mode, by return type. */
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_float(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
enzyme_v2 __enzyme_fwddiff_v2(void *, ...);
enzyme_v4 __enzyme_fwddiff_v4(void *, ...);
enzyme_dual __enzyme_fwddiff_dual(void *, ...);

/* Reverse mode. */
double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_void(void *, ...);

#endif /* AUTODIFF_TESTS_ENZYME_H */
