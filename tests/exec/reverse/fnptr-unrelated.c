// Calls through a function pointer are dispatched over every function of
// the call's type whose address is taken, and every candidate used to be
// differentiated: one that cannot be (here it sorts with qsort, which has
// no derivative) made the whole request fail, even when the pointer never
// holds it (found by the C hunt at -O0: a finite-difference wrapper of the
// same type, passed to a checker, broke the gradient of a function-table
// program). Now such a candidate's arm stops the program with the reason
// should the pointer ever hold it, and the other candidates are
// differentiated: inlined candidates (the derivative is built again
// without them) and recursive ones kept as calls (their derivative's body
// is the stop). Checked: the gradient through the differentiable entry
// against finite differences, and, in child processes, that taking either
// other entry stops the program with a message naming the function. Also
// through a candidate that itself calls through a table holding a bad
// candidate (found by a later hunt: the outer candidate's split
// derivative failed, and the program stopped wrongly).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { N = 6 };
typedef double (*lossfn)(const double *, int);

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double squares(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * (i + 1);
  return s;
}

/* Not differentiable: qsort on active data. */
double sorted_weights(const double *x, int n) {
  double t[N];
  memcpy(t, x, n * sizeof(double));
  qsort(t, n, sizeof(double), by_value);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * (i + 1);
  return s;
}

/* Not differentiable either, and recursive: kept as a call. */
double sorted_tail(const double *x, int n) {
  if (n <= 2) {
    double t[2] = {x[0], n > 1 ? x[1] : 0};
    qsort(t, 2, sizeof(double), by_value);
    return t[0] - t[1];
  }
  return sorted_tail(x, n - 1) * 0.5 + x[n - 1];
}

/* Calls through a table again: its candidates include the two above and
 * itself (so it is kept as a call, a split derivative whose own dispatch
 * must leave the bad candidates out, not fail). */
extern lossfn inner[3];
int inner_which = 0;
double nested(const double *x, int n) {
  return 0.5 * inner[inner_which](x, n) + x[n - 1];
}
lossfn inner[3] = {squares, sorted_weights, nested};

/* Writable, so the entry is known only at run time at every level. */
lossfn table[4] = {squares, sorted_weights, sorted_tail, nested};

double loss(const double *x, int n, int which) {
  return 2 * table[which](x, n) + x[0];
}

static int F_which;
static double loss_F(const double *v, void *c) {
  (void)c;
  return loss(v, N, F_which);
}

/* Runs the gradient through entry `which` in a child; returns whether it
 * was stopped with a message naming `name`. */
static int stops_with(int which, const char *name) {
  int fd[2];
  if (pipe(fd) != 0)
    return 0;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    double x[N] = {1, 2, 3, 4, 5, 6}, dx[N] = {0};
    __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N,
                      enzyme_const, which);
    _exit(0);
  }
  close(fd[1]);
  char msg[2048] = {0};
  size_t got = 0;
  ssize_t k;
  while (got + 1 < sizeof msg && (k = read(fd[0], msg + got, sizeof msg - 1 - got)) > 0)
    got += (size_t)k;
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  int ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
           strstr(msg, "through a function pointer") && strstr(msg, name) &&
           strstr(msg, "could not be differentiated");
  if (!ok)
    fprintf(stderr, "entry %d: status %d, message: %s\n", which, status, msg);
  return ok;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 * i - 0.7;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, 0);
  CHECK_GRADIENT(loss_F, 0, x, N, dx);
  /* through `nested`, whose own call takes `squares` */
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, 3);
  F_which = 3;
  CHECK_GRADIENT(loss_F, 0, x, N, dx);
  CHECK(stops_with(1, "sorted_weights"));
  CHECK(stops_with(2, "sorted_tail"));
  return fd_report();
}
