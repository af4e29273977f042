#ifndef MARQUEE_CBILINEAR_BILINEAR_H
#define MARQUEE_CBILINEAR_BILINEAR_H
/* One turned card's sample, interpolated and blended, as pixman's general path computes it: the
 * compositor's work for the samples that are not in a run of one color (a card's text edges and
 * its outline), one pixel at a time. Swift's SIMD types took about twice the instructions here
 * (a 16-bit split of every product, lanes moved one by one; docs/performance.md), so the lanes are
 * written with the processor's intrinsics: SSE2 on x86-64, NEON on arm64, and plain arithmetic
 * elsewhere (or with MARQUEE_BILINEAR_PLAIN defined, which tools/test-bilinear compares with the
 * vector version). Header-only and `static inline`, so the compiler puts it into the Swift caller.
 * Pixels are 32-bit a8r8g8b8 / x8r8g8b8 words, premultiplied. */
#include <stdint.h>

#if defined(MARQUEE_BILINEAR_PLAIN)
#elif defined(__SSE2__) && defined(__x86_64__)
#define MARQUEE_BILINEAR_SSE2 1
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define MARQUEE_BILINEAR_NEON 1
#include <arm_neon.h>
#endif

#if defined(MARQUEE_BILINEAR_SSE2)
/* Each channel's sum of texel * (128 - wx or wx) * (128 - wy or wy), in the four 32-bit lanes
 * (blue, green, red, alpha): the interpolation before its shift, shared by the plain sample and
 * the sample blended at once. */
static inline __m128i marquee_bilinear_sums(uint32_t topLeft, uint32_t topRight, uint32_t bottomLeft,
                                            uint32_t bottomRight, uint32_t wx, uint32_t wy) {
    const __m128i zero = _mm_setzero_si128();
    /* [left's blue, green, red, alpha, right's ...] in 16-bit lanes, each row. */
    __m128i top = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)(((uint64_t)topRight << 32) | topLeft)), zero);
    __m128i bottom =
        _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)(((uint64_t)bottomRight << 32) | bottomLeft)), zero);
    /* The rows weighted and added: at most 255 * 128, below 2^15. */
    __m128i columns = _mm_add_epi16(_mm_mullo_epi16(top, _mm_set1_epi16((short)(128 - wy))),
                                    _mm_mullo_epi16(bottom, _mm_set1_epi16((short)wy)));
    /* Each channel's left and right side by side, weighted and added in 32 bits. */
    __m128i pairs = _mm_unpacklo_epi16(columns, _mm_srli_si128(columns, 8));
    return _mm_madd_epi16(pairs, _mm_set1_epi32((int)((wx << 16) | (128 - wx))));
}
#elif defined(MARQUEE_BILINEAR_NEON)
static inline uint32x4_t marquee_bilinear_sums(uint32_t topLeft, uint32_t topRight, uint32_t bottomLeft,
                                               uint32_t bottomRight, uint32_t wx, uint32_t wy) {
    uint8x8_t top = vcreate_u8(((uint64_t)topRight << 32) | topLeft);
    uint8x8_t bottom = vcreate_u8(((uint64_t)bottomRight << 32) | bottomLeft);
    uint16x8_t columns = vmlal_u8(vmull_u8(top, vdup_n_u8((uint8_t)(128 - wy))), bottom, vdup_n_u8((uint8_t)wy));
    return vmlal_n_u16(vmull_n_u16(vget_low_u16(columns), (uint16_t)(128 - wx)), vget_high_u16(columns),
                       (uint16_t)wx);
}
#endif

/* The bilinear interpolation of four texels with 7-bit weights `wx` and `wy` (0...127, the top
 * bits of the sample's fractions): each channel the sum of texel * (128 - wx or wx) * (128 - wy
 * or wy), truncated >> 14. pixman doubles the weights to 8 bits and truncates >> 16: the same. */
static inline uint32_t marquee_bilinear(uint32_t topLeft, uint32_t topRight, uint32_t bottomLeft,
                                        uint32_t bottomRight, uint32_t wx, uint32_t wy) {
#if defined(MARQUEE_BILINEAR_SSE2)
    __m128i channels = _mm_srli_epi32(marquee_bilinear_sums(topLeft, topRight, bottomLeft, bottomRight, wx, wy), 14);
    channels = _mm_packs_epi32(channels, channels);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(channels, channels));
