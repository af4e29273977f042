#ifndef MARQUEE_CGLYPHOVER_GLYPHOVER_H
#define MARQUEE_CGLYPHOVER_GLYPHOVER_H
/* A glyph's 8-bit coverage mask through one solid premultiplied colour OVER 32-bit pixels, with
 * pixman's arithmetic: each channel `s + d * (255 - sa) / 255`, where `s` is the colour's channel
 * times the coverage / 255 and `sa` its alpha's, every product rounded as pixman divides by 255
 * ((t + 0x80 + ((t + 0x80) >> 8)) >> 8), the sum saturated. This is the arithmetic itself, for
 * every pixel whatever lies under it: in AVX2 eight pixels a step in 16-bit lanes (chosen at run
 * time), in SSE2 four, in NEON eight (a channel a register), and plainly elsewhere (or with
 * MARQUEE_GLYPHOVER_PLAIN defined, which tools/check-cglyphover compares with the vector paths).
 * Header-only and `static inline`, so the compiler puts it into the Swift caller. */
#include <stdint.h>
#include <string.h>

#if defined(MARQUEE_GLYPHOVER_PLAIN)
#elif defined(__SSE2__) && defined(__x86_64__)
#define MARQUEE_GLYPHOVER_SSE2 1
#include <cpuid.h>
#include <emmintrin.h>
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define MARQUEE_GLYPHOVER_NEON 1
#include <arm_neon.h>
#endif

/* Whether this build has a vector path (SSE2 or NEON): the Swift caller keeps its per-colour
 * table otherwise. */
static inline int marquee_glyph_over_vector(void) {
#if defined(MARQUEE_GLYPHOVER_SSE2) || defined(MARQUEE_GLYPHOVER_NEON)
    return 1;
#else
    return 0;
#endif
}

/* `a * b / 255` rounded as pixman does, for a, b in 0...255. */
static inline uint32_t marquee_glyph_over_mul(uint32_t a, uint32_t b) {
    uint32_t t = a * b + 0x80;
    return (t + (t >> 8)) >> 8;
}

/* One pixel, plainly: the tails of the vector paths and the whole of the plain one. */
static inline uint32_t marquee_glyph_over_pixel(uint32_t pixel, uint32_t color, uint32_t coverage) {
    uint32_t inverse = 255 - marquee_glyph_over_mul(color >> 24, coverage);
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t sum = marquee_glyph_over_mul((color >> shift) & 0xFF, coverage)
                       + marquee_glyph_over_mul((pixel >> shift) & 0xFF, inverse);
        result |= (sum > 255 ? 255 : sum) << shift;
    }
    return result;
}

static inline void marquee_glyph_over_plain_row(const uint8_t *coverage, uint32_t *pixels, long width, uint32_t color) {
    for (long x = 0; x < width; x++) {
        if (coverage[x]) pixels[x] = marquee_glyph_over_pixel(pixels[x], color, coverage[x]);
    }
}

#if defined(MARQUEE_GLYPHOVER_SSE2)
/* Products of 16-bit lanes (values 0...255) / 255, rounded as pixman's SSE2 code rounds them:
 * the same as `marquee_glyph_over_mul`. */
static inline __m128i marquee_glyph_over_mul16(__m128i a, __m128i b) {
    __m128i t = _mm_add_epi16(_mm_mullo_epi16(a, b), _mm_set1_epi16(0x80));
    return _mm_mulhi_epu16(t, _mm_set1_epi16(0x101));
}

/* Two pixels in 16-bit lanes (blue, green, red, alpha each), their coverage in every lane of the
 * pixel; `color` the colour's channels likewise. */
static inline __m128i marquee_glyph_over_two(__m128i pixels, __m128i coverage, __m128i color) {
    __m128i source = marquee_glyph_over_mul16(color, coverage);
    __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(source, 0xFF), 0xFF);
    __m128i inverse = _mm_xor_si128(alpha, _mm_set1_epi16(0xFF));
    return _mm_add_epi16(marquee_glyph_over_mul16(pixels, inverse), source);
}

