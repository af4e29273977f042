/* marquee_scan_string (Sources/CScan/scan.h) against a byte-at-a-time reference on 2,000,000
 * random strings of 0-99 bytes (quotes, backslashes, control bytes and bytes that are not ASCII
 * mixed in): the offset it stops at and whether a byte it passed was not ASCII must agree.
 * Built and run by tools/check-cscan for each path the header has (SSE2, NEON, the byte loop). */
#include "scan.h"
#include <stdio.h>
#include <stdlib.h>

static size_t reference(const uint8_t *start, const uint8_t *end, uint8_t *high) {
    const uint8_t *p = start;
    uint8_t seen = 0;
    while (p < end && *p != '"' && *p != '\\' && *p >= 0x20) seen |= *p++;
    *high |= seen;
    return (size_t)(p - start);
}

int main(void) {
    srand(1);
    uint8_t bytes[128];
    long wrong = 0;
    for (int round = 0; round < 2000000; round++) {
        int count = rand() % 100;
        for (int index = 0; index < count; index++) {
            int kind = rand() % 100;
            bytes[index] = kind < 1   ? '"'
                           : kind < 2 ? '\\'
                           : kind < 3 ? (uint8_t)(rand() % 32)
                           : kind < 8 ? (uint8_t)(0x80 | rand() % 128)
                                      : (uint8_t)(0x20 + rand() % 95);
        }
        uint8_t high = 0, expectedHigh = 0;
        size_t stop = marquee_scan_string(bytes, bytes + count, &high);
        size_t expected = reference(bytes, bytes + count, &expectedHigh);
        if (stop != expected || ((high ^ expectedHigh) & 0x80)) {
            if (wrong++ < 5) printf("length %d: stopped at %zu (expected %zu), high %x (expected %x)\n", count, stop, expected, high, expectedHigh);
        }
    }
    printf("%ld wrong\n", wrong);
    return wrong != 0;
}
