#ifndef MARQUEE_CPACK565_H
#define MARQUEE_CPACK565_H
/* Eight XRGB8888 pixels to RGB565 (or BGR565), truncating each channel to its top bits: the
 * conversion of every 16-bit scan-out (SPI panels, fbdev at 16 bpp). Swift's SIMD types lowered
 * the shifts and masks to sixteen SSE2 instructions for eight pixels; here red and blue are moved
 * into place by one multiply-add per four pixels (PMADDWD: the pixel's two 16-bit halves, each
 * masked to its channel's top five bits, times a power of two each, summed), so eight pixels take
 * thirteen. NEON narrows and inserts (SHRN, SRI); other processors take the plain formula in
 * clang's vector extensions. Header-only and `static inline`: the compiler puts it into the
 * Swift caller. */
#include <stdint.h>

#if defined(__SSE2__) && !defined(MARQUEE_PACK565_PLAIN)
#include <emmintrin.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define MARQUEE_PACK565_AVX2 1
#endif
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(MARQUEE_PACK565_PLAIN)
#include <arm_neon.h>
#endif

typedef uint32_t marquee_pack565_u32x4 __attribute__((ext_vector_type(4)));
typedef uint16_t marquee_pack565_u16x8 __attribute__((ext_vector_type(8)));

#if defined(__SSE2__) && !defined(MARQUEE_PACK565_PLAIN)
/* Four pixels: blue (bits 3-7) times 4 and red (bits 19-23, the high half's 3-7) times 2^13 land
 * at bits 5-9 and 16-20; green's top six bits (10-15) are already between them. Shifted up by 11
 * and arithmetically down by 16, the 5-6-5 word is sign-extended, so the signed saturating pack
 * keeps it whole. `weights` swaps red and blue for BGR565. */
static inline __m128i marquee_pack565_four(__m128i pixels, __m128i weights) {
    __m128i redBlue = _mm_madd_epi16(_mm_and_si128(pixels, _mm_set1_epi32(0x00F800F8)), weights);
    __m128i word = _mm_or_si128(redBlue, _mm_and_si128(pixels, _mm_set1_epi32(0x0000FC00)));
    return _mm_srai_epi32(_mm_slli_epi32(word, 11), 16);
}
#endif

/* `low` holds pixels 0-3, `high` pixels 4-7; `bgr` nonzero for BGR565. */
static inline marquee_pack565_u16x8 marquee_pack565(marquee_pack565_u32x4 low, marquee_pack565_u32x4 high, int bgr) {
#if defined(__SSE2__) && !defined(MARQUEE_PACK565_PLAIN)
    /* PMADDWD's weights per 32-bit lane: the low half (blue) times the low 16 bits, the high half
     * (red) times the high 16 bits. */
    __m128i weights = _mm_set1_epi32(bgr ? 0x00042000 : 0x20000004);
    __m128i packed = _mm_packs_epi32(
        marquee_pack565_four((__m128i)low, weights), marquee_pack565_four((__m128i)high, weights));
    return (marquee_pack565_u16x8)packed;
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(MARQUEE_PACK565_PLAIN)
    uint32x4_t l = (uint32x4_t)low, h = (uint32x4_t)high;
    if (bgr) {
        /* Swap red and blue within each pixel: the 16-bit halves' low bytes. */
        uint32x4_t mask = vdupq_n_u32(0xFF00FF00);
        l = vorrq_u32(vandq_u32(l, mask), vorrq_u32(vshrq_n_u32(vbicq_u32(l, mask), 16), vshlq_n_u32(vbicq_u32(l, mask), 16)));
        h = vorrq_u32(vandq_u32(h, mask), vorrq_u32(vshrq_n_u32(vbicq_u32(h, mask), 16), vshlq_n_u32(vbicq_u32(h, mask), 16)));
    }
    /* Red and green (bits 8-23) and green and blue (bits 0-15), narrowed to 16-bit lanes. */
    uint16x8_t redGreen = vcombine_u16(vshrn_n_u32(l, 8), vshrn_n_u32(h, 8));
    uint16x8_t greenBlue = vcombine_u16(vmovn_u32(l), vmovn_u32(h));
    uint16x8_t word = vandq_u16(redGreen, vdupq_n_u16(0xF800));
    word = vsriq_n_u16(word, greenBlue, 5);                   /* green's top six bits at 5-10 */
    word = vsriq_n_u16(word, vshlq_n_u16(greenBlue, 8), 11);  /* blue's top five at 0-4 */
    return (marquee_pack565_u16x8)word;
#else
    marquee_pack565_u32x4 lowWord, highWord;
    if (bgr) {
        lowWord = ((low << 8) & 0xF800) | ((low >> 5) & 0x07E0) | ((low >> 19) & 0x001F);
        highWord = ((high << 8) & 0xF800) | ((high >> 5) & 0x07E0) | ((high >> 19) & 0x001F);
    } else {
        lowWord = ((low >> 8) & 0xF800) | ((low >> 5) & 0x07E0) | ((low >> 3) & 0x001F);
        highWord = ((high >> 8) & 0xF800) | ((high >> 5) & 0x07E0) | ((high >> 3) & 0x001F);
    }
    marquee_pack565_u16x8 result;
    result.lo = __builtin_convertvector(lowWord, uint16_t __attribute__((ext_vector_type(4))));
    result.hi = __builtin_convertvector(highWord, uint16_t __attribute__((ext_vector_type(4))));
    return result;
#endif
}

