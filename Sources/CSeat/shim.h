#ifndef MARQUEE_CSEAT_SHIM_H
#define MARQUEE_CSEAT_SHIM_H
/* libseat (seatd, logind) for `run --seat`. Nothing here may call a libseat function: the library
 * is opened with dlopen by SeatLibrary (MarqueeDisplay), and a call from this header would be an
 * undefined symbol. */
#include <libseat.h>
#endif