/* Four pixels and their four coverage bytes (the low 32 bits of `coverage`). */
static inline __m128i marquee_glyph_over_four(__m128i pixels, uint32_t coverage, __m128i color) {
    const __m128i zero = _mm_setzero_si128();
    __m128i bytes = _mm_cvtsi32_si128((int)coverage);
    bytes = _mm_unpacklo_epi8(bytes, bytes);
    bytes = _mm_unpacklo_epi16(bytes, bytes); /* each coverage byte four times */
    __m128i low = marquee_glyph_over_two(_mm_unpacklo_epi8(pixels, zero), _mm_unpacklo_epi8(bytes, zero), color);
    __m128i high = marquee_glyph_over_two(_mm_unpackhi_epi8(pixels, zero), _mm_unpackhi_epi8(bytes, zero), color);
    return _mm_packus_epi16(low, high);
}

static inline uint32_t marquee_glyph_over_load4(const uint8_t *coverage) {
    uint32_t four;
    memcpy(&four, coverage, 4);
    return four;
}

/* A row four pixels a step. The last step, which may overlap the one before, is worked out from
 * the pixels as they were before either is stored: a pixel's result depends only on its own
 * coverage and former value, so the overlap is written twice with the same value. */
static inline void marquee_glyph_over_sse2_row(const uint8_t *coverage, uint32_t *pixels, long width, __m128i color) {
    if (width < 4) {
        marquee_glyph_over_plain_row(coverage, pixels, width, (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(color, color)));
        return;
    }
    long lastAt = width - 4;
    uint32_t lastCoverage = marquee_glyph_over_load4(coverage + lastAt);
    __m128i last = lastCoverage ? marquee_glyph_over_four(_mm_loadu_si128((const __m128i *)(pixels + lastAt)),
                                                         lastCoverage, color)
                                : _mm_setzero_si128();
    for (long x = 0; x < lastAt; x += 4) {
        uint32_t four = marquee_glyph_over_load4(coverage + x);
        if (!four) continue;
        __m128i *at = (__m128i *)(pixels + x);
        _mm_storeu_si128(at, marquee_glyph_over_four(_mm_loadu_si128(at), four, color));
    }
    if (lastCoverage) _mm_storeu_si128((__m128i *)(pixels + lastAt), last);
}

/* Whether the processor has AVX2 and the kernel saves its registers (CPUID and XGETBV), as
 * CPack565 asks; the caller asks once and keeps the answer. */
static inline int marquee_glyph_over_avx2_usable(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6 || __get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0;
}

/* The AVX2 step's arithmetic on four pixels a register (16-bit lanes). */
__attribute__((target("avx2"))) static inline __m256i marquee_glyph_over_mul16_avx2(__m256i a, __m256i b) {
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(a, b), _mm256_set1_epi16(0x80));
    return _mm256_mulhi_epu16(t, _mm256_set1_epi16(0x101));
}

/* Eight pixels and their eight coverage bytes. The coverage is broadcast and spread by byte
 * shuffles to the lanes of its pixel: unpacking the pixels to 16-bit lanes takes pixels 0-1 and
 * 4-5 (the low bytes of each 128-bit half) into one register and 2-3 and 6-7 into the other, and
 * the pack puts them back in order. */
