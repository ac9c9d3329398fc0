/*===- bench/heap_meter.c - The --wrap'ed allocation functions -----------===*
 *
 * See heap_meter.h. Sizes are malloc_usable_size of each block, which is
 * what the allocator really set aside (at most 16 bytes more than asked for
 * small blocks); it needs no header in front of the block, so a block may
 * be allocated and freed on either side of the wrap.
 *
 *===----------------------------------------------------------------------===*/
#include "heap_meter.h"

#include <malloc.h>
#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static int g_on;
static long g_live, g_peak;

static void Count(long delta) {
  g_live += delta;
  if (g_live > g_peak)
    g_peak = g_live;
}

void HeapMeterStart(void) {
  g_live = g_peak = 0;
  g_on = 1;
}

long HeapMeterStop(void) {
  g_on = 0;
  return g_peak;
}

void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  if (g_on && p)
    Count((long)malloc_usable_size(p));
  return p;
}

void *__wrap_calloc(size_t count, size_t n) {
  void *p = __real_calloc(count, n);
  if (g_on && p)
    Count((long)malloc_usable_size(p));
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  long before = g_on && p ? (long)malloc_usable_size(p) : 0;
  void *q = __real_realloc(p, n);
  if (g_on && (q || n == 0))
    Count((q ? (long)malloc_usable_size(q) : 0) - before);
  return q;
}

void __wrap_free(void *p) {
  if (g_on && p)
    Count(-(long)malloc_usable_size(p));
  __real_free(p);
}
