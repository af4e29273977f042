import CLinux
import Glibc
import MarqueeCore

/// An fbdev device (`/dev/fbN`) mapped into memory: the route for small SPI panels driven by
/// fbtft, and for boards without KMS.
final class FramebufferDevice {
    let path: String
    let fd: Int32
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let format: ScanoutFormat
    /// Two pages when the virtual height holds two screens and the driver pans: Marquee then
    /// draws into the hidden page and pans to it.
    let pageCount: Int
    /// Hz from the pixel clock and margins, or nil when the driver reports none.
    let timingRefreshRate: Double?
    let driverName: String
    private let memory: UnsafeMutableRawPointer
    private let mappedLength: Int
    private var variable: fb_var_screeninfo
    private let originalOffset: (x: UInt32, y: UInt32)

    init(path: String) throws(DisplayError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM {
                throw DisplayError(
                    .permissionDenied, "cannot open \(path): permission denied. \(AccessAdvice.forDevice(path))",
                    errno: code)
            }
            throw DisplayError(
                .backendUnavailable, "cannot open \(path): \(Errno(rawValue: code))", errno: code)
        }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard marquee_fb_get_variable(fd, &variable) == 0, marquee_fb_get_fixed(fd, &fixed) == 0 else {
            close(fd)
            throw DisplayError(.backendUnavailable, "\(path) is not a framebuffer device (FBIOGET_VSCREENINFO failed)")
        }
        guard let format = Self.format(of: variable) else {
            close(fd)
            throw DisplayError(
                .unsupportedRequest,
                "\(path) uses \(variable.bits_per_pixel) bits per pixel (red at bit \(variable.red.offset), \(variable.red.length) bits; green at \(variable.green.offset), \(variable.green.length); blue at \(variable.blue.offset), \(variable.blue.length)); Marquee drives 16-bit RGB565 and 32-bit XRGB8888 panels: set one with fbset or the driver's options"
            )
        }
        let length = Int(fixed.smem_len)
        let rowBytes = Int(fixed.line_length)
        let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard length > 0, let address, address != MAP_FAILED else {
            let code = Errno.current
            close(fd)
            throw DisplayError(.systemCall, "cannot map \(path): \(code)", errno: code)
        }
        self.fd = fd
        self.format = format
        self.variable = variable
        width = Int(variable.xres)
        height = Int(variable.yres)
        bytesPerRow = rowBytes
        memory = address
        mappedLength = length
        originalOffset = (variable.xoffset, variable.yoffset)
        let twoScreens = Int(variable.yres_virtual) >= 2 * height && 2 * height * rowBytes <= length
        pageCount = twoScreens && fixed.ypanstep > 0 ? 2 : 1
        driverName = withUnsafeBytes(of: fixed.id) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        timingRefreshRate = Self.refreshRate(of: variable)
        guard height * rowBytes <= length, width * format.bytesPerPixel <= rowBytes else {
            munmap(address, length)
            close(fd)
            throw DisplayError(.backendUnavailable, "\(path) reports a screen larger than its memory")
        }
    }

    deinit {
        munmap(memory, mappedLength)
        close(fd)
    }

    static func format(of variable: fb_var_screeninfo) -> ScanoutFormat? {
        let layout = (
            variable.bits_per_pixel, variable.red.offset, variable.red.length, variable.green.offset,
            variable.green.length, variable.blue.offset, variable.blue.length
        )
        switch layout {
        case (32, 16, 8, 8, 8, 0, 8): return .xrgb8888
        case (32, 0, 8, 8, 8, 16, 8): return .xbgr8888
        case (16, 11, 5, 5, 6, 0, 5): return .rgb565
        case (16, 0, 5, 5, 6, 11, 5): return .bgr565
        default: return nil
        }
    }

    /// 10^12 / (pixclock in ps × total pixels per line × total lines), when the driver gives timings.
    static func refreshRate(of variable: fb_var_screeninfo) -> Double? {
        let lineTotal = Double(variable.left_margin + variable.xres + variable.right_margin + variable.hsync_len)
        let frameTotal = Double(variable.upper_margin + variable.yres + variable.lower_margin + variable.vsync_len)
        guard variable.pixclock > 0, lineTotal > 0, frameTotal > 0 else { return nil }
        return 1e12 / (Double(variable.pixclock) * lineTotal * frameTotal)
    }

    func page(_ index: Int) -> ScanoutSurface {
        ScanoutSurface(
            base: memory + index * height * bytesPerRow, bytesPerRow: bytesPerRow, width: width, height: height,
            format: format)
    }

    /// Shows page `index` (at the next vblank on drivers that honour FB_ACTIVATE_VBL).
    func pan(to index: Int) throws(DisplayError) {
        variable.xoffset = 0
        variable.yoffset = UInt32(index * height)
        variable.activate = UInt32(FB_ACTIVATE_VBL)
        if case .failure(let code) = SystemCall.run({ marquee_fb_pan(fd, &variable) }) {
            throw DisplayError(.systemCall, "\(path): panning to page \(index) failed: \(code)", errno: code)
        }
    }

    /// Puts the panning back where it was at start.
    func restorePanning() {
        variable.xoffset = originalOffset.x
        variable.yoffset = originalOffset.y
        variable.activate = UInt32(FB_ACTIVATE_NOW)
        _ = marquee_fb_pan(fd, &variable)
    }

    /// Powers the panel down (`FBIOBLANK` with `FB_BLANK_POWERDOWN`) or back up. fbtft's SPI
    /// panels turn their display and backlight off; DRM's fbdev emulation turns the CRTC off;
    /// drivers without a blank operation (vfb, simplefb) refuse with EINVAL.
    func setBlanked(_ blanked: Bool) -> Result<Void, Errno> {
        SystemCall.run({ marquee_fb_blank(fd, blanked ? 1 : 0) }).map { _ in () }
    }

    /// Blocks until the next vsync; false when the driver does not support waiting for it.
    func waitForVsync() -> Bool { marquee_fb_wait_for_vsync(fd) == 0 }
}
