import CSDL2
import Glibc
import MarqueeCore

/// A desktop window showing the frames (`--backend window`): the deck author's live preview,
/// through SDL2 on X11 or Wayland. Never chosen by `--backend auto`, which serves kiosks.
///
/// Frames are rendered into one buffer in memory, as for the software backend; `present` copies
/// the rows that changed into a streaming texture and draws it to the window. One buffer is
/// enough because the texture keeps the previous frame: the rows the renderer did not touch are
/// already right there, and the buffer between frames is exactly what the window shows (what
/// `snapshot` writes).
public final class WindowBackend: DisplayBackend, InteractiveDisplay {
    public let name = "window"
    public let size: PixelSize
    private let link: WindowDisplayLink
    private let buffer: PixelBuffer
    private var presentedOnce = false
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    private let baseTitle: String
    /// SDL2's functions, opened at run time (the binary does not link SDL).
    private let sdl: SDLLibrary

    /// Opens the window; `title` names what is shown (the deck file). Throws when SDL2 is not
    /// installed or there is no display to open a window on.
    public init(size: PixelSize, title: String, log: (String) -> Void) throws(DisplayError) {
        // First: without the library nothing else can work, and installing it is the fix.
        let sdl = try SDLLibrary()
        // Without either variable SDL would try its KMSDRM driver and take over a console: a
        // preview needs a desktop, and saying so is clearer than SDL's own message.
        let environment = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"]
        guard environment.contains(where: { getenv($0).map { $0.pointee != 0 } ?? false }) else {
            throw DisplayError(
                .backendUnavailable,
                "--backend window needs a desktop session: neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        guard sdl.initialize(SDL_INIT_VIDEO) == 0 else {
            throw DisplayError(.backendUnavailable, "--backend window: cannot open a window: \(sdl.error)")
        }
        // When X11 and Wayland both fail, SDL falls through to drivers that show nothing on a
        // desktop (offscreen) or take over the console (KMSDRM). Only a driver asked for by name
        // in SDL_VIDEODRIVER may be one of those.
        let driver = sdl.getCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        guard ["x11", "wayland"].contains(driver) || getenv("SDL_VIDEODRIVER") != nil else {
            sdl.quit()
            throw DisplayError(
                .backendUnavailable,
                "--backend window: cannot connect to the desktop's display (DISPLAY or WAYLAND_DISPLAY is set, but neither X11 nor Wayland answered)"
            )
        }
        self.sdl = sdl
        self.size = size
        baseTitle = title
        var mode = SDL_DisplayMode()
        let refresh = sdl.getCurrentDisplayMode(0, &mode) == 0 && mode.refresh_rate > 0 ? Double(mode.refresh_rate) : 60
        // A deck larger than the screen is shown scaled to fit, keeping its aspect.
        var usable = SDL_Rect()
        var windowWidth = size.width
        var windowHeight = size.height
        if sdl.getDisplayUsableBounds(0, &usable) == 0, usable.w > 0, usable.h > 0 {
            let scale = min(1, Double(usable.w) / Double(size.width), Double(usable.h) / Double(size.height))
            windowWidth = max(1, Int((Double(size.width) * scale).rounded(.down)))
            windowHeight = max(1, Int((Double(size.height) * scale).rounded(.down)))
        }
        let scaled = windowWidth != size.width || windowHeight != size.height
        // Unscaled, nearest sampling makes the window's pixels the frame's exactly; scaled down,
        // linear filtering keeps text readable.
        _ = sdl.setHint(SDL_HINT_RENDER_SCALE_QUALITY, scaled ? "linear" : "nearest")
        let centered = Int32(marquee_sdl_window_centered())
        guard
            let window = sdl.createWindow(
                title, centered, centered, Int32(windowWidth), Int32(windowHeight),
                SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue)
        else {
            let message = sdl.error
            sdl.quit()
            throw DisplayError(.systemCall, "--backend window: cannot create a window: \(message)")
        }
        guard let renderer = sdl.createRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue) else {
            let message = sdl.error
            sdl.destroyWindow(window)
            sdl.quit()
            throw DisplayError(.systemCall, "--backend window: cannot create a renderer: \(message)")
        }
        // The logical size keeps the deck's aspect when the window is resized (black bars).
        _ = sdl.renderSetLogicalSize(renderer, Int32(size.width), Int32(size.height))
        guard
            let texture = sdl.createTexture(
                renderer, marquee_sdl_xrgb8888(), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(size.width),
                Int32(size.height))
        else {
            let message = sdl.error
            sdl.destroyRenderer(renderer)
            sdl.destroyWindow(window)
            sdl.quit()
            throw DisplayError(.systemCall, "--backend window: cannot create a texture: \(message)")
        }
        var info = SDL_RendererInfo()
        _ = sdl.getRendererInfo(renderer, &info)
        let vsync = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        self.window = window
        self.renderer = renderer
        self.texture = texture
        buffer = PixelBuffer(width: size.width, height: size.height)
        link = WindowDisplayLink(refreshRate: refresh, vsyncReported: vsync)
        let renderName = info.name.map { String(cString: $0) } ?? "?"
        log(
            "window: \(size.width)x\(size.height)\(scaled ? " shown at \(windowWidth)x\(windowHeight)" : ""), \(driver), renderer \(renderName)\(vsync ? " with vsync" : ""), \(Int(refresh)) Hz"
        )
    }

