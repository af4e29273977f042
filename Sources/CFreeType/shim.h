#ifndef MARQUEE_CFREETYPE_SHIM_H
#define MARQUEE_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

/* FT_HAS_KERNING, FT_HAS_FIXED_SIZES and FT_HAS_COLOR are macros over face flags: Swift cannot
   import them. */
static inline int marquee_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
static inline int marquee_ft_has_fixed_sizes(FT_Face face) { return FT_HAS_FIXED_SIZES(face) ? 1 : 0; }
static inline int marquee_ft_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }
#endif
