import CSDL2
import Glibc

/// SDL2, opened at run time by `--backend window` alone: the handle from `dlopen` and a table of
/// the functions the window calls, each looked up once with `dlsym`.
///
/// The binary does not link SDL2 (docs/architecture.md): a kiosk's package must not pull SDL and
/// its X11 and Wayland libraries onto every Pi for a preview only deck authors use. SDL's headers
/// still give the types and constants (the CSDL2 module, which links nothing), so only the
/// functions go through here; their signatures are SDL2's stable ABI.
final class SDLLibrary {
    /// The soname Debian's libsdl2-2.0-0 installs.
    static let soname = "libSDL2-2.0.so.0"
    /// Test hook: a library name or path to open instead of `soname`, so a test can see the error
    /// of a machine without SDL2 (a system library cannot be hidden through LD_LIBRARY_PATH).
    static let overrideVariable = "MARQUEE_SDL_LIBRARY"

    /// Kept open until the process exits, never closed: SDL loads the X11 or Wayland client
    /// libraries and a GL driver in turn, and unloading them at exit gains nothing.
    private let library: RuntimeLibrary

    let initialize: @convention(c) (UInt32) -> Int32
    let quit: @convention(c) () -> Void
    let getError: @convention(c) () -> UnsafePointer<CChar>?
    let getCurrentVideoDriver: @convention(c) () -> UnsafePointer<CChar>?
    let getCurrentDisplayMode: @convention(c) (Int32, UnsafeMutablePointer<SDL_DisplayMode>?) -> Int32
    let getDisplayUsableBounds: @convention(c) (Int32, UnsafeMutablePointer<SDL_Rect>?) -> Int32
    let setHint: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> SDL_bool
    let createWindow: @convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> OpaquePointer?
    let destroyWindow: @convention(c) (OpaquePointer?) -> Void
    let setWindowTitle: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void
    let createRenderer: @convention(c) (OpaquePointer?, Int32, UInt32) -> OpaquePointer?
    let destroyRenderer: @convention(c) (OpaquePointer?) -> Void
    let getRendererInfo: @convention(c) (OpaquePointer?, UnsafeMutablePointer<SDL_RendererInfo>?) -> Int32
    let renderSetLogicalSize: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let setRenderDrawColor: @convention(c) (OpaquePointer?, UInt8, UInt8, UInt8, UInt8) -> Int32
    let renderClear: @convention(c) (OpaquePointer?) -> Int32
    let renderCopy:
        @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<SDL_Rect>?, UnsafePointer<SDL_Rect>?) -> Int32
    let renderPresent: @convention(c) (OpaquePointer?) -> Void
    let createTexture: @convention(c) (OpaquePointer?, UInt32, Int32, Int32, Int32) -> OpaquePointer?
    let destroyTexture: @convention(c) (OpaquePointer?) -> Void
    let updateTexture: @convention(c) (OpaquePointer?, UnsafePointer<SDL_Rect>?, UnsafeRawPointer?, Int32) -> Int32
    let pollEvent: @convention(c) (UnsafeMutablePointer<SDL_Event>?) -> Int32

    /// Opens SDL2 and looks up every function, or says in one line what to install.
    init() throws(DisplayError) {
        let library = try RuntimeLibrary(
            soname: Self.soname, override: Self.overrideVariable,
            missing:
                "--backend window needs SDL2, which is not installed: install the Debian package libsdl2-2.0-0 (sudo apt-get install libsdl2-2.0-0)"
        )
        self.library = library
        func function<T>(_ symbol: String) throws(DisplayError) -> T {
            try library.function(
                symbol, tooOld: "--backend window needs SDL 2.0.5 or later (the Debian package libsdl2-2.0-0)")
        }
        initialize = try function("SDL_Init")
        quit = try function("SDL_Quit")
        getError = try function("SDL_GetError")
        getCurrentVideoDriver = try function("SDL_GetCurrentVideoDriver")
        getCurrentDisplayMode = try function("SDL_GetCurrentDisplayMode")
        getDisplayUsableBounds = try function("SDL_GetDisplayUsableBounds")
        setHint = try function("SDL_SetHint")
        createWindow = try function("SDL_CreateWindow")
        destroyWindow = try function("SDL_DestroyWindow")
        setWindowTitle = try function("SDL_SetWindowTitle")
        createRenderer = try function("SDL_CreateRenderer")
        destroyRenderer = try function("SDL_DestroyRenderer")
        getRendererInfo = try function("SDL_GetRendererInfo")
        renderSetLogicalSize = try function("SDL_RenderSetLogicalSize")
        setRenderDrawColor = try function("SDL_SetRenderDrawColor")
        renderClear = try function("SDL_RenderClear")
        renderCopy = try function("SDL_RenderCopy")
        renderPresent = try function("SDL_RenderPresent")
        createTexture = try function("SDL_CreateTexture")
        destroyTexture = try function("SDL_DestroyTexture")
        updateTexture = try function("SDL_UpdateTexture")
        pollEvent = try function("SDL_PollEvent")
    }

    /// SDL's message for the last failed call.
    var error: String { getError().map { String(cString: $0) } ?? "unknown SDL error" }
}