__attribute__((target("avx2"))) static inline __m256i marquee_glyph_over_eight_avx2(__m256i pixels, uint64_t coverage,
                                                                                    __m256i color) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i spreadLow = _mm256_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 1, -1, 1, -1, 1, -1, 1, -1, 4, -1, 4, -1, 4,
                                               -1, 4, -1, 5, -1, 5, -1, 5, -1, 5, -1);
    const __m256i spreadHigh = _mm256_setr_epi8(2, -1, 2, -1, 2, -1, 2, -1, 3, -1, 3, -1, 3, -1, 3, -1, 6, -1, 6, -1, 6,
                                                -1, 6, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    /* Each pixel's alpha lane (bytes 6-7 of its eight) into its four lanes. */
    const __m256i alphas = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15, 6, 7, 6, 7, 6, 7, 6,
                                            7, 14, 15, 14, 15, 14, 15, 14, 15);
    const __m256i byteMax = _mm256_set1_epi16(0xFF);
    __m256i bytes = _mm256_set1_epi64x((long long)coverage);
    /* Written out twice rather than a loop of two: Swift's build of the header keeps such loops
     * rolled, with their registers on the stack. */
    __m256i sourceLow = marquee_glyph_over_mul16_avx2(color, _mm256_shuffle_epi8(bytes, spreadLow));
    __m256i sourceHigh = marquee_glyph_over_mul16_avx2(color, _mm256_shuffle_epi8(bytes, spreadHigh));
    __m256i inverseLow = _mm256_xor_si256(_mm256_shuffle_epi8(sourceLow, alphas), byteMax);
    __m256i inverseHigh = _mm256_xor_si256(_mm256_shuffle_epi8(sourceHigh, alphas), byteMax);
    __m256i low = _mm256_add_epi16(
        marquee_glyph_over_mul16_avx2(_mm256_unpacklo_epi8(pixels, zero), inverseLow), sourceLow);
    __m256i high = _mm256_add_epi16(
        marquee_glyph_over_mul16_avx2(_mm256_unpackhi_epi8(pixels, zero), inverseHigh), sourceHigh);
    return _mm256_packus_epi16(low, high);
}

/* A row eight pixels a step (the last one worked out first, as in the SSE2 row), shorter rows
 * four a step. */
__attribute__((target("avx2"))) static inline void marquee_glyph_over_avx2_row(const uint8_t *coverage,
                                                                               uint32_t *pixels, long width,
                                                                               __m256i color) {
    if (width < 8) {
        marquee_glyph_over_sse2_row(coverage, pixels, width, _mm256_castsi256_si128(color));
        return;
    }
    long lastAt = width - 8;
    uint64_t lastCoverage;
    memcpy(&lastCoverage, coverage + lastAt, 8);
    __m256i last = lastCoverage ? marquee_glyph_over_eight_avx2(
                                      _mm256_loadu_si256((const __m256i *)(pixels + lastAt)), lastCoverage, color)
                                : _mm256_setzero_si256();
    for (long x = 0; x < lastAt; x += 8) {
        uint64_t eight;
        memcpy(&eight, coverage + x, 8);
        if (!eight) continue;
        __m256i *at = (__m256i *)(pixels + x);
        _mm256_storeu_si256(at, marquee_glyph_over_eight_avx2(_mm256_loadu_si256(at), eight, color));
    }
    if (lastCoverage) _mm256_storeu_si256((__m256i *)(pixels + lastAt), last);
}

__attribute__((target("avx2"))) static inline void marquee_glyph_over_avx2(const uint8_t *coverage,
                                                                           long coverageStride, uint32_t *pixels,
                                                                           long pixelStride, long width, long height,
                                                                           uint32_t color) {
    __m256i colors = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), _mm256_setzero_si256());
    for (long y = 0; y < height; y++) {
        marquee_glyph_over_avx2_row(coverage + y * coverageStride, pixels + y * pixelStride, width, colors);
    }
}
#else
static inline int marquee_glyph_over_avx2_usable(void) { return 0; }
#endif

#if defined(MARQUEE_GLYPHOVER_NEON)
/* Products / 255 rounded as pixman's NEON code rounds them (the same as `marquee_glyph_over_mul`). */
static inline uint8x8_t marquee_glyph_over_mul8(uint8x8_t a, uint8x8_t b) {
    uint16x8_t t = vmull_u8(a, b);
    return vraddhn_u16(t, vrshrq_n_u16(t, 8));
}

