#ifndef MARQUEE_CPIXMAN_SHIM_H
#define MARQUEE_CPIXMAN_SHIM_H
#include <pixman.h>
#include <stdint.h>

/* pixman's fixed-point conversion is a macro. */
static inline pixman_fixed_t marquee_pixman_double_to_fixed(double value) { return pixman_double_to_fixed(value); }

#endif
