#ifndef MARQUEE_CSDL2_SHIM_H
#define MARQUEE_CSDL2_SHIM_H
/* SDL2 for the desktop preview window (--backend window). SDL's event is a union and its window
 * position and key codes are macros or enums whose types differ between SDL versions, so an event
 * is read here and reduced to the few things Marquee acts on.
 *
 * Nothing here may call an SDL function: the library is not linked but opened with dlopen by
 * SDLLibrary (MarqueeDisplay), and a call from this header would be an undefined symbol. */
#include <SDL2/SDL.h>

static inline int marquee_sdl_window_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline Uint32 marquee_sdl_xrgb8888(void) { return SDL_PIXELFORMAT_RGB888; }

enum {
    MARQUEE_SDL_EVENT_QUIT = 1, /* the window was closed */
    MARQUEE_SDL_EVENT_KEY = 2,  /* a key went down: *key is its Marquee key below */
    MARQUEE_SDL_EVENT_REPAINT = 3, /* exposed or resized: show the last frame again */
    MARQUEE_SDL_EVENT_OTHER = 4
};
enum {
    MARQUEE_KEY_OTHER = 0, MARQUEE_KEY_UP, MARQUEE_KEY_DOWN, MARQUEE_KEY_PAGE_UP, MARQUEE_KEY_PAGE_DOWN,
    MARQUEE_KEY_HOME, MARQUEE_KEY_END, MARQUEE_KEY_S, MARQUEE_KEY_Q, MARQUEE_KEY_ESCAPE, MARQUEE_KEY_SPACE
};

static inline int marquee_sdl_key(SDL_Keycode sym) {
    switch (sym) {
    case SDLK_UP: return MARQUEE_KEY_UP;
    case SDLK_DOWN: return MARQUEE_KEY_DOWN;
    case SDLK_PAGEUP: return MARQUEE_KEY_PAGE_UP;
    case SDLK_PAGEDOWN: return MARQUEE_KEY_PAGE_DOWN;
    case SDLK_HOME: return MARQUEE_KEY_HOME;
    case SDLK_END: return MARQUEE_KEY_END;
    case SDLK_s: return MARQUEE_KEY_S;
    case SDLK_q: return MARQUEE_KEY_Q;
    case SDLK_ESCAPE: return MARQUEE_KEY_ESCAPE;
    case SDLK_SPACE: return MARQUEE_KEY_SPACE;
    default: return MARQUEE_KEY_OTHER;
    }
}

/* What one event taken off SDL's queue (by SDL_PollEvent, through SDLLibrary) means to Marquee. */
static inline int marquee_sdl_decode_event(const SDL_Event *event, int *key) {
    switch (event->type) {
    case SDL_QUIT: return MARQUEE_SDL_EVENT_QUIT;
    case SDL_KEYDOWN:
        *key = marquee_sdl_key(event->key.keysym.sym);
        return MARQUEE_SDL_EVENT_KEY;
    case SDL_WINDOWEVENT:
        if (event->window.event == SDL_WINDOWEVENT_EXPOSED || event->window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
            return MARQUEE_SDL_EVENT_REPAINT;
        return MARQUEE_SDL_EVENT_OTHER;
    default: return MARQUEE_SDL_EVENT_OTHER;
    }
}
#endif
