// Sign and exponent bits of an active float read as numbers (frexp-style
// exponent extraction, a sign bit turned into +-1) are piecewise constant:
// their derivative is zero and the rest of the function differentiates as
// usual. Checked against finite differences and analytic formulas.
// (Mantissa bits read as numbers are a diagnostic:
// tests/lit/diagnostics/float-mantissa-number.c.)
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static int exponent_of(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (int)((b >> 52) & 0x7ff) - 1023;
}

/* x * 2^-e plus e: the scale comes from the exponent bits. */
double mantissa_scaled(double x) {
  int e = exponent_of(x);
  return x * ldexp(1.0, -e) + (double)e;
}

double sign_as_number(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  double s = 1.0 - 2.0 * (double)(b >> 63);
  return s * x * x;
}

float exponent_float(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  uint32_t e = (b >> 23) & 0xff;
  return (float)e * x;
}

float __enzyme_fwddiff_ff(float (*)(float), float, float);

int main(void) {
  const double xs[] = {1.7, -3.25, 0.3, 1000.5};
  for (int k = 0; k < 4; ++k) {
    double x = xs[k];
    double scale = ldexp(1.0, -exponent_of(x));
    CHECK_CLOSE(scale, fd_scalar(mantissa_scaled, x));
    CHECK_CLOSE(scale, __enzyme_fwddiff((void *)mantissa_scaled, x, 1.0));
    CHECK_CLOSE(2 * fabs(x), fd_scalar(sign_as_number, x));
    CHECK_CLOSE(2 * fabs(x), __enzyme_fwddiff((void *)sign_as_number, x, 1.0));
    float xf = (float)x;
    uint32_t bits;
    memcpy(&bits, &xf, 4);
    double e = (double)((bits >> 23) & 0xff);
    CHECK_CLOSE_F(e, __enzyme_fwddiff_ff(exponent_float, xf, 1.0f));
  }
  return fd_report();
}
