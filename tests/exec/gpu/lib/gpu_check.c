/* tests/exec/gpu/lib/gpu_check.c - run a GPU test's kernels and check them.
 *
 * usage: gpu_check PTX check|time N N_IN N_OUT GX GY BX BY AUX
 *
 * N is the kernels' size argument; N_IN and N_OUT the lengths of x and y;
 * GX GY BX BY the launch's grid and block.
 *
 * Loads PTX (the kernels of gpu_kernel.h) with the CUDA driver API.
 * check: the gradient kernel's dx against central finite differences of
 *   L(x) = sum_i w_i y_i(x) computed with the primal kernel, the tangent
 *   kernel's w . dy against the gradient's dx . v, and the primal results
 *   both derivatives compute against the primal kernel's.
 * time: median kernel times of the primal, gradient and tangent kernels,
 *   and their ratios.
 * AUX: "none", or "gather" (N_OUT indices into x, each repeated).
 * Exits 77 when no CUDA device is usable (no libcuda.so.1, or cuInit
 * fails), 1 on a mismatch. The driver library is opened at run time, so
 * the program builds and starts on machines without one.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = NULL;                                                   \
      p_cuGetErrorString(r_, &s_);                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
              s_ ? s_ : "?");                                                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)


/* The driver API, through pointers resolved with dlopen (cuda.h's macros
 * give the versioned names: cuMemAlloc is cuMemAlloc_v2). */
#define CUDA_FUNCTIONS(X)                                                      \
  X(cuInit) \
  X(cuDeviceGetCount) \
  X(cuDeviceGet) \
  X(cuDevicePrimaryCtxRetain) \
  X(cuCtxSetCurrent) \
  X(cuCtxSetLimit) \
  X(cuModuleLoadData) \
  X(cuModuleGetFunction) \
  X(cuMemAlloc) \
  X(cuMemcpyHtoD) \
  X(cuMemcpyDtoH) \
  X(cuMemsetD8) \
  X(cuLaunchKernel) \
  X(cuCtxSynchronize) \
  X(cuEventCreate) \
  X(cuEventRecord) \
  X(cuEventSynchronize) \
  X(cuEventElapsedTime) \
  X(cuGetErrorString)
#define NAME_OF(f) #f
#define SYMBOL_OF(f) NAME_OF(f)
#define DECLARE(f) static __typeof__(&f) p_##f;
CUDA_FUNCTIONS(DECLARE)

static int LoadDriver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return 0;
#define RESOLVE(f)                                                             \
  if (!(p_##f = (__typeof__(&f))dlsym(lib, SYMBOL_OF(f))))                     \
    return 0;
  CUDA_FUNCTIONS(RESOLVE)
  return 1;
}

typedef struct {
  int n, n_in, n_out, gx, gy, bx, by, gather;
} Shape;

static CUfunction primal_fn, gradient_fn, tangent_fn;
static CUdeviceptr x_d, dx_d, y_d, dy_d, aux_d;
static Shape shape;

static unsigned long long rng = 88172645463325252ull;
static double Uniform(double lo, double hi) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static char *ReadFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, f) != (size_t)size) {
    perror(path);
    exit(1);
  }
  text[size] = 0;
  fclose(f);
  return text;
}

static void Launch(CUfunction fn, int derivative) {
  int n = shape.n;
  void *primal_args[] = {&x_d, &y_d, &aux_d, &n};
  void *diff_args[] = {&x_d, &dx_d, &y_d, &dy_d, &aux_d, &n};
  CK(p_cuLaunchKernel(fn, shape.gx, shape.gy, 1, shape.bx, shape.by, 1, 0, 0,
                    derivative ? diff_args : primal_args, NULL));
  CK(p_cuCtxSynchronize());
}

static void Put(CUdeviceptr d, const double *h, int count) {
  CK(p_cuMemcpyHtoD(d, h, sizeof(double) * count));
}
static void Get(double *h, CUdeviceptr d, int count) {
  CK(p_cuMemcpyDtoH(h, d, sizeof(double) * count));
}
static void Zero(CUdeviceptr d, int count) {
  CK(p_cuMemsetD8(d, 0, sizeof(double) * count));
}

