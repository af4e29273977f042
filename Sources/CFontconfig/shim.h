#ifndef MARQUEE_CFONTCONFIG_SHIM_H
#define MARQUEE_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>

/* Property names are string macros. */
static inline const char *marquee_fc_file(void) { return FC_FILE; }
static inline const char *marquee_fc_family(void) { return FC_FAMILY; }
static inline const char *marquee_fc_index(void) { return FC_INDEX; }
static inline const char *marquee_fc_charset(void) { return FC_CHARSET; }
static inline const char *marquee_fc_color(void) { return FC_COLOR; }
#endif
