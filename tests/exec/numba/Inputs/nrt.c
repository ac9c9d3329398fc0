/* A minimal Numba runtime (NRT) for the tests: MemInfo allocation with a
 * reference count, freed at zero, so array temporaries created inside
 * Numba functions (np.sum(a * a)) run without Python. Layout as Numba
 * 0.56's NRT_MemInfo: refct, dtor, dtor_info, data, size, external. */
#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t refct;
  void *dtor;
  void *dtor_info;
  void *data;
  size_t size;
  void *external;
} MemInfo;

void *NRT_MemInfo_alloc_safe_aligned(size_t size, unsigned align) {
  MemInfo *mi = calloc(1, sizeof(MemInfo));
  size_t a = align < 16 ? 16 : align;
  mi->refct = 1;
  mi->data = aligned_alloc(a, (size + a - 1) / a * a);
  mi->size = size;
  return mi;
}

void NRT_incref(void *p) {
  if (p)
    ((MemInfo *)p)->refct++;
}

void NRT_decref(void *p) {
  MemInfo *mi = p;
  if (mi && --mi->refct == 0) {
    memset(mi->data, 0xff, mi->size); /* NaNs for a read after the free */
    free(mi->data);
    free(mi);
  }
}

/* What Numba's own NRT_decref (linkonce_odr in its modules) calls when the
 * count reaches zero. */
void NRT_MemInfo_call_dtor(void *p) {
  MemInfo *mi = p;
  memset(mi->data, 0xff, mi->size); /* NaNs for a read after the free */
  free(mi->data);
  free(mi);
}
