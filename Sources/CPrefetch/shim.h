#ifndef MARQUEE_CPREFETCH_SHIM_H
#define MARQUEE_CPREFETCH_SHIM_H
/* A hint that the cache line at `address` will soon be read, so that the processor fetches it
 * while other work goes on (a lookup in a hash table of a million ids otherwise waits for memory
 * each time). It changes nothing a program computes and cannot fault. Swift has no spelling
 * for it. */
static inline void marquee_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
