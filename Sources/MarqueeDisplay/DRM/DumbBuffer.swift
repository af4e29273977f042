import CDRM
import Glibc
import MarqueeCore

/// A dumb buffer (plain memory the display controller scans out) with its framebuffer id and its
/// mapping. Write-only from the CPU's side: on most hardware it is write-combined memory, where a
/// read is many times slower than a write, so Marquee never reads it (except to check a writeback
/// capture, which is a buffer the display wrote).
final class DumbBuffer {
    private let fd: Int32
    let width: Int
    let height: Int
    let handle: UInt32
    let pitch: Int
    let byteCount: Int
    let framebufferID: UInt32
    let memory: UnsafeMutableRawPointer
    /// The fills the band copies left in it (`HeldSpans`): a fill it already holds is not
    /// written again. Every write into the buffer keeps it true. Made when first used (a
    /// writeback target never is); frame rows are panel rows for the copies that take a table.
    private(set) lazy var held = HeldSpans(height: height)

    init(device: DRMDevice, width: Int, height: Int) throws(DisplayError) {
        let fd = device.fd
        self.fd = fd
        self.width = width
        self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        // Asked for whole 64-byte lines a row, so every row starts on a cache line: the quarter
        // turn writes each panel row a line at a time, and a row that starts mid-line (a
        // 1080-pixel-wide turned panel: 4,320 bytes, 67.5 lines) splits every one of those writes
        // in two, which write-combined memory may flush as partial lines. The framebuffer keeps
        // the real width; the pitch says where rows start. A driver that refuses the wider
        // buffer (past its largest width) is asked for the exact width.
        let created = SystemCall.run {
            marquee_drm_create_dumb(
                fd, UInt32(Self.lineAlignedWidth(width)), UInt32(height), 32, &handle, &pitch, &size)
        }.flatMapError { _ in
            SystemCall.run { marquee_drm_create_dumb(fd, UInt32(width), UInt32(height), 32, &handle, &pitch, &size) }
        }
        if case .failure(let code) = created {
            throw DisplayError(
                .systemCall, "\(device.path): cannot create a \(width)x\(height) dumb buffer: \(code)", errno: code)
        }
        self.handle = handle
        self.pitch = Int(pitch)
        let byteCount = Int(size)
        self.byteCount = byteCount
        var framebuffer: UInt32 = 0
        let handles: [UInt32] = [handle, 0, 0, 0]
        let pitches: [UInt32] = [pitch, 0, 0, 0]
        let offsets: [UInt32] = [0, 0, 0, 0]
        let added = SystemCall.run {
            drmModeAddFB2(
                fd, UInt32(width), UInt32(height), marquee_drm_format_xrgb8888(), handles, pitches, offsets,
                &framebuffer, 0)
        }.flatMapError { _ in
            // Older drivers know only the legacy call (depth 24, 32 bits per pixel is XRGB8888).
            SystemCall.run { drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &framebuffer) }
        }
        if case .failure(let code) = added {
            _ = marquee_drm_destroy_dumb(fd, handle)
            throw DisplayError(
                .systemCall, "\(device.path): cannot add an XRGB8888 framebuffer: \(code)", errno: code)
        }
        framebufferID = framebuffer
        var offset: UInt64 = 0
        let mapped = SystemCall.run { marquee_drm_map_dumb(fd, handle, &offset) }.flatMap { _ in
            SystemCall.pointer { () -> UnsafeMutableRawPointer? in
                let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
                return address == MAP_FAILED ? nil : address
            }
        }
        switch mapped {
        case .success(let address): memory = address
        case .failure(let code):
            _ = drmModeRmFB(fd, framebuffer)
            _ = marquee_drm_destroy_dumb(fd, handle)
            throw DisplayError(.systemCall, "\(device.path): cannot map a dumb buffer: \(code)", errno: code)
        }
    }

    /// `width` XRGB8888 pixels rounded up to whole 64-byte lines (16 pixels).
    static func lineAlignedWidth(_ width: Int) -> Int { (width + 15) / 16 * 16 }

    deinit {
        munmap(memory, byteCount)
        _ = drmModeRmFB(fd, framebufferID)
        _ = marquee_drm_destroy_dumb(fd, handle)
    }

    var surface: ScanoutSurface {
        ScanoutSurface(base: memory, bytesPerRow: pitch, width: width, height: height, format: .xrgb8888)
    }

    /// Fills the buffer with one colour (the first frame before anything is rendered).
    func fill(_ pixel: UInt32) {
        held.forgetAll()
        for y in 0..<height {
            let row = (memory + y * pitch).assumingMemoryBound(to: UInt32.self)
            row.update(repeating: pixel, count: width)
        }
    }
}