#elif defined(MARQUEE_BILINEAR_NEON)
    uint32x4_t sums = marquee_bilinear_sums(topLeft, topRight, bottomLeft, bottomRight, wx, wy);
    uint16x4_t channels = vshrn_n_u32(sums, 14);
    uint8x8_t bytes = vmovn_u16(vcombine_u16(channels, channels));
    return vget_lane_u32(vreinterpret_u32_u8(bytes), 0);
#else
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t left = ((topLeft >> shift) & 0xFF) * (128 - wy) + ((bottomLeft >> shift) & 0xFF) * wy;
        uint32_t right = ((topRight >> shift) & 0xFF) * (128 - wy) + ((bottomRight >> shift) & 0xFF) * wy;
        result |= ((left * (128 - wx) + right * wx) >> 14) << shift;
    }
    return result;
#endif
}

/* `color` at `opacity` (0...255; 255 leaves it) OVER `under`: each channel times a factor / 255
 * rounded as pixman's combiners round (t = c * f + 128, (t + (t >> 8)) >> 8), the sum
 * saturating at 255. */
static inline uint32_t marquee_over(uint32_t color, uint32_t opacity, uint32_t under) {
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i half = _mm_set1_epi16(0x80);
    __m128i faded = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)color), zero);
    if (opacity != 255) {
        __m128i product = _mm_add_epi16(_mm_mullo_epi16(faded, _mm_set1_epi16((short)opacity)), half);
        faded = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    }
    __m128i fadedBytes = _mm_packus_epi16(faded, faded);
    uint32_t alpha = (uint32_t)_mm_cvtsi128_si32(fadedBytes) >> 24;
    if (alpha == 255) return (uint32_t)_mm_cvtsi128_si32(fadedBytes);
    __m128i below = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)under), zero);
    __m128i product = _mm_add_epi16(_mm_mullo_epi16(below, _mm_set1_epi16((short)(255 - alpha))), half);
    below = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    return (uint32_t)_mm_cvtsi128_si32(_mm_adds_epu8(_mm_packus_epi16(below, below), fadedBytes));
#elif defined(MARQUEE_BILINEAR_NEON)
    uint8x8_t faded = vcreate_u8(color);
    if (opacity != 255) {
        uint16x8_t product = vaddq_u16(vmull_u8(faded, vdup_n_u8((uint8_t)opacity)), vdupq_n_u16(0x80));
        faded = vshrn_n_u16(vsraq_n_u16(product, product, 8), 8);
    }
    uint32_t alpha = vget_lane_u32(vreinterpret_u32_u8(faded), 0) >> 24;
    if (alpha == 255) return vget_lane_u32(vreinterpret_u32_u8(faded), 0);
    uint16x8_t product = vaddq_u16(vmull_u8(vcreate_u8(under), vdup_n_u8((uint8_t)(255 - alpha))), vdupq_n_u16(0x80));
    uint8x8_t below = vshrn_n_u16(vsraq_n_u16(product, product, 8), 8);
    return vget_lane_u32(vreinterpret_u32_u8(vqadd_u8(below, faded)), 0);
#else
    uint32_t faded = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t channel = (color >> shift) & 0xFF;
        if (opacity != 255) {
            uint32_t product = channel * opacity + 0x80;
            channel = (product + (product >> 8)) >> 8;
        }
        faded |= channel << shift;
    }
    uint32_t alpha = faded >> 24;
    if (alpha == 255) return faded;
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t product = ((under >> shift) & 0xFF) * (255 - alpha) + 0x80;
        uint32_t sum = ((product + (product >> 8)) >> 8) + ((faded >> shift) & 0xFF);
        result |= (sum > 255 ? 255 : sum) << shift;
    }
    return result;
#endif
}

#if defined(MARQUEE_BILINEAR_SSE2)
/* A premultiplied color in the low four 16-bit lanes (blue, green, red, alpha; each at most 255)
 * OVER `under`, without a branch: the blend that ends `marquee_bilinear_over` and
 * `marquee_faded_over`. */
