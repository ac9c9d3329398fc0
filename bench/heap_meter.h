/*===- bench/heap_meter.h - Peak live heap bytes of a stretch -*- C -*-===*
 *
 * bench_reverse is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=free, so that the calls made by its own objects
 * (the kernels and their derivatives; not the shared libraries) go through
 * heap_meter.c. Between HeapMeterStart and HeapMeterStop, the live bytes
 * (malloc_usable_size of each block) are counted and their peak kept: for
 * one gradient call, that is the tape plus the temporaries of the forward
 * sweep.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_BENCH_HEAP_METER_H
#define AUTODIFF_BENCH_HEAP_METER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Starts counting from zero live bytes. */
void HeapMeterStart(void);
/* Stops counting; returns the peak of live bytes since HeapMeterStart
 * (blocks freed in between but allocated before count negatively). */
long HeapMeterStop(void);

#ifdef __cplusplus
}
#endif

#endif /* AUTODIFF_BENCH_HEAP_METER_H */
