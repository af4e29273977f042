#ifndef MARQUEE_CPIXMAN_SHIM_H
#define MARQUEE_CPIXMAN_SHIM_H
#include <pixman.h>
#include <stdint.h>
#include <wchar.h>

/* pixman's fixed-point conversion is a macro. */
static inline pixman_fixed_t marquee_pixman_double_to_fixed(double value) { return pixman_double_to_fixed(value); }

/* `count` copies of a 32-bit pixel from `row` on: the C library's wmemset (wchar_t is 32 bits
   on Linux), which uses the CPU's widest stores; Swift's Glibc module does not bring in wchar.h. */
static inline void marquee_fill32(uint32_t *row, uint32_t pixel, size_t count) {
    _Static_assert(sizeof(wchar_t) == 4, "wchar_t is not 32 bits");
    wmemset((wchar_t *)row, (wchar_t)pixel, count);
}
#endif
