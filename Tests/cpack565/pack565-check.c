/* Checks Sources/CPack565/pack565.h against the 5-6-5 truncation written out channel by channel:
 * every value of each channel (with the other channels random), then 16 million random pixels,
 * for RGB565 and BGR565; then whole rows through `marquee_pack565_row` (and every colour through
 * each of its steps) and turned lines through
 * `marquee_turn565_line` and `marquee_turn565_line8`, stored at once or carried between bands.
 * Run by
 * tools/check-cpack565 on each of the header's paths. */
#include "pack565.h"
#include <stdio.h>

static uint16_t expected(uint32_t pixel, int bgr) {
    uint32_t red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
    if (bgr) { uint32_t swap = red; red = blue; blue = swap; }
    return (uint16_t)(((red >> 3) << 11) | ((green >> 2) << 5) | (blue >> 3));
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (uint32_t)state;
}

int main(void) {
    unsigned long wrong = 0, checked = 0;
    for (int bgr = 0; bgr < 2; bgr++) {
        for (long round = 0; round < 2000000 + 3 * 256 / 8; round++) {
            uint32_t pixels[8];
            for (int k = 0; k < 8; k++) {
                pixels[k] = next();
                /* The first rounds walk each channel through all 256 values. */
                if (round < 3 * 256 / 8) {
                    int shift = 8 * (int)(round / 32);
                    uint32_t value = (uint32_t)(round % 32 * 8 + k);
                    pixels[k] = (pixels[k] & ~(0xFFu << shift)) | (value << shift);
                }
            }
            marquee_pack565_u32x4 low = {pixels[0], pixels[1], pixels[2], pixels[3]};
            marquee_pack565_u32x4 high = {pixels[4], pixels[5], pixels[6], pixels[7]};
            marquee_pack565_u16x8 words = marquee_pack565(low, high, bgr);
            for (int k = 0; k < 8; k++) {
                checked++;
                if (words[k] != expected(pixels[k], bgr)) {
                    if (wrong < 5)
                        printf("  %s %08x: %04x, expected %04x\n", bgr ? "BGR565" : "RGB565", pixels[k], words[k],
                               expected(pixels[k], bgr));
                    wrong++;
                }
            }
        }
    }
    printf("  %lu of %lu pixels wrong\n", wrong, checked);

    /* Whole rows: every length from 0 to 300 and 1920, from every start offset of a 64-byte line
     * on both sides, through each step this processor has (AVX2 when usable); a guard word after
     * the row catches a step writing past its end. */
    unsigned long rowsWrong = 0, rowsChecked = 0;
    static uint32_t source[1920 + 16];
    static uint16_t destination[1920 + 32 + 1];
    for (int avx2 = 0; avx2 <= marquee_pack565_avx2_usable(); avx2++) {
        for (int bgr = 0; bgr < 2; bgr++) {
            for (long count = 0; count <= 1920; count = count < 300 ? count + 1 : 1920) {
                int sourceOffset = (int)(count % 16), destinationOffset = (int)(count * 7 % 32);
                for (long x = 0; x < count; x++) source[sourceOffset + x] = next();
                destination[destinationOffset + count] = 0xBEEF;
                marquee_pack565_row(source + sourceOffset, destination + destinationOffset, count, bgr, avx2);
                rowsChecked++;
                int bad = destination[destinationOffset + count] != 0xBEEF;
                for (long x = 0; x < count; x++)
                    bad |= destination[destinationOffset + x] != expected(source[sourceOffset + x], bgr);
                if (bad && rowsWrong++ < 5)
                    printf("  row of %ld (%s, %s) wrong\n", count, bgr ? "BGR565" : "RGB565", avx2 ? "AVX2" : "eight a step");
                if (count == 1920) break;
            }
        }
    }
    /* Every colour (the unused byte random) through each row step, 4,096 pixels a row: the AVX2
     * step's byte weights have their own sums, and a carry between channels shows only for some
     * values of the others. */
    static uint32_t colours[4096];
    static uint16_t words[4096];
    for (int avx2 = 0; avx2 <= marquee_pack565_avx2_usable(); avx2++) {
        for (int bgr = 0; bgr < 2; bgr++) {
            unsigned long colourRowsWrong = 0;
            for (uint32_t first = 0; first < (1u << 24); first += 4096) {
                for (uint32_t k = 0; k < 4096; k++) colours[k] = (first + k) | (next() & 0xFF000000u);
                marquee_pack565_row(colours, words, 4096, bgr, avx2);
                rowsChecked++;
                int bad = 0;
                for (uint32_t k = 0; k < 4096; k++) bad |= words[k] != expected(colours[k], bgr);
                if (bad) colourRowsWrong++;
            }
            if (colourRowsWrong && rowsWrong++ < 5)
                printf("  every colour (%s, %s): %lu rows of 4,096 wrong\n", bgr ? "BGR565" : "RGB565",
                       avx2 ? "AVX2" : "eight a step", colourRowsWrong);
        }
    }
    printf("  %lu of %lu rows wrong (AVX2 %s)\n", rowsWrong, rowsChecked,
           marquee_pack565_avx2_usable() ? "step checked" : "step not on this path or processor");

    /* The quarter turn's line step: four columns of 32 random rows (rows 37 pixels apart), each
     * way round, each format, with and without streaming stores, against the turn written out
     * pixel by pixel; a guard word after each line. */
    unsigned long linesWrong = 0, linesChecked = 0;
    static uint32_t block[32 * 37];
    static uint16_t panel[4][40] __attribute__((aligned(64)));
    for (int round = 0; round < 2000; round++) {
        for (int i = 0; i < 32 * 37; i++) block[i] = next();
        int clockwise = round & 1, bgr = (round >> 1) & 1, streaming = (round >> 2) & 1;
        for (int k = 0; k < 4; k++) panel[k][32] = 0xBEEF;
        marquee_turn565_line(block + 1, 37, clockwise, bgr, panel[0], panel[1], panel[2], panel[3], streaming, 0, 0);
        linesChecked++;
        int bad = 0;
        for (int k = 0; k < 4; k++) {
            bad |= panel[k][32] != 0xBEEF;
            for (int j = 0; j < 32; j++) {
                int row = clockwise ? 31 - j : j;
                bad |= panel[k][j] != expected(block[1 + row * 37 + k], bgr);
            }
        }
        if (bad && linesWrong++ < 5)
            printf("  line %s %s%s wrong\n", clockwise ? "clockwise" : "counter-clockwise", bgr ? "BGR565" : "RGB565",
                   streaming ? " streamed" : "");
    }
    /* The same step into panel rows that start on 2 bytes only (fbdev's 16-bit rows at widths
     * that are not multiples of 8, such as 854 pixels): the stores must not assume the vector's
     * alignment (movaps there was a segfault in optimized builds). */
    static uint16_t oddRows[4][43] __attribute__((aligned(64)));
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32 * 37; i++) block[i] = next();
        int clockwise = round & 1, bgr = (round >> 1) & 1;
        for (int k = 0; k < 4; k++) oddRows[k][33] = 0xBEEF;
        marquee_turn565_line(block + 1, 37, clockwise, bgr, oddRows[0] + 1, oddRows[1] + 1, oddRows[2] + 1,
                             oddRows[3] + 1, 0, 0, 0);
        linesChecked++;
        int bad = 0;
        for (int k = 0; k < 4; k++) {
            bad |= oddRows[k][33] != 0xBEEF;
            for (int j = 0; j < 32; j++)
                bad |= oddRows[k][1 + j] != expected(block[1 + (clockwise ? 31 - j : j) * 37 + k], bgr);
        }
        if (bad && linesWrong++ < 5)
            printf("  line into rows on 2 bytes %s %s wrong\n", clockwise ? "clockwise" : "counter-clockwise",
                   bgr ? "BGR565" : "RGB565");
    }
    /* The eight-column step, its panel rows going down (clockwise) or up the buffer: with AVX2
     * where this processor has it, and as two four-column steps (what arm64 runs) everywhere. */
    static uint16_t panel8[8][48] __attribute__((aligned(64))); /* lines on 32 bytes, as streaming needs */
    for (int avx2 = 0; avx2 <= marquee_pack565_avx2_usable(); avx2++) {
        for (int round = 0; round < 2000; round++) {
            for (int i = 0; i < 32 * 37; i++) block[i] = next();
            int clockwise = round & 1, bgr = (round >> 1) & 1, streaming = (round >> 2) & 1;
            for (int k = 0; k < 8; k++) panel8[k][32] = 0xBEEF;
            long rowBytes = sizeof panel8[0];
            if (clockwise)
                marquee_turn565_line8(block + 1, 37, 1, bgr, (char *)panel8[0], rowBytes, streaming, 0, 0, avx2);
            else
                marquee_turn565_line8(block + 1, 37, 0, bgr, (char *)panel8[7], -rowBytes, streaming, 0, 0, avx2);
            linesChecked++;
            int bad = 0;
            for (int k = 0; k < 8; k++) {
                /* Counter-clockwise, frame column k is panel row 7 - k here. */
                uint16_t *line = panel8[clockwise ? k : 7 - k];
                bad |= line[32] != 0xBEEF;
                for (int j = 0; j < 32; j++)
                    bad |= line[j] != expected(block[1 + (clockwise ? 31 - j : j) * 37 + k], bgr);
            }
            if (bad && linesWrong++ < 5)
                printf("  eight-column line (%s) %s %s%s wrong\n", avx2 ? "AVX2" : "two steps",
                       clockwise ? "clockwise" : "counter-clockwise", bgr ? "BGR565" : "RGB565",
                       streaming ? " streamed" : "");
        }
    }
    printf("  %lu of %lu turned lines wrong\n", linesWrong, linesChecked);

    /* Lines carried between bands (`marquee_turn565_store_carried`): five bands of eight columns
     * into panel rows 432 bytes apart (so rows start 0, 48, 32 and 16 bytes into a cache line, as
     * fbdev's 2160-byte rows do), each way round, as one run or cut in two after the second band
     * (flushed there, the next band starting afresh); then each row's last line flushed. Every
     * pixel of the 160 turned rows must be in place and every other byte left as it was. */
    enum { bands = 5, frameRows = 32 * bands, pitch = 432, start = 64 };
    static uint32_t tall[frameRows * 9];
    static char rows8[8 * pitch] __attribute__((aligned(64)));
    static char slots[8 * 64] __attribute__((aligned(64)));
    unsigned long carriedWrong = 0, carriedChecked = 0;
    for (int avx2 = 0; avx2 <= marquee_pack565_avx2_usable(); avx2++) {
        for (int round = 0; round < 400; round++) {
            for (int i = 0; i < frameRows * 9; i++) tall[i] = next();
            for (int i = 0; i < 8 * pitch; i++) rows8[i] = (char)0xAB;
            int clockwise = round & 1, bgr = (round >> 1) & 1, cut = (round >> 2) & 1;
            char *row0 = clockwise ? rows8 : rows8 + 7 * pitch;
            long rowBytes = clockwise ? pitch : -pitch;
            for (int band = 0; band < bands; band++) {
                int continuing = band > 0 && !(cut && band == 2);
                long offset = start + 2L * (clockwise ? frameRows - 32 * band - 32 : 32 * band);
                if (cut && band == 2) {
                    long last = start + 2L * (clockwise ? frameRows - 64 : 32); /* band 1's line */
                    for (int k = 0; k < 8; k++)
                        marquee_turn565_flush_line(row0 + k * rowBytes + last, slots + 64 * k, clockwise);
                }
                marquee_turn565_line8(tall + 32 * band * 9 + 1, 9, clockwise, bgr, row0 + offset, rowBytes, 0, slots,
                                      continuing, avx2);
                if (band == bands - 1)
                    for (int k = 0; k < 8; k++)
                        marquee_turn565_flush_line(row0 + k * rowBytes + offset, slots + 64 * k, clockwise);
            }
            carriedChecked++;
            int bad = 0;
            for (int k = 0; k < 8; k++) {
                const char *row = row0 + k * rowBytes;
                for (int byte = 0; byte < pitch; byte += 2) {
                    uint16_t word;
                    __builtin_memcpy(&word, row + byte, 2);
                    int x = (byte - start) / 2;
                    if (byte < start || x >= frameRows) {
                        bad |= word != 0xABAB;
                    } else {
                        int y = clockwise ? frameRows - 1 - x : x;
                        bad |= word != expected(tall[y * 9 + 1 + k], bgr);
                    }
                }
            }
            if (bad && carriedWrong++ < 5)
                printf("  carried lines (%s) %s %s%s wrong\n", avx2 ? "AVX2" : "two steps",
                       clockwise ? "clockwise" : "counter-clockwise", bgr ? "BGR565" : "RGB565",
                       cut ? ", the run cut in two" : "");
        }
    }
    printf("  %lu of %lu runs of carried lines wrong\n", carriedWrong, carriedChecked);
    return wrong != 0 || rowsWrong != 0 || linesWrong != 0 || carriedWrong != 0;
}