#if defined(MARQUEE_PACK565_AVX2)
/* Whether the processor has AVX2 and the kernel saves its registers (CPUID and XGETBV). The
 * caller asks once and keeps the answer: CPUID traps to the hypervisor in a virtual machine. */
static inline int marquee_pack565_avx2_usable(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6 || __get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0;
}

/* Sixteen pixels a step in AVX2's 256-bit registers: the SSE2 step's instructions, each on eight
 * pixels, and one lane fix after the pack (VPACKSSDW packs within 128-bit halves), so half the
 * instructions per pixel. Compiled for AVX2 whatever the build's baseline; called only when
 * `marquee_pack565_avx2_usable()` said yes. Returns how many pixels it converted (a multiple of
 * 16). */
__attribute__((target("avx2"))) static inline long marquee_pack565_row_avx2(
    const uint32_t *source, uint16_t *destination, long count, int bgr) {
    __m256i weights = _mm256_set1_epi32(bgr ? 0x00042000 : 0x20000004);
    __m256i redBlueMask = _mm256_set1_epi32(0x00F800F8), greenMask = _mm256_set1_epi32(0x0000FC00);
    long x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i words[2];
        for (int half = 0; half < 2; half++) {
            __m256i pixels = _mm256_loadu_si256((const __m256i *)(source + x + 8 * half));
            __m256i redBlue = _mm256_madd_epi16(_mm256_and_si256(pixels, redBlueMask), weights);
            __m256i word = _mm256_or_si256(redBlue, _mm256_and_si256(pixels, greenMask));
            words[half] = _mm256_srai_epi32(_mm256_slli_epi32(word, 11), 16);
        }
        /* Packed per 128-bit half: pixels 0-3, 8-11, 4-7, 12-15; the middle quarters swapped. */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(words[0], words[1]), 0xD8);
        _mm256_storeu_si256((__m256i *)(destination + x), packed);
    }
    return x;
}
#else
/* Not x86-64: the row conversion takes the eight-pixel step. */
static inline int marquee_pack565_avx2_usable(void) { return 0; }
#endif

/* One row of `count` pixels converted: sixteen a step with AVX2 when `avx2` is nonzero (only on
 * x86-64, and only if `marquee_pack565_avx2_usable()` said so), eight a step otherwise, the last
 * few one by one. A function of its own rather than Swift's loop around `marquee_pack565`: the
 * AVX2 step has to be compiled for AVX2, which Swift code cannot be function by function. */
static inline void marquee_pack565_row(
    const uint32_t *source, uint16_t *destination, long count, int bgr, int avx2) {
    long x = 0;
#if defined(MARQUEE_PACK565_AVX2)
    if (avx2) x = marquee_pack565_row_avx2(source, destination, count, bgr);
#else
    (void)avx2;
#endif
    for (; x + 8 <= count; x += 8) {
        marquee_pack565_u32x4 low, high;
        __builtin_memcpy(&low, source + x, sizeof low);
        __builtin_memcpy(&high, source + x + 4, sizeof high);
        marquee_pack565_u16x8 words = marquee_pack565(low, high, bgr);
        __builtin_memcpy(destination + x, &words, sizeof words);
    }
    for (; x < count; x++) {
        uint32_t pixel = source[x];
        if (bgr) pixel = (pixel & 0xFF00FF00u) | ((pixel >> 16) & 0xFF) | ((pixel & 0xFF) << 16);
        destination[x] = (uint16_t)(((pixel >> 8) & 0xF800) | ((pixel >> 5) & 0x07E0) | ((pixel >> 3) & 0x001F));
    }
}
#endif
