#ifndef MARQUEE_CGLYPH_GLYPH_H
#define MARQUEE_CGLYPH_GLYPH_H
/* A glyph's rows, already blended over a card's fill (`BlendedGlyphs`), written into a 32-bit
 * frame four pixels at a time: four frame pixels that are all the fill take the made pixels with
 * one 16-byte store; any others (another glyph's edge, a box, a picture under the text) are
 * blended one by one with pixman's arithmetic through the colour's tables
 * (`GlyphBlender.OverTable`). A made pixel is the blend of its coverage over the fill (the fill
 * itself where the coverage is 0 and past the mask), so both ways give the same pixels over the
 * fill and the result does not depend on which four took which way.
 *
 * In C because Swift's SIMD types did not become one compare and one mask here: a 16-byte `==`
 * of `SIMD4<UInt32>` compiled to two compares, two shuffles and two masks with the loop's state
 * reloaded from the stack, about 25 instructions for four pixels against 10 here
 * (docs/performance.md). SSE2 on x86-64, NEON on arm64, a plain compare elsewhere (or with
 * MARQUEE_GLYPH_PLAIN, for tools/check-cglyph). Header-only and `static inline`: the compiler
 * puts it into its Swift caller, once a glyph. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(MARQUEE_GLYPH_PLAIN) && defined(__SSE2__)
#define MARQUEE_GLYPH_SSE2 1
#include <emmintrin.h>
#elif !defined(MARQUEE_GLYPH_PLAIN) && defined(__aarch64__) && defined(__ARM_NEON)
#define MARQUEE_GLYPH_NEON 1
#include <arm_neon.h>
#endif

/* Two channels (bytes 0 and 2 of `pair`) times `factor` / 255, rounded as pixman does. */
static inline uint32_t marquee_glyph_multiply(uint32_t pair, uint32_t factor) {
    uint32_t product = pair * factor + 0x00800080u;
    return ((product + ((product >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
}

/* One pixel of coverage `c` over `*pixel`: from `over_fill` where the pixel is the fill, else
   the colour IN the coverage (`source[c]`) OVER the pixel (`inverse[c]` is 255 minus its alpha). */
static inline void marquee_glyph_blend(
    uint8_t c, uint32_t *pixel, uint32_t fill, const uint32_t *source, const uint32_t *inverse,
    const uint32_t *over_fill) {
    if (c == 0) return;
    uint32_t under = *pixel;
    if (under == fill) {
        *pixel = over_fill[c];
        return;
    }
    uint32_t inv = inverse[c];
    *pixel = (marquee_glyph_multiply(under & 0x00FF00FFu, inv) |
              marquee_glyph_multiply((under >> 8) & 0x00FF00FFu, inv) << 8) +
             source[c];
}

/* Whether the four pixels at `p` are all `fill`. */
static inline int marquee_glyph_four_are_fill(const uint32_t *p, uint32_t fill) {
#if defined(MARQUEE_GLYPH_SSE2)
    __m128i four = _mm_loadu_si128((const __m128i *)p);
    return _mm_movemask_epi8(_mm_cmpeq_epi32(four, _mm_set1_epi32((int)fill))) == 0xFFFF;
#elif defined(MARQUEE_GLYPH_NEON)
    return vminvq_u32(vceqq_u32(vld1q_u32(p), vdupq_n_u32(fill))) != 0;
#else
    uint64_t a, b, fills = (uint64_t)fill | (uint64_t)fill << 32;
    memcpy(&a, p, 8);
    memcpy(&b, p + 2, 8);
    return a == fills && b == fills;
#endif
}

/* The four pixels at `out[x]` of a glyph row that are not all the fill, blended one by one (the
   lanes within the mask's `width`). Out of line: rare (glyphs that touch), and kept out of the
   loop below it leaves that loop's registers free. */
__attribute__((noinline, cold)) static void marquee_glyph_blend_four(
    uint32_t *out, const uint8_t *coverage, long x, long width, uint32_t fill, const uint32_t *source,
    const uint32_t *inverse, const uint32_t *over_fill) {
    long end = x + 4 < width ? x + 4 : width;
    for (long lane = x; lane < end; lane++)
        marquee_glyph_blend(coverage[lane], out + lane, fill, source, inverse, over_fill);
}

/* `rows` rows of a glyph at `out` (frame rows `frame_stride` pixels apart): `made` holds its
   blended rows, `span` pixels each (the mask's width rounded up to four), `coverage` its mask
   (rows `mask_stride` bytes apart, `mask_width` bytes used). Every made row must lie within the
   frame's columns. */
static inline void marquee_glyph_draw_blended(
    uint32_t *out, long frame_stride, const uint32_t *made, long span, const uint8_t *coverage,
    long mask_stride, long mask_width, long rows, uint32_t fill, const uint32_t *source,
    const uint32_t *inverse, const uint32_t *over_fill) {
    for (long y = 0; y < rows; y++, out += frame_stride, made += span, coverage += mask_stride) {
        for (long x = 0; x < span; x += 4) {
            if (__builtin_expect(marquee_glyph_four_are_fill(out + x, fill), 1))
                memcpy(out + x, made + x, 16);
            else
                marquee_glyph_blend_four(out, coverage, x, mask_width, fill, source, inverse, over_fill);
        }
    }
}
#endif
