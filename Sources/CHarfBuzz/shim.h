#ifndef MARQUEE_CHARFBUZZ_SHIM_H
#define MARQUEE_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>

/* HB_TAG is a macro: Swift cannot import it. */
static inline hb_tag_t marquee_hb_tag(char a, char b, char c, char d) { return HB_TAG(a, b, c, d); }
#endif