static inline uint32_t marquee_lanes_over(__m128i color, uint32_t under) {
    __m128i factor = _mm_sub_epi16(_mm_set1_epi16(255), _mm_shufflelo_epi16(color, 0xFF));
    __m128i below = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)under), _mm_setzero_si128());
    __m128i product = _mm_add_epi16(_mm_mullo_epi16(below, factor), _mm_set1_epi16(0x80));
    below = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    __m128i sum = _mm_add_epi16(below, color);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
}
#elif defined(MARQUEE_BILINEAR_NEON)
/* The same in NEON: the color in four 16-bit lanes. */
static inline uint32_t marquee_lanes_over(uint16x4_t color, uint32_t under) {
    uint16x4_t factor = vsub_u16(vdup_n_u16(255), vdup_lane_u16(color, 3));
    uint16x4_t below = vget_low_u16(vmovl_u8(vcreate_u8(under)));
    uint16x4_t product = vadd_u16(vmul_u16(below, factor), vdup_n_u16(0x80));
    below = vshr_n_u16(vsra_n_u16(product, product, 8), 8);
    uint16x4_t sum = vadd_u16(below, color);
    return vget_lane_u32(vreinterpret_u32_u8(vqmovn_u16(vcombine_u16(sum, sum))), 0);
}
#endif

/* `marquee_over(marquee_bilinear(...), opacity, under)` in one pass: the interpolated channels
 * stay in 16-bit lanes for the blend (no packing to bytes and back), and nothing branches on the
 * color, which is exact because the shortcuts are: a color of 0 gives `under` back (under * 255
 * / 255 rounds to under), an alpha of 255 makes the factor 0 (under * 0 rounds to 0), and the
 * sum of two channels of at most 255, packed with saturation, is the bytes' saturating add. A
 * turned card's samples seldom repeat their color over the same pixel, so the compositor calls
 * this for every sample not in a run rather than keeping the last result. */
static inline uint32_t marquee_bilinear_over(uint32_t topLeft, uint32_t topRight, uint32_t bottomLeft,
                                             uint32_t bottomRight, uint32_t wx, uint32_t wy, uint32_t opacity,
                                             uint32_t under) {
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i half = _mm_set1_epi16(0x80);
    __m128i sums = marquee_bilinear_sums(topLeft, topRight, bottomLeft, bottomRight, wx, wy);
    /* The color's blue, green, red and alpha in the low four 16-bit lanes (each at most 255). */
    __m128i faded = _mm_packs_epi32(_mm_srli_epi32(sums, 14), zero);
    if (opacity != 255) {
        __m128i product = _mm_add_epi16(_mm_mullo_epi16(faded, _mm_set1_epi16((short)opacity)), half);
        faded = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    }
    return marquee_lanes_over(faded, under);
#elif defined(MARQUEE_BILINEAR_NEON)
    uint32x4_t sums = marquee_bilinear_sums(topLeft, topRight, bottomLeft, bottomRight, wx, wy);
    uint16x4_t faded = vshrn_n_u32(sums, 14);
    if (opacity != 255) {
        uint16x4_t product = vadd_u16(vmul_n_u16(faded, (uint16_t)opacity), vdup_n_u16(0x80));
        faded = vshr_n_u16(vsra_n_u16(product, product, 8), 8);
    }
    return marquee_lanes_over(faded, under);
#else
    return marquee_over(marquee_bilinear(topLeft, topRight, bottomLeft, bottomRight, wx, wy), opacity, under);
#endif
}

/* Two neighbouring samples at once, into `out[0]` and `out[1]`: the first's texels at
 * `first[0]`, `first[1]`, `first[row]`, `first[row + 1]` with weights (`wx0`, `wy0`), the
 * second's from `second` with (`wx1`, `wy1`); each exactly `marquee_bilinear_over`. The two share
 * the lanes from the rows' weighting on (eight 16-bit lanes hold both pixels' channels), where
 * one sample leaves half of them idle: a turned card's text is mostly samples side by side. */
