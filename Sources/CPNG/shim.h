#ifndef MARQUEE_CPNG_SHIM_H
#define MARQUEE_CPNG_SHIM_H
#include <png.h>

/* The simplified API (png_image) reports errors in image->message instead of longjmp, which
 * Swift cannot survive; these wrap the macros it uses. */
static inline png_uint_32 marquee_png_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 marquee_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
/* B, G, R, A in memory: pixman's a8r8g8b8 on a little-endian machine (still unpremultiplied). */
static inline png_uint_32 marquee_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline png_uint_32 marquee_png_image_version(void) { return PNG_IMAGE_VERSION; }
#endif
