#ifndef MARQUEE_CLINUX_SHIM_H
#define MARQUEE_CLINUX_SHIM_H
/* Linux headers that Swift's Glibc module does not bring in, and the ioctl numbers (built by _IOR
 * and _IOW macros) that Swift cannot import. */
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>

/* The kernel's uevent broadcast (what udev itself listens to): a non-blocking netlink socket bound
 * to the kernel's multicast group, which any user may read. -1 with errno on failure. */
static inline int marquee_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static inline int marquee_signalfd_flags(void) { return SFD_CLOEXEC | SFD_NONBLOCK; }

static inline int marquee_fb_get_variable(int fd, struct fb_var_screeninfo *info) {
    return ioctl(fd, FBIOGET_VSCREENINFO, info);
}
static inline int marquee_fb_get_fixed(int fd, struct fb_fix_screeninfo *info) {
    return ioctl(fd, FBIOGET_FSCREENINFO, info);
}
static inline int marquee_fb_pan(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOPAN_DISPLAY, info); }
/* FB_BLANK_POWERDOWN or FB_BLANK_UNBLANK; drivers without a blank operation answer EINVAL. */
static inline int marquee_fb_blank(int fd, int powerdown) {
    return ioctl(fd, FBIOBLANK, powerdown ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);
}
static inline int marquee_fb_wait_for_vsync(int fd) {
    uint32_t crtc = 0;
    return ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
}

/* The console's text/graphics switch (KD_GRAPHICS stops the console drawing on the panel). */
static inline int marquee_kd_get_mode(int fd, int *mode) {
    return ioctl(fd, KDGETMODE, mode); /* the kernel writes an int */
}
static inline int marquee_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (long)mode); }
static inline int marquee_kd_graphics(void) { return KD_GRAPHICS; }
static inline int marquee_kd_text(void) { return KD_TEXT; }

static inline int marquee_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); }
/* Arms the timer once, for `seconds` on CLOCK_MONOTONIC (absolute). */
static inline int marquee_timerfd_arm_at(int fd, double seconds) {
    struct itimerspec spec = {0};
    if (seconds < 1e-9) seconds = 1e-9;
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)((seconds - (double)spec.it_value.tv_sec) * 1e9);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, 0);
}
#endif
