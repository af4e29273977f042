/* Checks Sources/CBilinear/bilinear.h against pixman's arithmetic written out plainly: its 64-bit
 * bilinear interpolation (weights doubled to 8 bits, truncated >> 16) and its combiners' OVER
 * through a solid mask (each channel times the mask's alpha / 255, then the pixel under times
 * 255 - alpha / 255, rounded, added with saturation). Every weight pair on random texels, and
 * random colors, opacities and pixels under; the two in one pass (`marquee_bilinear_over`) against
 * both references in turn. Run by tools/check-cbilinear on each path. */
#include <stdio.h>
#include <stdint.h>
#include "bilinear.h"

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint32_t next(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (uint32_t)(state >> 11);
}

static uint32_t reference_bilinear(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, uint32_t wx, uint32_t wy) {
    uint64_t x = wx << 1, y = wy << 1, result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint64_t sum = ((tl >> shift) & 0xFF) * (256 - x) * (256 - y) + ((tr >> shift) & 0xFF) * x * (256 - y)
                     + ((bl >> shift) & 0xFF) * (256 - x) * y + ((br >> shift) & 0xFF) * x * y;
        result |= (sum >> 16) << shift;
    }
    return (uint32_t)result;
}

static uint32_t divide255(uint32_t a, uint32_t b) {
    uint32_t t = a * b + 0x80;
    return ((t >> 8) + t) >> 8;
}

static uint32_t reference_over(uint32_t color, uint32_t opacity, uint32_t under) {
    uint32_t faded = 0;
    for (int shift = 0; shift < 32; shift += 8) faded |= divide255((color >> shift) & 0xFF, opacity) << shift;
    uint32_t alpha = faded >> 24, result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t sum = divide255((under >> shift) & 0xFF, 255 - alpha) + ((faded >> shift) & 0xFF);
        result |= (sum > 255 ? 255 : sum) << shift;
    }
    return result;
}

/* Mostly premultiplied colors, some not (a card's raster is premultiplied; the blend must still
 * saturate as pixman does if one is not). */
static uint32_t color(void) {
    if (next() % 8 == 0) return next();
    uint32_t alpha = next() % 256, pixel = alpha << 24;
    for (int shift = 0; shift < 24; shift += 8) pixel |= (next() % (alpha + 1)) << shift;
    return pixel;
}

