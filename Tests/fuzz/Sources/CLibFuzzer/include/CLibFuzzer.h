#ifndef MARQUEE_CLIBFUZZER_H
#define MARQUEE_CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver, for programs that have their own main() (SwiftPM gives every executable one):
 * https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/* libFuzzer's own mutations, for a custom mutator (LLVMFuzzerCustomMutator) to fall back on. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);
#endif
