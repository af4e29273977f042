#ifndef MARQUEE_CSTREAM_SHIM_H
#define MARQUEE_CSTREAM_SHIM_H
/* Streaming (non-temporal) stores of 16 bytes, for scan-out memory that the processor writes
 * and never reads back. An ordinary store to a line that is not in the cache first reads the
 * line from memory (to own it), then writes it back when evicted: twice the memory traffic of
 * the frame, and a cache full of lines nobody reads. A streaming store goes to a write-combining
 * buffer instead and leaves the cache alone: a whole line written in consecutive stores goes to
 * memory once. That is what write-combined memory (DRM dumb buffers on most boards) does with
 * every store; this gets the same from memory the cache would otherwise hold.
 *
 * Swift has no spelling for it. `__builtin_nontemporal_store` becomes MOVNTDQ on x86-64 and
 * STNP on arm64 (plain stores elsewhere). The address must be 16-byte aligned. Header-only and
 * `static inline`: the compiler puts each call into its Swift caller. */
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef uint32_t marquee_stream_u32x4 __attribute__((ext_vector_type(4)));
typedef uint16_t marquee_stream_u16x8 __attribute__((ext_vector_type(8)));

static inline void marquee_stream_u32x4_store(void *to, marquee_stream_u32x4 value) {
    __builtin_nontemporal_store(value, (marquee_stream_u32x4 *)to);
}

static inline void marquee_stream_u16x8_store(void *to, marquee_stream_u16x8 value) {
    __builtin_nontemporal_store(value, (marquee_stream_u16x8 *)to);
}

/* Streaming stores are not ordered with other stores on x86-64: SFENCE makes them visible
 * before the buffer is handed on (to the kernel's commit, another thread). On arm64 they are
 * ordered like plain stores to the same memory, so a store barrier is enough. */
static inline void marquee_stream_fence(void) {
#if defined(__SSE2__)
    _mm_sfence();
#elif defined(__aarch64__)
    __asm__ __volatile__("dmb ishst" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}
#endif