/* L(x) = sum w_i y_i with the primal kernel. */
static double Loss(const double *x, const double *w, double *y) {
  Put(x_d, x, shape.n_in);
  Zero(y_d, shape.n_out);
  Launch(primal_fn, 0);
  Get(y, y_d, shape.n_out);
  double sum = 0;
  for (int i = 0; i < shape.n_out; ++i)
    sum += w[i] * y[i];
  return sum;
}

static int MaxDiff(const char *what, const double *a, const double *b,
                   int count, double tol) {
  double worst = 0;
  int at = -1;
  for (int i = 0; i < count; ++i) {
    double err = fabs(a[i] - b[i]) / (1.0 + fabs(b[i]));
    if (err > worst) {
      worst = err;
      at = i;
    }
  }
  printf("%s: %d values, max relative error %.3g\n", what, count, worst);
  if (worst > tol) {
    printf("FAIL %s at %d: %.17g vs %.17g\n", what, at, a[at], b[at]);
    return 1;
  }
  return 0;
}

static int Check(void) {
  int n_in = shape.n_in, n_out = shape.n_out, failures = 0;
  double *x = malloc(sizeof(double) * n_in), *w = malloc(sizeof(double) * n_out);
  double *y = malloc(sizeof(double) * n_out), *y2 = malloc(sizeof(double) * n_out);
  double *g = malloc(sizeof(double) * n_in), *v = malloc(sizeof(double) * n_in);
  double *dy = malloc(sizeof(double) * n_out);
  for (int j = 0; j < n_in; ++j) {
    x[j] = Uniform(0.2, 1.2);
    v[j] = Uniform(-1, 1);
  }
  for (int i = 0; i < n_out; ++i)
    w[i] = Uniform(-1, 1);
  double *y0 = malloc(sizeof(double) * n_out);
  Loss(x, w, y0);

  /* Reverse: dx for the seed dy = w. */
  Put(x_d, x, n_in);
  Zero(dx_d, n_in);
  Zero(y_d, n_out);
  Put(dy_d, w, n_out);
  Launch(gradient_fn, 1);
  Get(g, dx_d, n_in);
  Get(y2, y_d, n_out);
  failures += MaxDiff("reverse primal result", y2, y0, n_out, 1e-12);

  /* Central differences at up to 256 inputs spread over x. */
  int samples = n_in < 256 ? n_in : 256;
  double *fd = malloc(sizeof(double) * samples);
  double *gs = malloc(sizeof(double) * samples);
  for (int s = 0; s < samples; ++s) {
    int j = (int)((long long)s * n_in / samples);
    double keep = x[j], h = 1e-5 * (1.0 + fabs(keep));
    x[j] = keep + h;
    double up = Loss(x, w, y);
    x[j] = keep - h;
    double down = Loss(x, w, y);
    x[j] = keep;
    fd[s] = (up - down) / (2 * h);
    gs[s] = g[j];
  }
  failures += MaxDiff("reverse gradient vs finite differences", gs, fd,
                      samples, 1e-6);

  /* Forward: w . dy for the direction v equals dx . v. */
  Put(x_d, x, n_in);
  Put(dx_d, v, n_in);
  Zero(y_d, n_out);
  Zero(dy_d, n_out);
  Launch(tangent_fn, 1);
  Get(dy, dy_d, n_out);
  Get(y2, y_d, n_out);
  failures += MaxDiff("forward primal result", y2, y0, n_out, 1e-12);
  double fwd = 0, rev = 0;
  for (int i = 0; i < n_out; ++i)
    fwd += w[i] * dy[i];
  for (int j = 0; j < n_in; ++j)
    rev += g[j] * v[j];
  failures += MaxDiff("forward tangent vs reverse gradient", &fwd, &rev, 1,
                      1e-9);
  return failures ? 1 : 0;
}

