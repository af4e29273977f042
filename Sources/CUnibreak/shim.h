#ifndef MARQUEE_CUNIBREAK_SHIM_H
#define MARQUEE_CUNIBREAK_SHIM_H
#include <linebreak.h>
#endif
