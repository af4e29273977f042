#ifndef MARQUEE_CFILL_FILL_H
#define MARQUEE_CFILL_FILL_H
/* Rows of one 32-bit pixel, for the renderer's plain fills (`SolidFill`) and the band table's
 * writes (`ConstantSpans`). Header-only and `static inline`: the compiler puts each call into its
 * Swift caller. */
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* `count` copies of a 32-bit pixel from `row` on: the C library's wmemset (wchar_t is 32 bits
   on Linux), which uses the CPU's widest stores; Swift's Glibc module does not bring in wchar.h,
   and a Swift loop stores 16 bytes at a time at best (the baseline x86-64 has no AVX). */
static inline void marquee_fill32(uint32_t *row, uint32_t pixel, size_t count) {
    _Static_assert(sizeof(wchar_t) == 4, "wchar_t is not 32 bits");
    wmemset((wchar_t *)row, (wchar_t)pixel, count);
}

typedef uint32_t marquee_fill_u32x4 __attribute__((ext_vector_type(4), aligned(4)));

/* A box of `rows` rows of `count` copies of a 32-bit pixel, rows `stride` pixels apart. Boxes of
   at most 16 pixels a row (the background's margins beside the cards, the ends of a card's
   corner rows) are written in place with at most four 16-byte stores a row, overlapping where the
   width is not a multiple of four: a call into wmemset a row cost about fifty instructions for
   a dozen pixels, some 900 calls a frame at 480x320 (`bench --scene cards-spi`). Wider rows go to
   wmemset. */
static inline void marquee_fill_box32(uint32_t *row, long stride, uint32_t pixel, size_t count, long rows) {
    if (count > 16) {
        for (long y = 0; y < rows; y++, row += stride) marquee_fill32(row, pixel, count);
        return;
    }
    marquee_fill_u32x4 four = pixel;
    if (count >= 4) {
        /* [0, 4) and [count - 4, count) cover up to 8; [4, 8) and [count - 8, count - 4) the rest. */
        for (long y = 0; y < rows; y++, row += stride) {
            *(marquee_fill_u32x4 *)row = four;
            *(marquee_fill_u32x4 *)(row + count - 4) = four;
            if (count > 8) {
                *(marquee_fill_u32x4 *)(row + 4) = four;
                *(marquee_fill_u32x4 *)(row + count - 8) = four;
            }
        }
        return;
    }
    for (long y = 0; y < rows; y++, row += stride)
        for (size_t x = 0; x < count; x++) row[x] = pixel;
}
#endif
