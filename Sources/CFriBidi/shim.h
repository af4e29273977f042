#ifndef MARQUEE_CFRIBIDI_SHIM_H
#define MARQUEE_CFRIBIDI_SHIM_H
#include <fribidi.h>

/* The paragraph types are macros over enum values. */
static inline FriBidiParType marquee_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType marquee_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType marquee_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
#endif