static inline void marquee_bilinear_over_two(const uint32_t *first, const uint32_t *second, intptr_t row, uint32_t wx0,
                                             uint32_t wy0, uint32_t wx1, uint32_t wy1, uint32_t opacity,
                                             uint32_t *out) {
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i half = _mm_set1_epi16(0x80);
    __m128i sums[2];
    const uint32_t *texels[2] = {first, second};
    const uint32_t wx[2] = {wx0, wx1}, wy[2] = {wy0, wy1};
    for (int sample = 0; sample < 2; sample++) {
        __m128i top = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)texels[sample]), zero);
        __m128i bottom = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(texels[sample] + row)), zero);
        __m128i columns = _mm_add_epi16(_mm_mullo_epi16(top, _mm_set1_epi16((short)(128 - wy[sample]))),
                                        _mm_mullo_epi16(bottom, _mm_set1_epi16((short)wy[sample])));
        __m128i pairs = _mm_unpacklo_epi16(columns, _mm_srli_si128(columns, 8));
        sums[sample] =
            _mm_srli_epi32(_mm_madd_epi16(pairs, _mm_set1_epi32((int)((wx[sample] << 16) | (128 - wx[sample])))), 14);
    }
    /* Both colors: the first's blue, green, red, alpha in the low four 16-bit lanes, the second's
     * in the high four. */
    __m128i faded = _mm_packs_epi32(sums[0], sums[1]);
    if (opacity != 255) {
        __m128i product = _mm_add_epi16(_mm_mullo_epi16(faded, _mm_set1_epi16((short)opacity)), half);
        faded = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    }
    __m128i factor = _mm_sub_epi16(_mm_set1_epi16(255), _mm_shufflehi_epi16(_mm_shufflelo_epi16(faded, 0xFF), 0xFF));
    __m128i below = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)out), zero);
    __m128i product = _mm_add_epi16(_mm_mullo_epi16(below, factor), half);
    below = _mm_srli_epi16(_mm_add_epi16(product, _mm_srli_epi16(product, 8)), 8);
    __m128i sum = _mm_add_epi16(below, faded);
    _mm_storel_epi64((__m128i *)out, _mm_packus_epi16(sum, sum));
#elif defined(MARQUEE_BILINEAR_NEON)
    uint32x4_t sums0 = marquee_bilinear_sums(first[0], first[1], first[row], first[row + 1], wx0, wy0);
    uint32x4_t sums1 = marquee_bilinear_sums(second[0], second[1], second[row], second[row + 1], wx1, wy1);
    /* Both colors in eight 16-bit lanes, the first's low. */
    uint16x8_t faded = vcombine_u16(vshrn_n_u32(sums0, 14), vshrn_n_u32(sums1, 14));
    if (opacity != 255) {
        uint16x8_t product = vaddq_u16(vmulq_n_u16(faded, (uint16_t)opacity), vdupq_n_u16(0x80));
        faded = vshrq_n_u16(vsraq_n_u16(product, product, 8), 8);
    }
    uint16x8_t alphas = vcombine_u16(vdup_lane_u16(vget_low_u16(faded), 3), vdup_lane_u16(vget_high_u16(faded), 3));
    uint16x8_t factor = vsubq_u16(vdupq_n_u16(255), alphas);
    uint16x8_t below = vmovl_u8(vreinterpret_u8_u32(vld1_u32(out)));
    uint16x8_t product = vaddq_u16(vmulq_u16(below, factor), vdupq_n_u16(0x80));
    below = vshrq_n_u16(vsraq_n_u16(product, product, 8), 8);
    vst1_u32(out, vreinterpret_u32_u8(vqmovn_u16(vaddq_u16(below, faded))));
#else
    out[0] = marquee_bilinear_over(first[0], first[1], first[row], first[row + 1], wx0, wy0, opacity, out[0]);
    out[1] = marquee_bilinear_over(second[0], second[1], second[row], second[row + 1], wx1, wy1, opacity, out[1]);
#endif
}

/* One color (premultiplied, opacity already applied) OVER `count` pixels from `out`, with the
 * arithmetic of `marquee_over`: each channel under * (255 - alpha) / 255 rounded as pixman rounds,
 * plus the color's channel, saturating. A turned card's run of uniform blocks: most of a card's
 * pixels. One loop in C rather than Swift's `RunBlend`, which stayed an out-of-line call with its
 * three vectors of set-up spilled around it on every run (docs/performance.md); here a run's
 * set-up is a few instructions from the color alone, and the compositor's loop keeps its
 * registers. Four pixels a step; four pixels equal to the last four computed take that result
 * again (a card mostly passes over plain background); a run not a multiple of four ends with its
 * last four pixels, computed from what they held before the loop blends any of them. */