static float TimeKernel(CUfunction fn, int derivative) {
  CUevent start, stop;
  CK(p_cuEventCreate(&start, 0));
  CK(p_cuEventCreate(&stop, 0));
  float times[15];
  Launch(fn, derivative); /* warm-up */
  for (int r = 0; r < 15; ++r) {
    if (derivative) {
      Zero(dx_d, shape.n_in);
      Zero(dy_d, shape.n_out);
    }
    CK(p_cuEventRecord(start, 0));
    Launch(fn, derivative);
    CK(p_cuEventRecord(stop, 0));
    CK(p_cuEventSynchronize(stop));
    CK(p_cuEventElapsedTime(&times[r], start, stop));
  }
  for (int a = 0; a < 15; ++a) /* sort for the median */
    for (int b = a + 1; b < 15; ++b)
      if (times[b] < times[a]) {
        float t = times[a];
        times[a] = times[b];
        times[b] = t;
      }
  return times[7];
}

static int Time(void) {
  double *x = malloc(sizeof(double) * shape.n_in);
  for (int j = 0; j < shape.n_in; ++j)
    x[j] = Uniform(0.2, 1.2);
  Put(x_d, x, shape.n_in);
  float p = TimeKernel(primal_fn, 0);
  float g = TimeKernel(gradient_fn, 1);
  float t = TimeKernel(tangent_fn, 1);
  printf("time: inputs %d, primal %.4f ms, gradient %.4f ms (%.2fx), "
         "tangent %.4f ms (%.2fx)\n",
         shape.n_in, p, g, g / p, t, t / p);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 11) {
    fprintf(stderr, "usage: gpu_check PTX check|time N N_IN N_OUT GX GY BX "
                    "BY AUX\n");
    return 2;
  }
  shape.n = atoi(argv[3]);
  shape.n_in = atoi(argv[4]);
  shape.n_out = atoi(argv[5]);
  shape.gx = atoi(argv[6]);
  shape.gy = atoi(argv[7]);
  shape.bx = atoi(argv[8]);
  shape.by = atoi(argv[9]);
  shape.gather = strcmp(argv[10], "gather") == 0;
  int count = 0;
  if (!LoadDriver() || p_cuInit(0) != CUDA_SUCCESS || p_cuDeviceGetCount(&count) != CUDA_SUCCESS ||
      count == 0) {
    printf("no CUDA device: not run\n");
    return 77;
  }
  CUdevice dev;
  CUcontext ctx;
  CK(p_cuDeviceGet(&dev, 0));
  CK(p_cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(p_cuCtxSetCurrent(ctx));
  /* Tapes of loops come from the device heap. */
  CK(p_cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, (size_t)1 << 30));
  char *ptx = ReadFile(argv[1]);
  CUmodule mod;
  CK(p_cuModuleLoadData(&mod, ptx));
  CK(p_cuModuleGetFunction(&primal_fn, mod, "primal"));
  CK(p_cuModuleGetFunction(&gradient_fn, mod, "gradient"));
  CK(p_cuModuleGetFunction(&tangent_fn, mod, "tangent"));
  CK(p_cuMemAlloc(&x_d, sizeof(double) * shape.n_in));
  CK(p_cuMemAlloc(&dx_d, sizeof(double) * shape.n_in));
  CK(p_cuMemAlloc(&y_d, sizeof(double) * shape.n_out));
  CK(p_cuMemAlloc(&dy_d, sizeof(double) * shape.n_out));
  int *aux = calloc(shape.n_out, sizeof(int));
  if (shape.gather)
    for (int i = 0; i < shape.n_out; ++i)
      aux[i] = (int)(Uniform(0, 1) * shape.n_in) % shape.n_in;
  CK(p_cuMemAlloc(&aux_d, sizeof(int) * shape.n_out));
  CK(p_cuMemcpyHtoD(aux_d, aux, sizeof(int) * shape.n_out));
  return strcmp(argv[2], "time") == 0 ? Time() : Check();
}