/* Eight pixels, a channel a register (`vld4`), and their eight coverage bytes. */
static inline uint8x8x4_t marquee_glyph_over_eight_neon(uint8x8x4_t pixels, uint8x8_t coverage, uint8x8x4_t color) {
    uint8x8_t inverse = vmvn_u8(marquee_glyph_over_mul8(color.val[3], coverage));
    uint8x8x4_t result;
    for (int channel = 0; channel < 4; channel++) {
        result.val[channel] = vqadd_u8(marquee_glyph_over_mul8(color.val[channel], coverage),
                                       marquee_glyph_over_mul8(pixels.val[channel], inverse));
    }
    return result;
}

/* A row eight pixels a step (the last one worked out first, as in the SSE2 row); a row shorter
 * than eight through a copy of its pixels and coverage padded with none. */
static inline void marquee_glyph_over_neon_row(const uint8_t *coverage, uint32_t *pixels, long width,
                                               uint8x8x4_t color) {
    if (width < 8) {
        uint32_t staged[8] = {0};
        uint8_t stagedCoverage[8] = {0};
        memcpy(staged, pixels, (size_t)width * 4);
        memcpy(stagedCoverage, coverage, (size_t)width);
        vst4_u8((uint8_t *)staged,
                marquee_glyph_over_eight_neon(vld4_u8((const uint8_t *)staged), vld1_u8(stagedCoverage), color));
        memcpy(pixels, staged, (size_t)width * 4);
        return;
    }
    long lastAt = width - 8;
    uint8x8_t lastCoverage = vld1_u8(coverage + lastAt);
    uint8x8x4_t last = marquee_glyph_over_eight_neon(vld4_u8((const uint8_t *)(pixels + lastAt)), lastCoverage, color);
    for (long x = 0; x < lastAt; x += 8) {
        uint8x8_t eight = vld1_u8(coverage + x);
        if (!vget_lane_u64(vreinterpret_u64_u8(eight), 0)) continue;
        vst4_u8((uint8_t *)(pixels + x), marquee_glyph_over_eight_neon(vld4_u8((const uint8_t *)(pixels + x)), eight, color));
    }
    vst4_u8((uint8_t *)(pixels + lastAt), last);
}
#endif

/* The mask (`width` x `height` bytes, rows `coverageStride` apart) through `color` OVER the
 * pixels (rows `pixelStride` pixels apart). `avx2` nonzero only if
 * `marquee_glyph_over_avx2_usable()` said so. */
static inline void marquee_glyph_over(const uint8_t *coverage, long coverageStride, uint32_t *pixels,
                                      long pixelStride, long width, long height, uint32_t color, int avx2) {
#if defined(MARQUEE_GLYPHOVER_SSE2)
    if (avx2) {
        marquee_glyph_over_avx2(coverage, coverageStride, pixels, pixelStride, width, height, color);
        return;
    }
    __m128i colors = _mm_unpacklo_epi8(_mm_set1_epi32((int)color), _mm_setzero_si128());
    for (long y = 0; y < height; y++) {
        marquee_glyph_over_sse2_row(coverage + y * coverageStride, pixels + y * pixelStride, width, colors);
    }
#elif defined(MARQUEE_GLYPHOVER_NEON)
    (void)avx2;
    uint8x8x4_t colors;
    for (int channel = 0; channel < 4; channel++) colors.val[channel] = vdup_n_u8((uint8_t)(color >> (8 * channel)));
    for (long y = 0; y < height; y++) {
        marquee_glyph_over_neon_row(coverage + y * coverageStride, pixels + y * pixelStride, width, colors);
    }
#else
    (void)avx2;
    for (long y = 0; y < height; y++) {
        marquee_glyph_over_plain_row(coverage + y * coverageStride, pixels + y * pixelStride, width, color);
    }
#endif
}

#endif
