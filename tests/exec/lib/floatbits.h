/*===- tests/exec/lib/floatbits.h - A double's bits, and back ----*- C -*-===*
 *
 * The two helpers the float-bits tests build their programs from: the bits
 * of a double as a uint64_t, and a double made of such bits (memcpy, as
 * portable C writes a reinterpretation).
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_TESTS_FLOATBITS_H
#define AUTODIFF_TESTS_FLOATBITS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}

static inline double double_of(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}

#endif /* AUTODIFF_TESTS_FLOATBITS_H */
