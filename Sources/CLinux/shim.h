#ifndef MARQUEE_CLINUX_SHIM_H
#define MARQUEE_CLINUX_SHIM_H
/* Linux headers that Swift's Glibc module does not bring in. */
#include <signal.h>
#include <sys/signalfd.h>

static inline int marquee_signalfd_flags(void) { return SFD_CLOEXEC | SFD_NONBLOCK; }
#endif
