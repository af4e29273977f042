/* Checks Sources/CGlyphOver/glyphover.h against pixman's OVER of a solid colour through an a8
 * mask written out channel by channel (pixman-combine32.h's MUL_UN8 and ADD_UN8): every alpha,
 * coverage and pixel channel, then random masks of every width from 0 to 40 (around the four- and
 * eight-pixel steps and their overlapping last step) at every offset within a cache line, with a
 * guard pixel each side, through this build's path and, where the processor has it, AVX2. Run by
 * tools/check-cglyphover once a path (host, plain, NEON under qemu-aarch64). */
#include "glyphover.h"

#include <stdio.h>
#include <stdlib.h>

static uint32_t reference(uint32_t pixel, uint32_t color, uint32_t coverage) {
    if (coverage == 0) return pixel;
    uint32_t source[4], result = 0;
    for (int c = 0; c < 4; c++) {
        uint32_t t = ((color >> (8 * c)) & 0xFF) * coverage + 0x80;
        source[c] = ((t >> 8) + t) >> 8;
    }
    uint32_t inverse = 255 - source[3];
    for (int c = 0; c < 4; c++) {
        uint32_t t = ((pixel >> (8 * c)) & 0xFF) * inverse + 0x80;
        uint32_t sum = (((t >> 8) + t) >> 8) + source[c];
        result |= (sum > 255 ? 255 : sum) << (8 * c);
    }
    return result;
}

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static long failures = 0;
static void expect(uint32_t got, uint32_t want, const char *what, long a, long b) {
    if (got == want) return;
    if (failures < 10) fprintf(stderr, "  %s (%ld, %ld): got %08x, want %08x\n", what, a, b, got, want);
    failures++;
}

static void check(int avx2, const char *name) {
    long before = failures;
    /* Every alpha, coverage and pixel channel value (the other channels random below the alpha). */
    uint32_t row[256];
    uint8_t coverage[256];
    for (uint32_t alpha = 0; alpha < 256; alpha++) {
        for (uint32_t m = 0; m < 256; m++) {
            uint32_t color = alpha << 24;
            for (int c = 0; c < 3; c++) color |= (uint32_t)(next() % (alpha + 1)) << (8 * c);
            for (uint32_t d = 0; d < 256; d++) {
                row[d] = d << 24 | d << 16 | (uint32_t)(next() & 0xFF) << 8 | (255 - d);
                coverage[d] = (uint8_t)m;
            }
            uint32_t original[256];
            memcpy(original, row, sizeof row);
            marquee_glyph_over(coverage, 256, row, 256, 256, 1, color, avx2);
            for (long d = 0; d < 256; d++) expect(row[d], reference(original[d], color, m), "channels", alpha, m);
        }
    }
    /* Random masks of every width and offset, a guard pixel each side of every row. */
    enum { rows = 5, stride = 64 };
    uint32_t pixels[rows * stride + 32];
    uint32_t expected[rows * stride + 32];
    uint8_t mask[rows * 48];
    for (int round = 0; round < 300; round++) {
        for (long width = 0; width <= 40; width++) {
            for (long offset = 0; offset < 16; offset++) {
                uint32_t color = (uint32_t)next();
                if (round % 3 == 0) color |= 0xFF000000u;
                for (long i = 0; i < rows * stride + 32; i++) pixels[i] = expected[i] = (uint32_t)next();
                for (long i = 0; i < rows * 48; i++) {
                    uint64_t r = next();
                    mask[i] = (r & 3) == 0 ? 0 : (r & 3) == 1 ? 255 : (uint8_t)(r >> 8);
                    if ((r >> 16) % 5 == 0) mask[i] = 0; /* runs of none: the skipped steps */
                }
                for (long y = 0; y < rows; y++) {
                    for (long x = 0; x < width; x++) {
                        uint32_t *at = expected + 1 + offset + y * stride + x;
                        *at = reference(*at, color, mask[y * 48 + x]);
                    }
                }
                marquee_glyph_over(mask, 48, pixels + 1 + offset, stride, width, rows, color, avx2);
                for (long i = 0; i < rows * stride + 32; i++) expect(pixels[i], expected[i], "rows", width, i);
            }
        }
    }
    printf("  %s: %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void) {
    check(0, marquee_glyph_over_vector() ? "vector path" : "plain path");
    if (marquee_glyph_over_avx2_usable()) check(1, "AVX2 path");
    if (failures) {
        fprintf(stderr, "%ld pixels wrong\n", failures);
        return 1;
    }
    return 0;
}
