// A rotation of an array of `{double; int;}` records by struct copies over
// a pointer range, whose length comes from the distance of two iterators
// (`(e - b)`, which optimized code keeps as a byte distance and divides
// with `ashr exact`, then reaches elements at `b + bytes`): the type
// analysis now places such byte offsets in the records (a known multiple
// of their size) instead of at every offset, where the double and the int
// joined into "anything" and the record copies were refused at -O1..-O3.
// Both modes against finite differences. At -O0 forward mode refused the
// iterator distance that a noinline-free helper returns (`integer mul on
// the bits of an active floating-point value`): an integer computed from
// addresses only is no float's bits.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  double key;
  int cls;
} Record;

static long distance(Record *const *a, Record *const *b) { return *a - *b; }

// Moves the last record to the front; `budget` bounds the steps, as an
// introsort's depth limit does.
static void rotate_right(Record *b, Record *e, long budget) {
  Record last = *(e - 1);
  for (Record *j = e - 1; j > b && budget > 0; --j, --budget)
    *j = *(j - 1);
  *b = last;
}

double score(const double *key, int n) {
  Record a[8];
  for (int i = 0; i < n; i++) {
    a[i].key = key[i];
    a[i].cls = i + 1;
  }
  Record *b = a, *e = a + n;
  long budget = distance(&e, &b) * 2;
  rotate_right(b, e, budget);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * a[i].key * a[i].key * a[i].cls;
  return s;
}

enum { N = 5 };
static double score_of(const double *x, void *ctx) {
  (void)ctx;
  return score(x, N);
}

int main(void) {
  double key[N] = {0.35, -1.2, 0.8, 2.0, -0.6};
  double dir[N] = {1, 2, 1, 2, -1}, grad[N] = {0};
  CHECK_CLOSE(fd_dir(score_of, NULL, key, dir, N),
              __enzyme_fwddiff((void *)score, enzyme_dup, key, dir,
                               enzyme_const, N));
  __enzyme_autodiff((void *)score, enzyme_dup, key, grad, enzyme_const, N);
  CHECK_GRADIENT(score_of, NULL, key, N, grad);
  return fd_report();
}