    deinit {
        sdl.destroyTexture(texture)
        sdl.destroyRenderer(renderer)
        sdl.destroyWindow(window)
        sdl.quit()
    }

    public var displayLink: DisplayLink { link }

    public func frameBuffer() -> PixelBuffer { buffer }

    public func present(_ frame: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError) {
        precondition(frame === buffer, "WindowBackend.present: not the buffer handed out by frameBuffer()")
        // The first frame fills the whole texture (its initial contents are undefined).
        let bands = presentedOnce ? changedRows.clamped(to: 0..<size.height) : RowBands(0..<size.height)
        for rows in bands {
            var rect = SDL_Rect(x: 0, y: Int32(rows.lowerBound), w: Int32(size.width), h: Int32(rows.count))
            let status = buffer.withPixels { pixels in
                sdl.updateTexture(
                    texture, &rect, UnsafeRawPointer(pixels.baseAddress! + rows.lowerBound * buffer.stride),
                    Int32(buffer.stride * 4))
            }
            guard status == 0 else {
                throw DisplayError(.systemCall, "window: updating the texture failed: \(sdl.error)")
            }
        }
        presentedOnce = true
        let start = link.now
        draw()
        link.presented(startedAt: start, endedAt: link.now)
    }

    /// Draws the texture to the window and presents it (blocking until the vblank with vsync).
    private func draw() {
        _ = sdl.setRenderDrawColor(renderer, 0, 0, 0, 255)
        _ = sdl.renderClear(renderer)
        _ = sdl.renderCopy(renderer, texture, nil, nil)
        sdl.renderPresent(renderer)
    }

    public func presentedFrame() -> PixelBuffer? { presentedOnce ? buffer : nil }

    public func restore() {}

    public func takeInput() -> [WindowInput] {
        var inputs: [WindowInput] = []
        var repaint = false
        // SDL_PollEvent reads the window system's connection first, then takes one event.
        var event = SDL_Event()
        while sdl.pollEvent(&event) != 0 {
            var key: Int32 = 0
            switch Int(marquee_sdl_decode_event(&event, &key)) {
            case Int(MARQUEE_SDL_EVENT_QUIT): inputs.append(.quit)
            case Int(MARQUEE_SDL_EVENT_REPAINT): repaint = true
            case Int(MARQUEE_SDL_EVENT_KEY):
                if let input = Self.input(forKey: Int(key)) { inputs.append(input) }
            default: break
            }
        }
        if repaint && presentedOnce { draw() }
        return inputs
    }

    /// The keys of the preview (README, "Authoring"). Space would start and stop playback; there
    /// is no playback yet, so it does nothing.
    static func input(forKey key: Int) -> WindowInput? {
        switch key {
        case Int(MARQUEE_KEY_UP): return .scrollRows(-1)
        case Int(MARQUEE_KEY_DOWN): return .scrollRows(1)
        case Int(MARQUEE_KEY_PAGE_UP): return .scrollPages(-1)
        case Int(MARQUEE_KEY_PAGE_DOWN): return .scrollPages(1)
        case Int(MARQUEE_KEY_HOME): return .scrollToStart
        case Int(MARQUEE_KEY_END): return .scrollToEnd
        case Int(MARQUEE_KEY_S): return .snapshot
        case Int(MARQUEE_KEY_Q), Int(MARQUEE_KEY_ESCAPE): return .quit
        default: return nil
        }
    }

    public func showProblem(_ message: String?) {
        let title = message.map { "\(baseTitle) - \($0)" } ?? baseTitle
        sdl.setWindowTitle(window, title)
    }
}
