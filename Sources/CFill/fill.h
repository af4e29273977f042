#ifndef MARQUEE_CFILL_FILL_H
#define MARQUEE_CFILL_FILL_H
/* `count` copies of a 32-bit pixel from `row` on, through the C library's wmemset (wchar_t is 32
 * bits on Linux), which picks the processor's widest stores; Swift's Glibc module leaves wchar.h
 * out, and a Swift loop stores 16 bytes at a time at best (the baseline x86-64 has no AVX). For
 * MarqueeCore's band tables (`ConstantSpans`); the renderer has the same in CPixman's shim. */
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

static inline void marquee_core_fill32(uint32_t *row, uint32_t pixel, size_t count) {
    _Static_assert(sizeof(wchar_t) == 4, "wchar_t is not 32 bits");
    wmemset((wchar_t *)row, (wchar_t)pixel, count);
}
#endif