static inline void marquee_run_over(uint32_t *out, intptr_t count, uint32_t color) {
    uint32_t alpha = color >> 24;
    if (color == 0) return;
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i colors = _mm_set1_epi32((int)color);
    if (alpha == 255) {
        /* Written four at a time: ClangImporter's build of this header leaves a plain loop as it is. */
        if (count >= 4) {
            for (intptr_t index = 0; index + 4 < count; index += 4) _mm_storeu_si128((__m128i *)(out + index), colors);
            _mm_storeu_si128((__m128i *)(out + count - 4), colors);
        } else {
            for (intptr_t index = 0; index < count; index++) out[index] = color;
        }
        return;
    }
    const __m128i zero = _mm_setzero_si128();
    const __m128i half = _mm_set1_epi16(0x80);
    const __m128i factor = _mm_set1_epi16((short)(255 - alpha));
#define MARQUEE_RUN_SCALE(lanes)                                                                                       \
    _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(lanes, factor), half),                                  \
                                 _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(lanes, factor), half), 8)),              \
                   8)
#define MARQUEE_RUN_BLEND(under)                                                                                       \
    _mm_adds_epu8(_mm_packus_epi16(MARQUEE_RUN_SCALE(_mm_unpacklo_epi8(under, zero)),                                 \
                                   MARQUEE_RUN_SCALE(_mm_unpackhi_epi8(under, zero))),                                 \
                  colors)
    if (count >= 4) {
        __m128i lastUnder = _mm_loadu_si128((const __m128i *)(out + count - 4));
        __m128i last = MARQUEE_RUN_BLEND(lastUnder);
        __m128i seen = lastUnder, seenResult = last;
        for (intptr_t index = 0; index + 4 < count; index += 4) {
            __m128i under = _mm_loadu_si128((const __m128i *)(out + index));
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(under, seen)) != 0xFFFF) {
                seen = under;
                seenResult = MARQUEE_RUN_BLEND(under);
            }
            _mm_storeu_si128((__m128i *)(out + index), seenResult);
        }
        _mm_storeu_si128((__m128i *)(out + count - 4), last);
        return;
    }
    for (intptr_t index = 0; index < count; index++)
        out[index] = (uint32_t)_mm_cvtsi128_si32(MARQUEE_RUN_BLEND(_mm_cvtsi32_si128((int)out[index])));
#undef MARQUEE_RUN_BLEND
#undef MARQUEE_RUN_SCALE
#elif defined(MARQUEE_BILINEAR_NEON)
    if (alpha == 255) {
        if (count >= 4) {
            for (intptr_t index = 0; index + 4 < count; index += 4) vst1q_u32(out + index, vdupq_n_u32(color));
            vst1q_u32(out + count - 4, vdupq_n_u32(color));
        } else {
            for (intptr_t index = 0; index < count; index++) out[index] = color;
        }
        return;
    }
    const uint8x8_t factor = vdup_n_u8((uint8_t)(255 - alpha));
    const uint16x8_t half = vdupq_n_u16(0x80);
    const uint8x16_t colors = vreinterpretq_u8_u32(vdupq_n_u32(color));
#define MARQUEE_RUN_SCALE(bytes)                                                                                       \
    vshrn_n_u16(vsraq_n_u16(vaddq_u16(vmull_u8(bytes, factor), half), vaddq_u16(vmull_u8(bytes, factor), half), 8), 8)