int main(void) {
    long failures = 0, checked = 0;
    for (int round = 0; round < 40; round++) {
        uint32_t tl = color(), tr = color(), bl = color(), br = color();
        if (round % 4 == 0) tl = tr = bl = br | 0xFF000000u;
        for (uint32_t wx = 0; wx < 128; wx++)
            for (uint32_t wy = 0; wy < 128; wy++) {
                uint32_t got = marquee_bilinear(tl, tr, bl, br, wx, wy);
                uint32_t want = reference_bilinear(tl, tr, bl, br, wx, wy);
                checked++;
                if (got != want && failures++ < 5)
                    printf("bilinear %08x %08x %08x %08x (%u, %u): %08x, not %08x\n", tl, tr, bl, br, wx, wy, got, want);
            }
    }
    for (int round = 0; round < 2000000; round++) {
        uint32_t c = color(), under = next(), opacity = round % 3 == 0 ? 255 : next() % 256;
        uint32_t got = marquee_over(c, opacity, under), want = reference_over(c, opacity, under);
        checked++;
        if (got != want && failures++ < 10) printf("over %08x at %u over %08x: %08x, not %08x\n", c, opacity, under, got, want);
    }
    /* The two in one pass, against the two references one after the other: random texels (a
     * quarter of them equal, a sixth transparent), weights, opacities and pixels under. */
    for (int round = 0; round < 4000000; round++) {
        uint32_t tl = color(), tr = color(), bl = color(), br = color();
        if (round % 4 == 0) tr = bl = br = tl;
        if (round % 6 == 1) tl = tr = bl = br = 0;
        if (round % 5 == 2) tl |= 0xFF000000u;
        uint32_t wx = next() % 128, wy = next() % 128, under = next();
        uint32_t opacity = round % 3 == 0 ? 255 : next() % 256;
        uint32_t got = marquee_bilinear_over(tl, tr, bl, br, wx, wy, opacity, under);
        uint32_t want = reference_over(reference_bilinear(tl, tr, bl, br, wx, wy), opacity, under);
        checked++;
        if (got != want && failures++ < 15)
            printf("bilinear over %08x %08x %08x %08x (%u, %u) at %u over %08x: %08x, not %08x\n", tl, tr, bl, br, wx,
                   wy, opacity, under, got, want);
    }
    /* Two samples at once (`marquee_bilinear_over_two`): random texels, weights, opacities and
     * pixels under for each, against the references, rows three texels apart. */
    for (int round = 0; round < 2000000; round++) {
        uint32_t texels[2][5], out[3], want[2], opacity = round % 3 == 0 ? 255 : next() % 256, wx[2], wy[2];
        for (int sample = 0; sample < 2; sample++) {
            for (int index = 0; index < 5; index++) texels[sample][index] = color();
            if (round % 4 == sample) texels[sample][1] = texels[sample][3] = texels[sample][4] = texels[sample][0];
            wx[sample] = next() % 128;
            wy[sample] = next() % 128;
            out[sample] = next();
            want[sample] = reference_over(reference_bilinear(texels[sample][0], texels[sample][1], texels[sample][3],
                                                             texels[sample][4], wx[sample], wy[sample]),
                                          opacity, out[sample]);
        }
        out[2] = 0x12345678u;
        marquee_bilinear_over_two(texels[0], texels[1], 3, wx[0], wy[0], wx[1], wy[1], opacity, out);
        checked++;
        if ((out[0] != want[0] || out[1] != want[1] || out[2] != 0x12345678u) && failures++ < 18)
            printf("two samples at %u: %08x %08x, not %08x %08x\n", opacity, out[0], out[1], want[0], want[1]);
    }
    /* Runs of one color (`marquee_run_over`): every length up to 40 over pixels under that repeat
     * in fours now and then (the step that takes the last result again) or take one of two values
     * (four pixels matching the last four in some lanes only), against `reference_over` pixel by
     * pixel; the pixels either side of the run left alone. */
    for (int round = 0; round < 200000; round++) {
        uint32_t c = color(), pixels[48], want[48];
        if (round % 7 == 0) c |= 0xFF000000u;
        if (round % 11 == 1) c = 0;
        intptr_t count = round % 41;
        for (int index = 0; index < 48; index++) pixels[index] = next();
        if (round % 2 == 0)
            for (int index = 8; index < 48; index++) pixels[index] = pixels[4 + (index - 4) % 4];
        if (round % 5 == 3)
            for (int index = 4; index < 48; index++) pixels[index] = pixels[4];
        /* Two values under: four pixels often match the last four in some places, not all. */
        if (round % 5 == 4)
            for (int index = 4; index < 48; index++) pixels[index] = pixels[next() % 2];
        for (int index = 0; index < 48; index++)
            want[index] = index >= 4 && index < 4 + count ? reference_over(c, 255, pixels[index]) : pixels[index];
        marquee_run_over(pixels + 4, count, c);
        checked++;
        for (int index = 0; index < 48; index++)
            if (pixels[index] != want[index]) {
                if (failures++ < 20)
                    printf("run of %08x, %ld long, pixel %d: %08x, not %08x\n", c, (long)count, index - 4,
                           pixels[index], want[index]);
                break;
            }
    }
    /* Short runs (`marquee_run_over_eight`): every length from 1 to 8 against `reference_over`
     * pixel by pixel, the pixels after the run (up to the eighth) and either side left as they
     * were. */
    for (int round = 0; round < 200000; round++) {
        uint32_t c = color(), pixels[16], want[16];
        if (round % 7 == 0) c |= 0xFF000000u;
        if (round % 11 == 1) c = 0;
        intptr_t count = 1 + round % 8;
        for (int index = 0; index < 16; index++) pixels[index] = next();
        if (round % 3 == 0)
            for (int index = 4; index < 16; index++) pixels[index] = pixels[4];
        for (int index = 0; index < 16; index++)
            want[index] = index >= 4 && index < 4 + count ? reference_over(c, 255, pixels[index]) : pixels[index];
        marquee_run_over_eight(pixels + 4, count, c);
        checked++;
        for (int index = 0; index < 16; index++)
            if (pixels[index] != want[index]) {
                if (failures++ < 30)
                    printf("short run of %08x, %ld long, pixel %d: %08x, not %08x\n", c, (long)count, index - 4,
                           pixels[index], want[index]);
                break;
            }
    }
    /* Stretches of an edge (`marquee_edge_run_over`): a table of 128 colors looked up by each
     * pixel's vertical weight as the walk moves by steps of either sign, against `reference_over`
     * pixel by pixel; the pixels after the stretch left alone. */
    for (int round = 0; round < 100000; round++) {
        uint32_t colors[128], pixels[40], want[40];
        for (int index = 0; index < 128; index++) colors[index] = color();
        if (round % 5 == 0) colors[next() % 128] |= 0xFF000000u;
        intptr_t count = round % 33;
        int32_t fixedY = (int32_t)(next() % 0x400000) - 0x200000;
        int32_t stepY = (int32_t)(next() % 0x20000) - 0x10000;
        for (int index = 0; index < 40; index++) pixels[index] = next();
        for (int index = 0; index < 40; index++) {
            int32_t sample = fixedY + index * stepY - 0x8000;
            want[index] = index < count ? reference_over(colors[(sample >> 9) & 0x7F], 255, pixels[index]) : pixels[index];
        }
        marquee_edge_run_over(pixels, count, colors, fixedY, stepY);
        checked++;
        for (int index = 0; index < 40; index++)
            if (pixels[index] != want[index]) {
                if (failures++ < 35)
                    printf("edge stretch, %ld long, pixel %d: %08x, not %08x\n", (long)count, index, pixels[index],
                           want[index]);
                break;
            }
    }
    /* The own map's marks (`marquee_mark_common`): rows of every length up to 40 (the vector
     * steps and the plain tail), counts of 0, small and above 127, texels the common color or
     * not, against the rule written out; the bytes after the row left alone. */
    for (int round = 0; round < 200000; round++) {
        uint8_t counts[48], want[48];
        uint32_t texels[48], common = color();
        intptr_t count = round % 41;
        for (int index = 0; index < 48; index++) {
            uint32_t kind = next() % 4;
            counts[index] = (uint8_t)(kind == 0 ? 0 : kind == 1 ? 128 + next() % 128 : next() % 256);
            texels[index] = next() % 3 == 0 ? color() : common;
            uint8_t length = counts[index] > 127 ? 127 : counts[index];
            want[index] = index >= count ? counts[index]
                                         : (uint8_t)(length | (counts[index] != 0 && texels[index] == common ? 0x80 : 0));
        }
        marquee_mark_common(counts, texels, count, common);
        checked++;
        for (int index = 0; index < 48; index++)
            if (counts[index] != want[index]) {
                if (failures++ < 25)
                    printf("marks of %08x, %ld long, byte %d: %02x, not %02x\n", common, (long)count, index,
                           counts[index], want[index]);
                break;
            }
    }
    printf("%ld checked, %ld wrong\n", checked, failures);
    return failures != 0;
}
