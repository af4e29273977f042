#ifndef MARQUEE_CPACK565_H
#define MARQUEE_CPACK565_H
/* Eight XRGB8888 pixels to RGB565 (or BGR565), truncating each channel to its top bits: the
 * conversion of every 16-bit scan-out (SPI panels, fbdev at 16 bpp). Swift's SIMD types lowered
 * the shifts and masks to sixteen SSE2 instructions for eight pixels; here red and blue are moved
 * into place by one multiply-add per four pixels (PMADDWD: the pixel's two 16-bit halves, each
 * masked to its channel's top five bits, times a power of two each, summed), so eight pixels take
 * thirteen. NEON narrows and inserts (SHRN, SRI); other processors take the plain formula in
 * clang's vector extensions. Built on it: whole rows (`marquee_pack565_row`) and the quarter
 * turn's line step (`marquee_turn565_line`), each with an AVX2 variant chosen at run time on
 * x86-64 (with a formula of its own, two multiply-adds: `marquee_pack565_eight_avx2`).
 * Header-only and `static inline`: the compiler puts it into the Swift caller. */
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

/* Loops of constant counts unrolled whole so that their blocks stay in registers: Swift's build
 * of this header left them rolled, every block going through the stack, and the AVX2 line step
 * took twice as long as the SSE2 one (docs/performance.md). */
#define MARQUEE_UNROLL _Pragma("clang loop unroll(full)")

/* The out-of-line row and line steps start on a cache line. Their loops are bound by the vector
 * units, not by memory, and where the linker happened to put them decided how their loop fell
 * across the processor's fetch blocks: the same source measured 0.100 or 0.127 ms for a 1080p
 * frame's RGB565 conversion from one build to the next, as unrelated code moved it
 * (docs/performance.md). Aligned, the loop's place within its line is the same in every build. */
#define MARQUEE_PACK565_HOT __attribute__((aligned(64)))

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

/* Eight pixels in AVX2's 256-bit registers, each 32-bit lane's 5-6-5 word left in its low 16 bits
 * (the upper ones zero). Four instructions, where the SSE2 step's formula takes six: the pixel
 * masked to each channel's top bits (0x00F8FCF8), then PMADDUBSW multiplies each byte by a small
 * weight and adds neighbouring pairs, so blue + green x 64 puts blue's top five bits at 3-7 and
 * green's top six at 8-13 of the low 16-bit half, and red x 1 stays at 3-7 of the high half;
 * PMADDWD adds low + high x 2048, red's bits landing at 14-18; one shift down by three. For BGR565
 * the weights are blue x 64, green x 2 and red x 1, then low x 32 + high: blue at 14-18, green at
 * 8-13, red at 3-7. No sum overflows (the largest byte pair is 16,376). The shift pair was what
 * bound the SSE2 formula eight lanes wide: shifts and shuffles share two of the four vector ports
 * on the processors measured (docs/architecture.md, "The AVX2 steps"). PMADDUBSW is SSSE3, past
 * the x86-64 baseline, so the SSE2 step keeps its formula. `marquee_pack565_avx2_weights` gives
 * the two weight registers. */
__attribute__((target("avx2"))) static inline __m256i marquee_pack565_eight_avx2(
    __m256i pixels, __m256i byteWeights, __m256i pairWeights) {
    __m256i pairs = _mm256_maddubs_epi16(_mm256_and_si256(pixels, _mm256_set1_epi32(0x00F8FCF8)), byteWeights);
    return _mm256_srli_epi32(_mm256_madd_epi16(pairs, pairWeights), 3);
}

/* The byte weights (blue, green, red, unused) and pair weights (low half, high half) above. */
__attribute__((target("avx2"))) static inline void marquee_pack565_avx2_weights(
    int bgr, __m256i *byteWeights, __m256i *pairWeights) {
    *byteWeights = _mm256_set1_epi32(bgr ? 0x00010240 : 0x00014001);
    *pairWeights = _mm256_set1_epi32(bgr ? 0x00010020 : 0x08000001);
}

/* Sixteen pixels a step: two registers of eight converted, packed to 16 bits (unsigned saturating,
 * which the words never reach) and one lane fix after the pack (VPACKUSDW packs within 128-bit
 * halves). Compiled for AVX2 whatever the build's baseline; called only when
 * `marquee_pack565_avx2_usable()` said yes. Returns how many pixels it converted (a multiple of
 * 16). */