#define MARQUEE_RUN_BLEND(under)                                                                                       \
    vqaddq_u8(vcombine_u8(MARQUEE_RUN_SCALE(vget_low_u8(under)), MARQUEE_RUN_SCALE(vget_high_u8(under))), colors)
    if (count >= 4) {
        uint32x4_t lastUnder = vld1q_u32(out + count - 4);
        uint32x4_t last = vreinterpretq_u32_u8(MARQUEE_RUN_BLEND(vreinterpretq_u8_u32(lastUnder)));
        uint32x4_t seen = lastUnder, seenResult = last;
        for (intptr_t index = 0; index + 4 < count; index += 4) {
            uint32x4_t under = vld1q_u32(out + index);
            if (vminvq_u32(vceqq_u32(under, seen)) == 0) {
                seen = under;
                seenResult = vreinterpretq_u32_u8(MARQUEE_RUN_BLEND(vreinterpretq_u8_u32(under)));
            }
            vst1q_u32(out + index, seenResult);
        }
        vst1q_u32(out + count - 4, last);
        return;
    }
    for (intptr_t index = 0; index < count; index++) {
        uint8x16_t under = vreinterpretq_u8_u32(vdupq_n_u32(out[index]));
        out[index] = vgetq_lane_u32(vreinterpretq_u32_u8(MARQUEE_RUN_BLEND(under)), 0);
    }
#undef MARQUEE_RUN_BLEND
#undef MARQUEE_RUN_SCALE
#else
    (void)alpha;
    for (intptr_t index = 0; index < count; index++) out[index] = marquee_over(color, 255, out[index]);
#endif
}

/* A short run (1 <= `count` <= 8) of one color OVER the pixels from `out`, as `marquee_run_over`
 * blends it, without a branch on its length: eight pixels are read and blended, and those past
 * the run are written back as they were read, so `out[0...7]` must all be pixels of the caller's
 * (the rest of the row). The runs between a turned card's glyphs are mostly this short, and
 * `marquee_run_over`'s branches on their lengths (four at a time or one by one, how many steps)
 * were a fifth of the compositor's mispredicted branches (docs/performance.md). */
static inline void marquee_run_over_eight(uint32_t *out, intptr_t count, uint32_t color) {
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i half = _mm_set1_epi16(0x80);
    const __m128i colors = _mm_set1_epi32((int)color);
    const __m128i factor = _mm_set1_epi16((short)(255 - (color >> 24)));
    const __m128i counts = _mm_set1_epi32((int)count);
    __m128i pixels[2] = {_mm_loadu_si128((const __m128i *)out), _mm_loadu_si128((const __m128i *)(out + 4))};
    const __m128i inRun[2] = {_mm_cmpgt_epi32(counts, _mm_setr_epi32(0, 1, 2, 3)),
                              _mm_cmpgt_epi32(counts, _mm_setr_epi32(4, 5, 6, 7))};
    for (int half4 = 0; half4 < 2; half4++) {
        __m128i low = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(pixels[half4], zero), factor), half);
        __m128i high = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(pixels[half4], zero), factor), half);
        low = _mm_srli_epi16(_mm_add_epi16(low, _mm_srli_epi16(low, 8)), 8);
        high = _mm_srli_epi16(_mm_add_epi16(high, _mm_srli_epi16(high, 8)), 8);
        __m128i blended = _mm_adds_epu8(_mm_packus_epi16(low, high), colors);
        _mm_storeu_si128((__m128i *)(out + 4 * half4),
                         _mm_or_si128(_mm_and_si128(inRun[half4], blended), _mm_andnot_si128(inRun[half4], pixels[half4])));
    }
#elif defined(MARQUEE_BILINEAR_NEON)
    const uint8x8_t factor = vdup_n_u8((uint8_t)(255 - (color >> 24)));
    const uint16x8_t half = vdupq_n_u16(0x80);
    const uint8x16_t colors = vreinterpretq_u8_u32(vdupq_n_u32(color));
    const uint32x4_t counts = vdupq_n_u32((uint32_t)count);
    static const uint32_t lanes[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int half4 = 0; half4 < 2; half4++) {
        uint8x16_t under = vreinterpretq_u8_u32(vld1q_u32(out + 4 * half4));
        uint16x8_t low = vaddq_u16(vmull_u8(vget_low_u8(under), factor), half);
        uint16x8_t high = vaddq_u16(vmull_u8(vget_high_u8(under), factor), half);
        uint8x16_t blended = vqaddq_u8(
            vcombine_u8(vshrn_n_u16(vsraq_n_u16(low, low, 8), 8), vshrn_n_u16(vsraq_n_u16(high, high, 8), 8)), colors);
        uint32x4_t inRun = vcgtq_u32(counts, vld1q_u32(lanes + 4 * half4));
        vst1q_u32(out + 4 * half4, vbslq_u32(inRun, vreinterpretq_u32_u8(blended), vreinterpretq_u32_u8(under)));
    }
