#ifndef MARQUEE_CSCAN_SCAN_H
#define MARQUEE_CSCAN_SCAN_H
/* Finding where a JSON string's plain bytes end, sixteen bytes at a time: the one loop of the
 * deck decoder that reads every byte of a card's texts. Swift's SIMD types did not become
 * vector instructions here (docs/performance.md), so the compares are written with the
 * processor's intrinsics: SSE2 on x86-64 (every x86-64 has it), NEON on arm64 (every AArch64
 * has it), and a plain loop elsewhere. Header-only and `static inline`, so the compiler puts it
 * into the Swift caller; one call per string, not per byte. */
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/* The number of bytes from `start` (at most `end - start`) before the first one that is a
 * quote, a backslash or below 0x20 (what ends a string's plain run); `end - start` when none
 * is. `*high` gets the bytes passed over ORed into it: its bit 0x80 then says whether any was
 * not ASCII (so the caller checks UTF-8 only for those strings). */
#if !defined(__SSE2__) && defined(__aarch64__) && defined(__ARM_NEON)
static inline uint64_t marquee_scan_nibbles(uint8x16_t mask) {
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(mask), 4)), 0);
}
#endif

static inline size_t marquee_scan_string(const uint8_t *start, const uint8_t *end, uint8_t *high) {
    const uint8_t *p = start;
    uint8_t seen = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i below = _mm_set1_epi8(0x1F);
    while (end - p >= 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)p);
        /* A byte is below 0x20 when its unsigned minimum with 0x1F is itself. */
        __m128i special = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
            _mm_cmpeq_epi8(_mm_min_epu8(bytes, below), bytes));
        unsigned mask = (unsigned)_mm_movemask_epi8(special);
        unsigned nonASCII = (unsigned)_mm_movemask_epi8(bytes);
        if (mask != 0) {
            unsigned offset = (unsigned)__builtin_ctz(mask);
            if (nonASCII & ((1u << offset) - 1)) seen |= 0x80;
            *high |= seen;
            return (size_t)(p - start) + offset;
        }
        if (nonASCII) seen |= 0x80;
        p += 16;
    }
#elif defined(__aarch64__) && defined(__ARM_NEON)
    const uint8x16_t quote = vdupq_n_u8('"');
    const uint8x16_t backslash = vdupq_n_u8('\\');
    const uint8x16_t space = vdupq_n_u8(0x20);
    const uint8x16_t nonASCII = vdupq_n_u8(0x80);
    uint8x16_t passed = vdupq_n_u8(0);
    while (end - p >= 16) {
        uint8x16_t bytes = vld1q_u8(p);
        uint8x16_t special =
            vorrq_u8(vorrq_u8(vceqq_u8(bytes, quote), vceqq_u8(bytes, backslash)), vcltq_u8(bytes, space));
        /* NEON has no movemask: narrowing each 16-bit lane by 4 bits leaves four bits a byte in
         * one 64-bit word, whose lowest set nibble is the first special byte. */
        uint64_t specialBits = marquee_scan_nibbles(special);
        if (specialBits != 0) {
            unsigned offset = (unsigned)__builtin_ctzll(specialBits) / 4;
            uint64_t highBits = marquee_scan_nibbles(vcgeq_u8(bytes, nonASCII));
            if (highBits & (((uint64_t)1 << (offset * 4)) - 1)) seen |= 0x80;
            seen |= vmaxvq_u8(passed);
            *high |= seen;
            return (size_t)(p - start) + offset;
        }
        passed = vorrq_u8(passed, bytes);
        p += 16;
    }
    seen |= vmaxvq_u8(passed);
#endif
    while (p < end) {
        uint8_t byte = *p;
        if (byte == '"' || byte == '\\' || byte < 0x20) break;
        seen |= byte;
        p++;
    }
    *high |= seen;
    return (size_t)(p - start);
}

#endif
