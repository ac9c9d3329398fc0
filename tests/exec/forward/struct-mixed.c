// Forward mode through structs mixing int and double fields: passed by
// pointer (a dup struct whose shadow holds tangents in its double fields),
// returned by value from noinline helpers (a small one in registers, a large
// one through sret), copied whole, and written through an output pointer.
// Only the shadow's double fields are checked; its int fields are not
// tangents.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  int n;
  double scale;
  double offset;
  int flags; /* bit 0: only positive x count */
} Params;

typedef struct {
  int count;
  double value;
} Acc; /* returned in registers */

typedef struct {
  int id;
  double a, b, c;
} Big; /* returned through sret */

__attribute__((noinline)) Acc accumulate(const Params *p, const double *x) {
  Acc r = {0, 0.0};
  for (int i = 0; i < p->n; ++i)
    if (!(p->flags & 1) || x[i] > 0) {
      r.value += p->scale * x[i] * x[i];
      r.count++;
    }
  return r;
}

__attribute__((noinline)) Big summarize(const Params *p, double v) {
  Big b;
  b.id = p->flags * 10;
  b.a = v * p->offset;
  b.b = sin(v);
  b.c = v * v;
  return b;
}

double model(const Params *p, const double *x) {
  Acc acc = accumulate(p, x);
  Big b = summarize(p, acc.value);
  return b.a + b.b * b.c + acc.count * p->offset + (b.id > 5 ? 1.0 : 0.0);
}

void update(Params *out, const Params *in, const double *x) {
  *out = *in;
  out->scale = in->scale * model(in, x);
  out->offset += x[0];
  out->n = in->n - 1;
}

enum { N = 9 };

/* Finite differences over v = [scale, offset, x_0 .. x_{n-1}]. */
struct ctx {
  Params p;
};
static double model_fd(const double *v, void *c) {
  Params p = ((struct ctx *)c)->p;
  p.scale = v[0];
  p.offset = v[1];
  return model(&p, v + 2);
}
static void update_fd(const double *v, double *out, void *c) {
  Params p = ((struct ctx *)c)->p, o;
  p.scale = v[0];
  p.offset = v[1];
  update(&o, &p, v + 2);
  out[0] = o.scale;
  out[1] = o.offset;
}

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.45 * cos(1.9 * i) + 0.1; /* mixed signs, none near 0 */
    dx[i] = 0.2 + 0.15 * sin(0.8 * i);
  }
  for (int flags = 0; flags <= 1; ++flags) {
    Params p = {N, 0.8, -0.35, flags};
    Params dp = p; /* int fields copied, double fields: tangents */
    dp.scale = 0.3;
    dp.offset = -1.1;

    /* Analytic: V = scale S, model = V off + sin(V) V^2 + c off + [id>5]. */
    double S = 0, dS = 0;
    int cnt = 0;
    for (int i = 0; i < N; ++i)
      if (!flags || x[i] > 0) {
        CHECK(fabs(x[i]) > 0.01);
        S += x[i] * x[i];
        dS += 2 * x[i] * dx[i];
        ++cnt;
      }
    double V = p.scale * S, dV = dp.scale * S + p.scale * dS;
    double model_v = V * p.offset + sin(V) * V * V + cnt * p.offset +
                     (flags * 10 > 5 ? 1.0 : 0.0);
    double dmodel = dV * p.offset + V * dp.offset + cos(V) * dV * V * V +
                    sin(V) * 2 * V * dV + cnt * dp.offset;
    CHECK_CLOSE(model_v, model(&p, x));

    struct ctx c = {p};
    double v[N + 2], dv[N + 2], fdo[2];
    v[0] = p.scale;
    v[1] = p.offset;
    dv[0] = dp.scale;
    dv[1] = dp.offset;
    for (int i = 0; i < N; ++i) {
      v[2 + i] = x[i];
      dv[2 + i] = dx[i];
    }
    CHECK_CLOSE(dmodel, fd_dir(model_fd, &c, v, dv, N + 2));
    CHECK_CLOSE(dmodel, __enzyme_fwddiff((void *)model, enzyme_dup, &p, &dp,
                                         enzyme_dup, x, dx));
    /* x const: only the parameters move. */
    double dmodel_p = dmodel - (p.scale * dS) *
                                   (p.offset + cos(V) * V * V + sin(V) * 2 * V);
    CHECK_CLOSE(dmodel_p,
                __enzyme_fwddiff((void *)model, &p, &dp, enzyme_const, x));

    /* update: the output struct and its shadow. */
    Params out = {-1, -1, -1, -1}, dout = {-7, 77.0, 88.0, -7};
    __enzyme_fwddiff_void((void *)update, enzyme_dup, &out, &dout, enzyme_dup,
                          &p, &dp, enzyme_dup, x, dx);
    CHECK(out.n == N - 1 && out.flags == flags);
    CHECK_CLOSE(p.scale * model_v, out.scale);
    CHECK_CLOSE(p.offset + x[0], out.offset);
    double d_scale = dp.scale * model_v + p.scale * dmodel;
    double d_offset = dp.offset + dx[0];
    update_fd(v, fdo, &c); /* primal through the callback */
    CHECK_CLOSE(p.scale * model_v, fdo[0]);
    fd_dir_vec(update_fd, &c, v, dv, N + 2, fdo, 2);
    CHECK_CLOSE(d_scale, fdo[0]);
    CHECK_CLOSE(d_offset, fdo[1]);
    CHECK_CLOSE(d_scale, dout.scale);
    CHECK_CLOSE(d_offset, dout.offset);
    /* Inputs unchanged. */
    CHECK(p.scale == 0.8 && dp.scale == 0.3 && dp.offset == -1.1);
  }
  return fd_report();
}
