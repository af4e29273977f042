// vmhelper: the VM tests' independent witness of the display state (built static, run in the VM).
//
//   vmhelper hold DEVICE WxH FILE   set the CRTC of the first connected connector to a mode of
//                                   size WxH showing a framebuffer of its own, give up DRM master
//                                   (so Marquee can take it) and wait until FILE exists; then
//                                   take master back and check that the CRTC shows that same
//                                   framebuffer and mode again. Exit 0 when it does.
//   vmhelper fbmode DEVICE W H VIRTUAL_H BPP PIXCLOCK
//                                   set an fbdev mode (vfb), as fbset would.
//   vmhelper kdmode TTY             print the console's mode: "KDMODE text" or "KDMODE graphics".
//   vmhelper as-user UID GID PROG ARG...
//                                   run PROG as that user and group with no supplementary groups
//                                   (not in video: the --seat test's ordinary user).
//   vmhelper activevt               print the virtual terminal in front: "VT 1".
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <grp.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static int hold(const char *device, const char *size, const char *file) {
    unsigned width = 0, height = 0;
    if (sscanf(size, "%ux%u", &width, &height) != 2) return fprintf(stderr, "bad size %s\n", size), 2;
    int fd = open(device, O_RDWR | O_CLOEXEC);
    if (fd < 0) return perror(device), 2;
    drmModeRes *res = drmModeGetResources(fd);
    drmModeConnector *conn = NULL;
    for (int i = 0; res && i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) conn = c;
        else drmModeFreeConnector(c);
    }
    if (!conn) return fprintf(stderr, "no connected connector\n"), 2;
    drmModeModeInfo *mode = NULL;
    for (int i = 0; i < conn->count_modes && !mode; i++)
        if (conn->modes[i].hdisplay == width && conn->modes[i].vdisplay == height) mode = &conn->modes[i];
    if (!mode) return fprintf(stderr, "no %ux%u mode\n", width, height), 2;
    drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoder_id ? conn->encoder_id : conn->encoders[0]);
    uint32_t crtc = 0;
    for (int i = 0; i < res->count_crtcs && !crtc; i++)
        if (enc->possible_crtcs & (1u << i)) crtc = res->crtcs[i];
    struct drm_mode_create_dumb create = {.width = width, .height = height, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) return perror("CREATE_DUMB"), 2;
    uint32_t fb = 0;
    if (drmModeAddFB(fd, width, height, 24, 32, create.pitch, create.handle, &fb)) return perror("AddFB"), 2;
    struct drm_mode_map_dumb map = {.handle = create.handle};
    drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map);
    uint32_t *pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    for (uint64_t i = 0; pixels != MAP_FAILED && i < create.size / 4; i++) pixels[i] = 0x00336699;
    if (drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn->connector_id, 1, mode)) return perror("SetCrtc"), 2;
    printf("HOLD crtc=%u fb=%u mode=%ux%u\n", crtc, fb, width, height);
    fflush(stdout);
    if (drmDropMaster(fd)) return perror("DropMaster"), 2;
    for (int waited = 0; access(file, F_OK) != 0; waited++) {
        if (waited > 3000) return fprintf(stderr, "timed out waiting for %s\n", file), 2;
        usleep(50000);
    }
    if (drmSetMaster(fd)) perror("SetMaster (checking anyway)");
    drmModeCrtc *now = drmModeGetCrtc(fd, crtc);
    if (!now) return perror("GetCrtc"), 2;
    int same = now->buffer_id == fb && now->mode_valid && now->mode.hdisplay == width && now->mode.vdisplay == height;
    printf("%s crtc=%u fb=%u mode=%ux%u (held fb=%u mode=%ux%u)\n", same ? "RESTORED" : "NOT_RESTORED", crtc,
           now->buffer_id, now->mode_valid ? now->mode.hdisplay : 0, now->mode_valid ? now->mode.vdisplay : 0, fb,
           width, height);
    return same ? 0 : 1;
}

static int fbmode(char **argv) {
    int fd = open(argv[2], O_RDWR);
    if (fd < 0) return perror(argv[2]), 2;
    struct fb_var_screeninfo var;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var)) return perror("FBIOGET_VSCREENINFO"), 2;
    var.xres = var.xres_virtual = (uint32_t)atoi(argv[3]);
    var.yres = (uint32_t)atoi(argv[4]);
    var.yres_virtual = (uint32_t)atoi(argv[5]);
    var.bits_per_pixel = (uint32_t)atoi(argv[6]);
    var.pixclock = (uint32_t)atoi(argv[7]);
    var.xoffset = var.yoffset = 0;
    var.activate = FB_ACTIVATE_NOW;
    if (ioctl(fd, FBIOPUT_VSCREENINFO, &var)) return perror("FBIOPUT_VSCREENINFO"), 2;
    ioctl(fd, FBIOGET_VSCREENINFO, &var);
    printf("FBMODE %ux%u virtual %ux%u bpp %u red %u/%u green %u/%u blue %u/%u pixclock %u\n", var.xres, var.yres,
           var.xres_virtual, var.yres_virtual, var.bits_per_pixel, var.red.offset, var.red.length, var.green.offset,
           var.green.length, var.blue.offset, var.blue.length, var.pixclock);
    return 0;
}

static int kdmode(const char *tty) {
    int fd = open(tty, O_RDWR | O_NOCTTY);
    if (fd < 0) return perror(tty), 2;
    int mode = -1;
    if (ioctl(fd, KDGETMODE, &mode)) return perror("KDGETMODE"), 2;
    printf("KDMODE %s\n", mode == KD_TEXT ? "text" : mode == KD_GRAPHICS ? "graphics" : "other");
    return 0;
}

static int as_user(char **argv) {
    uid_t uid = (uid_t)atoi(argv[2]);
    gid_t gid = (gid_t)atoi(argv[3]);
    if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) return perror("as-user"), 2;
    execv(argv[4], argv + 4);
    return perror(argv[4]), 2;
}

static int activevt(void) {
    int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY);
    if (fd < 0) return perror("/dev/tty0"), 2;
    struct vt_stat state;
    if (ioctl(fd, VT_GETSTATE, &state)) return perror("VT_GETSTATE"), 2;
    printf("VT %u\n", state.v_active);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 5 && !strcmp(argv[1], "hold")) return hold(argv[2], argv[3], argv[4]);
    if (argc == 8 && !strcmp(argv[1], "fbmode")) return fbmode(argv);
    if (argc == 3 && !strcmp(argv[1], "kdmode")) return kdmode(argv[2]);
    if (argc >= 5 && !strcmp(argv[1], "as-user")) return as_user(argv);
    if (argc == 2 && !strcmp(argv[1], "activevt")) return activevt();
    fprintf(stderr, "usage: vmhelper hold DEVICE WxH FILE | fbmode DEVICE W H VIRTUAL_H BPP PIXCLOCK | kdmode TTY | "
                    "as-user UID GID PROG ARG... | activevt\n");
    return 2;
}
