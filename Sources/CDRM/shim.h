#ifndef MARQUEE_CDRM_SHIM_H
#define MARQUEE_CDRM_SHIM_H
#include <stdint.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/* Swift cannot import the DRM_IOCTL_* numbers (built by _IOWR macros) nor call libdrm's event
 * callbacks with context, so the few pieces that need either live here as small inline wrappers. */

static inline int marquee_drm_create_dumb(int fd, uint32_t width, uint32_t height, uint32_t bpp, uint32_t *handle,
                                          uint32_t *pitch, uint64_t *size) {
    struct drm_mode_create_dumb request;
    memset(&request, 0, sizeof request);
    request.width = width;
    request.height = height;
    request.bpp = bpp;
    int result = drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &request);
    *handle = request.handle;
    *pitch = request.pitch;
    *size = request.size;
    return result;
}

static inline int marquee_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
    struct drm_mode_map_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    int result = drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &request);
    *offset = request.offset;
    return result;
}

static inline int marquee_drm_destroy_dumb(int fd, uint32_t handle) {
    struct drm_mode_destroy_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &request);
}

static inline uint32_t marquee_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }

/* Where drmHandleEvent leaves the flip and vblank events it reads. The address is passed as the
 * user data of each request, so the handlers need no global state. */
typedef struct {
    int flip_completed;
    uint32_t flip_sequence, flip_seconds, flip_microseconds;
    int vblank_arrived;
    uint32_t vblank_sequence, vblank_seconds, vblank_microseconds;
} marquee_drm_events;

static void marquee_drm_flip_handler(int fd, unsigned int sequence, unsigned int seconds, unsigned int microseconds,
                                     void *user_data) {
    (void)fd;
    marquee_drm_events *events = (marquee_drm_events *)user_data;
    events->flip_completed = 1;
    events->flip_sequence = sequence;
    events->flip_seconds = seconds;
    events->flip_microseconds = microseconds;
}

static void marquee_drm_vblank_handler(int fd, unsigned int sequence, unsigned int seconds, unsigned int microseconds,
                                       void *user_data) {
    (void)fd;
    marquee_drm_events *events = (marquee_drm_events *)user_data;
    events->vblank_arrived = 1;
    events->vblank_sequence = sequence;
    events->vblank_seconds = seconds;
    events->vblank_microseconds = microseconds;
}

/* Reads the pending events from the device and hands each to the handlers above. */
static inline int marquee_drm_handle_events(int fd) {
    drmEventContext context;
    memset(&context, 0, sizeof context);
    context.version = 2;
    context.vblank_handler = marquee_drm_vblank_handler;
    context.page_flip_handler = marquee_drm_flip_handler;
    return drmHandleEvent(fd, &context);
}

/* Asks for a vblank event on the CRTC at `crtc_index`: at vblank `sequence` (absolute, or the next
 * one if that has passed) or, with `relative`, `sequence` vblanks from now. */
static inline int marquee_drm_request_vblank_event(int fd, int crtc_index, uint32_t sequence, int relative,
                                                   marquee_drm_events *events) {
    drmVBlank request;
    memset(&request, 0, sizeof request);
    uint32_t type = DRM_VBLANK_EVENT | (relative ? DRM_VBLANK_RELATIVE : (DRM_VBLANK_ABSOLUTE | DRM_VBLANK_NEXTONMISS));
    if (crtc_index == 1)
        type |= DRM_VBLANK_SECONDARY;
    else if (crtc_index > 1)
        type |= ((uint32_t)crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK;
    request.request.type = (drmVBlankSeqType)type;
    request.request.sequence = sequence;
    request.request.signal = (unsigned long)events;
    return drmWaitVBlank(fd, &request);
}

#endif