#else
    for (intptr_t index = 0; index < count; index++) out[index] = marquee_over(color, 255, out[index]);
#endif
}

/* `faded` (premultiplied, opacity applied) OVER `under`, without a branch: the blend that ends
 * `marquee_bilinear_over`, for a color that is already known. */
static inline uint32_t marquee_faded_over(uint32_t faded, uint32_t under) {
#if defined(MARQUEE_BILINEAR_SSE2)
    return marquee_lanes_over(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)faded), _mm_setzero_si128()), under);
#elif defined(MARQUEE_BILINEAR_NEON)
    return marquee_lanes_over(vget_low_u16(vmovl_u8(vcreate_u8(faded))), under);
#else
    return marquee_over(faded, 255, under);
#endif
}

/* A stretch of a turned raster's top or bottom edge, `count` pixels from `out`: samples whose two
 * texels inside the raster are one color, so that each sample's color hangs on its vertical
 * weight alone, `colors[weight]` (opacity applied), the weight being the top 7 bits of the
 * fraction of the walk's y (`fixedY`, 16.16, less half a texel), which moves by `stepY` a pixel.
 * In place of one interpolation a sample, and of the compositor's loop around it. */
static inline void marquee_edge_run_over(uint32_t *out, intptr_t count, const uint32_t *colors, int32_t fixedY,
                                         int32_t stepY) {
    uint32_t sampleY = (uint32_t)fixedY - 0x8000u;
    for (intptr_t index = 0; index < count; index++) {
        out[index] = marquee_faded_over(colors[(sampleY >> 9) & 0x7F], out[index]);
        sampleY += (uint32_t)stepY;
    }
}

/* Asks for the cache line holding the byte at `address` ahead of its use. An address, not a
 * pointer: the caller works out where a later row of the frame will read, which may be outside
 * the raster (a prefetch never faults). */
static inline void marquee_prefetch(uintptr_t address) { __builtin_prefetch((const void *)address, 0, 3); }

/* Marks, in a row of a raster's map of uniform blocks, the runs whose color is `common` (the
 * raster's commonest color of uniform blocks, its fill): each count `counts[x]` (0...255, 0 where
 * the block at x is not uniform) becomes min(count, 127), with its top bit set when the texel
 * `texels[x]` is `common`. The compositor then takes a run's color from the map it reads anyway,
 * without reading the raster's texel (a cache line of its own, most often not in the cache). */
static inline void marquee_mark_common(uint8_t *counts, const uint32_t *texels, intptr_t count, uint32_t common) {
    intptr_t x = 0;
#if defined(MARQUEE_BILINEAR_SSE2)
    const __m128i commons = _mm_set1_epi32((int)common);
    const __m128i top = _mm_set1_epi8((char)0x80);
    const __m128i cap = _mm_set1_epi8(127);
    const __m128i zero = _mm_setzero_si128();
    for (; x + 16 <= count; x += 16) {
        __m128i lengths = _mm_loadu_si128((const __m128i *)(counts + x));
        __m128i equal01 = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(texels + x)), commons),
                                          _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(texels + x + 4)), commons));
        __m128i equal23 = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(texels + x + 8)), commons),
                                          _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(texels + x + 12)), commons));
        /* All ones in each byte whose texel is `common` and whose count is not 0. */
        __m128i marked = _mm_andnot_si128(_mm_cmpeq_epi8(lengths, zero), _mm_packs_epi16(equal01, equal23));
        __m128i capped = _mm_min_epu8(lengths, cap);
        _mm_storeu_si128((__m128i *)(counts + x), _mm_or_si128(capped, _mm_and_si128(marked, top)));
    }
#endif
    for (; x < count; x++) {
        uint8_t length = counts[x] > 127 ? 127 : counts[x];
        counts[x] = (uint8_t)(length | (length != 0 && texels[x] == common ? 0x80 : 0));
    }
}

#endif
