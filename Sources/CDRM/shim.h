#ifndef MARQUEE_CDRM_SHIM_H
#define MARQUEE_CDRM_SHIM_H
#include <stdint.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/* DRM_IOCTL_* numbers are built by _IOWR macros, which Swift cannot import. The DRM backend
 * (issue 4) adds its dumb-buffer wrappers here; for now the module only proves the library links. */
static inline int marquee_drm_available(void) { return drmAvailable(); }
#endif
