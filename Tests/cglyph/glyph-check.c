/* Checks Sources/CGlyph/glyph.h against the blend written out pixel by pixel: random glyph masks
 * (rows 1 to 40 pixels wide, coverage 0, 255 or between) drawn through random colours over a
 * frame that is mostly one fill with some other pixels (another glyph's edge, a box under the
 * text), each glyph's made rows blended over the fill beforehand as `BlendedGlyphs` makes them.
 * The expected frame blends every pixel the plain way: the fill's result where the pixel is the
 * fill, else the colour IN the coverage OVER the pixel. Run by tools/check-cglyph on each of
 * the header's paths (SSE2, NEON, plain). */
#include "glyph.h"
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (uint32_t)state;
}

/* The colour (premultiplied) IN coverage c, and OVER `under`, written out channel by channel. */
static uint32_t over(uint32_t color, uint8_t c, uint32_t under) {
    uint32_t source = marquee_glyph_multiply(color & 0x00FF00FFu, c) |
                      marquee_glyph_multiply((color >> 8) & 0x00FF00FFu, c) << 8;
    uint32_t inverse = 255 - (source >> 24);
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t d = (under >> shift) & 0xFF;
        uint32_t t = d * inverse + 0x80;
        uint32_t scaled = (t + (t >> 8)) >> 8;
        result |= (scaled + ((source >> shift) & 0xFF)) << shift;
    }
    return result;
}

enum { WIDTH = 96, HEIGHT = 48 };

int main(void) {
    static uint32_t frame[WIDTH * HEIGHT], expected[WIDTH * HEIGHT];
    static uint8_t mask[64 * 64];
    static uint32_t made[64 * 64];
    static uint32_t source[256], inverse[256], over_fill[256];
    unsigned long wrong = 0, glyphs = 0, fast = 0;
    for (int round = 0; round < 20000; round++) {
        uint32_t alpha = next() & 0xFF;
        uint32_t color = alpha << 24;
        for (int shift = 0; shift < 24; shift += 8) color |= (alpha ? next() % (alpha + 1) : 0) << shift;
        uint32_t fill = 0xFF000000u | (next() & 0xFFFFFF);
        for (uint32_t c = 0; c < 256; c++) {
            source[c] = marquee_glyph_multiply(color & 0x00FF00FFu, c) |
                        marquee_glyph_multiply((color >> 8) & 0x00FF00FFu, c) << 8;
            inverse[c] = 255 - (source[c] >> 24);
            over_fill[c] = over(color, (uint8_t)c, fill);
        }
        for (int i = 0; i < WIDTH * HEIGHT; i++)
            frame[i] = expected[i] = next() % 40 == 0 ? next() | 0xFF000000u : fill;
        for (int g = 0; g < 6; g++, glyphs++) {
            long width = 1 + next() % 40, height = 1 + next() % 30, stride = width + next() % 8;
            long span = (width + 3) & ~3L;
            for (long y = 0; y < height; y++)
                for (long x = 0; x < stride; x++) {
                    uint32_t r = next() % 4;
                    mask[y * stride + x] = r == 0 ? 0 : r == 1 ? 255 : (uint8_t)next();
                }
            for (long y = 0; y < height; y++)
                for (long x = 0; x < span; x++)
                    made[y * span + x] = x < width ? over_fill[mask[y * stride + x]] : fill;
            long left = next() % (WIDTH - span + 1), top = next() % (HEIGHT - height + 1);
            for (long y = 0; y < height; y++)
                for (long x = 0; x < width; x++) {
                    uint8_t c = mask[y * stride + x];
                    uint32_t *pixel = &expected[(top + y) * WIDTH + left + x];
                    if (c) *pixel = *pixel == fill ? over_fill[c] : over(color, c, *pixel);
                }
            for (long y = 0; y < height; y++)
                for (long x = 0; x < span; x += 4)
                    fast += marquee_glyph_four_are_fill(&frame[(top + y) * WIDTH + left + x], fill);
            marquee_glyph_draw_blended(
                &frame[top * WIDTH + left], WIDTH, made, span, mask, stride, width, height, fill, source, inverse,
                over_fill);
        }
        for (int i = 0; i < WIDTH * HEIGHT; i++) {
            if (frame[i] == expected[i]) continue;
            if (wrong++ < 5)
                printf("round %d pixel %d: %08x, expected %08x\n", round, i, frame[i], expected[i]);
        }
    }
    printf("%lu glyphs (%lu fours over the fill), %lu pixels wrong\n", glyphs, fast, wrong);
    return wrong != 0;
}