MARQUEE_PACK565_HOT __attribute__((target("avx2"))) static inline long marquee_pack565_row_avx2(
    const uint32_t *source, uint16_t *destination, long count, int bgr) {
    __m256i byteWeights, pairWeights;
    marquee_pack565_avx2_weights(bgr, &byteWeights, &pairWeights);
    long x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i words[2];
        MARQUEE_UNROLL for (int half = 0; half < 2; half++) {
            __m256i pixels = _mm256_loadu_si256((const __m256i *)(source + x + 8 * half));
            words[half] = marquee_pack565_eight_avx2(pixels, byteWeights, pairWeights);
        }
        /* Packed per 128-bit half: pixels 0-3, 8-11, 4-7, 12-15; the middle quarters swapped. */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(words[0], words[1]), 0xD8);
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
MARQUEE_PACK565_HOT static inline void marquee_pack565_row(
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

/* Whole cache lines out of a quarter turn into rows that start on 16 bytes but not on 64 (fbdev's
 * RGB565 rows at 1080 pixels are 2160 bytes): there a line step's 64 bytes for a panel row straddle
 * two cache lines, and stores that fill part of a cache line make the processor read it from
 * memory first, to own it (the turn's band copies took twice as long as into rows padded to whole
 * lines). So each panel row keeps the last line it was given (`slot`, 64 bytes), and the cache
 * line that line shares with the next band's is written whole, from both, once the next band's
 * line is there: streamed past the cache, as the aligned lines are. `descending`: the next band
 * lies at lower addresses (clockwise). `continuing`: the slot holds the previous band's line for
 * this row; otherwise the line starts a run of bands, and the part of it the previous band would
 * have completed is stored as it is. The part the next band completes stays in the slot until it
 * does, or until `marquee_turn565_flush_line` stores it. A line that starts on a cache line is
 * streamed at once and keeps nothing. `line` and `slot` start on 16 bytes. */
static inline void marquee_turn565_store_carried(
    char *line, const marquee_pack565_u16x8 words[4], char *slot, int continuing, int descending) {
    unsigned before = (unsigned)(((uintptr_t)line & 63) >> 4); /* 16-byte pieces of its cache line before it */
    marquee_pack565_u16x8 *old = (marquee_pack565_u16x8 *)slot;
    if (before == 0) {
        MARQUEE_UNROLL for (int p = 0; p < 4; p++) __builtin_nontemporal_store(words[p], (marquee_pack565_u16x8 *)line + p);
        return;
    }
    unsigned split = 4 - before; /* the line's pieces in its first cache line */
    if (continuing) {
        /* The two lines side by side, the lower address first; the cache line between them is
         * pieces split..<split + 4. */
        marquee_pack565_u16x8 both[8];
        MARQUEE_UNROLL for (int p = 0; p < 4; p++) {
            both[p] = descending ? words[p] : old[p];
            both[4 + p] = descending ? old[p] : words[p];
        }
        marquee_pack565_u16x8 *whole = (marquee_pack565_u16x8 *)(descending ? line + 16 * split : line - 16 * before);
        for (unsigned p = 0; p < 4; p++) __builtin_nontemporal_store(both[split + p], whole + p);
    } else if (descending) {
        __builtin_memcpy(line + 16 * split, (const char *)words + 16 * split, 16 * before);
    } else {
        __builtin_memcpy(line, words, 16 * split);
    }
    MARQUEE_UNROLL for (int p = 0; p < 4; p++) old[p] = words[p];
}

/* The part of a run's last line that the next band would have completed (see
 * `marquee_turn565_store_carried`), from its slot into the panel row, in ordinary stores. */
static inline void marquee_turn565_flush_line(char *line, const char *slot, int descending) {
    unsigned before = (unsigned)(((uintptr_t)line & 63) >> 4);
    if (before == 0) return;
    unsigned split = 4 - before;
    if (descending) {
        __builtin_memcpy(line, slot, 16 * split);
    } else {
        __builtin_memcpy(line + 16 * split, slot + 16 * split, 16 * before);
    }
}

/* A quarter turn's line step for the 16-bit formats: four frame columns of 32 frame rows from
 * `from` (rows `stride` pixels apart) become one 64-byte line of each of four panel rows, `row0`
 * for the first column. Clockwise (`clockwise` nonzero) a panel row shows the frame rows bottom up.
 * Each 4x4 block is transposed in shuffles, each column's eight pixels converted at once, and each
 * panel row's line stored front to back, with streaming stores when `streaming` is nonzero (then
 * every row's line must start on 16 bytes). With `carry` (not NULL: 64 bytes for each of the four
 * columns, the first column's first), the lines go through `marquee_turn565_store_carried`
 * instead, `continuing` saying whether the slots hold the previous band's lines (`streaming` is
 * then not looked at). Written here rather than in Swift so that AVX2 can
 * take eight columns a step (below), and this step is the fallback with the same layout: Swift's
 * generic step spilled most of its sixteen results to the stack, 0.38 ms a 1080p frame's band
 * copies against 0.35 for this one and 0.26 for the AVX2 one (docs/performance.md). */
typedef uint32_t marquee_turn565_u32x4 __attribute__((ext_vector_type(4), aligned(4)));

MARQUEE_PACK565_HOT static inline void marquee_turn565_line(
    const uint32_t *from, long stride, int clockwise, int bgr, uint16_t *row0, uint16_t *row1, uint16_t *row2,
    uint16_t *row3, int streaming, char *carry, int continuing) {
    uint16_t *const rows[4] = {row0, row1, row2, row3};
    marquee_pack565_u16x8 words[4][4]; /* [panel row][16-byte piece of its line] */
    MARQUEE_UNROLL for (int octet = 0; octet < 4; octet++) {
        const uint32_t *top = from + 8 * octet * stride;
        marquee_pack565_u32x4 r[8];
        MARQUEE_UNROLL for (int i = 0; i < 8; i++) {
            /* Bottom up when clockwise: the block's rows are reversed before the transpose. */
            int row = clockwise ? 7 - i : i;
            r[i] = *(const marquee_turn565_u32x4 *)(top + row * stride);
        }
        marquee_pack565_u32x4 columns[2][4];
        MARQUEE_UNROLL for (int half = 0; half < 2; half++) {
            marquee_pack565_u32x4 a = r[4 * half], b = r[4 * half + 1], c = r[4 * half + 2], d = r[4 * half + 3];
            marquee_pack565_u32x4 abLow = __builtin_shufflevector(a, b, 0, 4, 1, 5);
            marquee_pack565_u32x4 abHigh = __builtin_shufflevector(a, b, 2, 6, 3, 7);
            marquee_pack565_u32x4 cdLow = __builtin_shufflevector(c, d, 0, 4, 1, 5);
            marquee_pack565_u32x4 cdHigh = __builtin_shufflevector(c, d, 2, 6, 3, 7);
            columns[half][0] = __builtin_shufflevector(abLow, cdLow, 0, 1, 4, 5);
            columns[half][1] = __builtin_shufflevector(abLow, cdLow, 2, 3, 6, 7);
            columns[half][2] = __builtin_shufflevector(abHigh, cdHigh, 0, 1, 4, 5);
            columns[half][3] = __builtin_shufflevector(abHigh, cdHigh, 2, 3, 6, 7);
        }
        /* The panel line's pieces: clockwise the last octet of frame rows comes first. */
        int piece = clockwise ? 3 - octet : octet;
        MARQUEE_UNROLL for (int k = 0; k < 4; k++) words[k][piece] = marquee_pack565(columns[0][k], columns[1][k], bgr);
    }
    if (carry) {
        MARQUEE_UNROLL for (int k = 0; k < 4; k++)
            marquee_turn565_store_carried((char *)rows[k], words[k], carry + 64 * k, continuing, clockwise);
        return;
    }
    MARQUEE_UNROLL for (int k = 0; k < 4; k++) {
        marquee_pack565_u16x8 *line = (marquee_pack565_u16x8 *)rows[k];
        MARQUEE_UNROLL for (int piece = 0; piece < 4; piece++) {
            if (streaming) {
                __builtin_nontemporal_store(words[k][piece], line + piece);
            } else {
                /* Through a byte pointer: a row may start on 2 bytes only (854-pixel RGB565 rows),
                 * and a vector pointer would let the compiler assume 16 (a fault in -O2 builds). */
                __builtin_memcpy((char *)rows[k] + 16 * piece, &words[k][piece], sizeof words[k][piece]);
            }
        }
    }
}

#if defined(MARQUEE_PACK565_AVX2)
/* `marquee_turn565_store_carried` for a line held in two 256-bit registers (pieces 0-1 and 2-3):
 * the cache line between two lines is taken from them by 128-bit lane moves, no trip through
 * memory but the slot's. */
__attribute__((target("avx2"))) static inline void marquee_turn565_store_carried_avx2(
    char *line, __m256i low, __m256i high, char *slot, int continuing, int descending) {
    unsigned before = (unsigned)(((uintptr_t)line & 63) >> 4);
    if (before == 0) {
        _mm256_stream_si256((__m256i *)line, low);
        _mm256_stream_si256((__m256i *)line + 1, high);
        return;
    }
    __m256i *old = (__m256i *)slot;
    unsigned split = 4 - before;
    if (continuing) {
        /* The lower line's halves a0 a1, the upper one's b0 b1; the cache line between them is
         * pieces split..<split + 4 of a0 a1 b0 b1, two pieces to a register. */
        __m256i oldLow = _mm256_load_si256(old), oldHigh = _mm256_load_si256(old + 1);
        __m256i a0 = descending ? low : oldLow, a1 = descending ? high : oldHigh;
        __m256i b0 = descending ? oldLow : low, b1 = descending ? oldHigh : high;
        __m256i first, second;
        if (split == 1) {
            first = _mm256_permute2x128_si256(a0, a1, 0x21);
            second = _mm256_permute2x128_si256(a1, b0, 0x21);
        } else if (split == 2) {
            first = a1;
            second = b0;
        } else {
            first = _mm256_permute2x128_si256(a1, b0, 0x21);
            second = _mm256_permute2x128_si256(b0, b1, 0x21);
        }
        __m256i *whole = (__m256i *)(descending ? line + 16 * split : line - 16 * before);
        _mm256_stream_si256(whole, first);
        _mm256_stream_si256(whole + 1, second);
        _mm256_store_si256(old, low);
        _mm256_store_si256(old + 1, high);
        return;
    }
    _mm256_store_si256(old, low);
    _mm256_store_si256(old + 1, high);
    if (descending) {
        __builtin_memcpy(line + 16 * split, slot + 16 * split, 16 * before);
    } else {
        __builtin_memcpy(line, slot, 16 * split);
    }
}

/* The line step eight frame columns at a time in AVX2's 256-bit registers, for processors that
 * have it (`marquee_pack565_avx2_usable()`): eight frame rows of eight columns are converted first
 * (a row's eight pixels in one register), packed two rows to a register, and the 16-bit words
 * transposed within 128-bit halves (16 shuffles a block, none across halves: converting after
 * an 8x8 transpose of 32-bit pixels took 32, a third of them across halves, and 0.23-0.26 ms a
 * 1080p frame's band copies against 0.18-0.19). Each panel row's line goes in two 32-byte stores,
 * so with `streaming` every line must start on 32 bytes. The panel row of frame column k is
 * `row0 + k * rowBytes` (rowBytes negative counter-clockwise). */
MARQUEE_PACK565_HOT __attribute__((target("avx2"))) static inline void marquee_turn565_line8_avx2(
    const uint32_t *from, long stride, int clockwise, int bgr, char *row0, long rowBytes, int streaming, char *carry,
    int continuing) {
    __m256i byteWeights, pairWeights;
    marquee_pack565_avx2_weights(bgr, &byteWeights, &pairWeights);
    __m256i columns[4][4]; /* [columns k and k + 4][16-byte piece of their lines] */
    MARQUEE_UNROLL for (int octet = 0; octet < 4; octet++) {
        const uint32_t *top = from + 8 * octet * stride;
        /* Eight frame rows converted first, rows i and i + 4 packed into one register of 16-bit
         * words (pixels 0-3 of both in the low half, 4-7 in the high), so that the transpose
         * moves 16-bit words and never crosses the halves. */
        __m256i packed[4];
        MARQUEE_UNROLL for (int i = 0; i < 4; i++) {
            __m256i upper = _mm256_loadu_si256((const __m256i *)(top + (clockwise ? 7 - i : i) * stride));
            __m256i lower = _mm256_loadu_si256((const __m256i *)(top + (clockwise ? 3 - i : i + 4) * stride));
            packed[i] = _mm256_packus_epi32(marquee_pack565_eight_avx2(upper, byteWeights, pairWeights),
                                            marquee_pack565_eight_avx2(lower, byteWeights, pairWeights));
        }
        /* Within each half: words of rows 0 and 1 (4 and 5, 2 and 3, 6 and 7) side by side, then
         * rows 0-3 (4-7), then a column's eight rows: column k in the low half, k + 4 in the
         * high one. */
        __m256i rows01 = _mm256_unpacklo_epi16(packed[0], packed[1]);
        __m256i rows45 = _mm256_unpackhi_epi16(packed[0], packed[1]);
        __m256i rows23 = _mm256_unpacklo_epi16(packed[2], packed[3]);
        __m256i rows67 = _mm256_unpackhi_epi16(packed[2], packed[3]);
        __m256i low03 = _mm256_unpacklo_epi32(rows01, rows23), high03 = _mm256_unpackhi_epi32(rows01, rows23);
        __m256i low47 = _mm256_unpacklo_epi32(rows45, rows67), high47 = _mm256_unpackhi_epi32(rows45, rows67);
        int piece = clockwise ? 3 - octet : octet;
        columns[0][piece] = _mm256_unpacklo_epi64(low03, low47);
        columns[1][piece] = _mm256_unpackhi_epi64(low03, low47);
        columns[2][piece] = _mm256_unpacklo_epi64(high03, high47);
        columns[3][piece] = _mm256_unpackhi_epi64(high03, high47);
    }
    /* Each panel row's line as two 32-byte stores: its pieces joined in pairs across halves. */
    MARQUEE_UNROLL for (int k = 0; k < 8; k++) {
        __m256i *line = (__m256i *)(row0 + k * rowBytes);
        __m256i halves[2];
        MARQUEE_UNROLL for (int half = 0; half < 2; half++) {
            __m256i first = columns[k & 3][2 * half], second = columns[k & 3][2 * half + 1];
            __m256i words = k >= 4 ? _mm256_permute2x128_si256(first, second, 0x31)
                                   : _mm256_permute2x128_si256(first, second, 0x20);
            if (carry) {
                halves[half] = words;
            } else if (streaming) {
                _mm256_stream_si256(line + half, words);
            } else {
                _mm256_storeu_si256(line + half, words);
            }
        }
        if (carry)
            marquee_turn565_store_carried_avx2(
                (char *)line, halves[0], halves[1], carry + 64 * k, continuing, clockwise);
    }
}
#endif

/* Eight frame columns of 32 rows: the AVX2 step when `avx2` is nonzero (x86-64, and only if
 * `marquee_pack565_avx2_usable()` said so), otherwise two four-column steps. With `streaming`,
 * lines start on 32 bytes (QuarterTurn streams only into rows that start on cache lines). With
 * `carry` (64 bytes for each of the eight columns), lines go through the carried store
 * (`marquee_turn565_store_carried`); they start on 16 bytes. */
static inline void marquee_turn565_line8(
    const uint32_t *from, long stride, int clockwise, int bgr, char *row0, long rowBytes, int streaming, char *carry,
    int continuing, int avx2) {
#if defined(MARQUEE_PACK565_AVX2)
    if (avx2) {
        marquee_turn565_line8_avx2(from, stride, clockwise, bgr, row0, rowBytes, streaming, carry, continuing);
        return;
    }
#else
    (void)avx2;
#endif
    for (int half = 0; half < 2; half++) {
        char *row = row0 + 4 * half * rowBytes;
        marquee_turn565_line(from + 4 * half, stride, clockwise, bgr, (uint16_t *)row, (uint16_t *)(row + rowBytes),
                             (uint16_t *)(row + 2 * rowBytes), (uint16_t *)(row + 3 * rowBytes), streaming,
                             carry ? carry + 4 * 64 * half : 0, continuing);
    }
}
#endif
