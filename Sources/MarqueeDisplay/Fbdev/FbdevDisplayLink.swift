import CLinux
import Glibc
import MarqueeCore

/// The display link of an fbdev panel. Two ways to find the vblank:
///
/// - `FBIO_WAITFORVSYNC`, where the driver has it: the frame's callback blocks in that ioctl until
///   the vsync (at most one refresh period, during which commands wait), then the frame is timed
///   from it.
/// - Otherwise (fbtft and most SPI panels) a timerfd ticking at the refresh rate computed from the
///   mode's pixel clock and margins (60 Hz when the driver gives none), armed only while a frame
///   is wanted, so an idle Marquee has no wake-ups.
final class FbdevDisplayLink: DisplayLink {
    let refreshPeriod: Double
    let isVirtual = false
    let vblanksPerFrame: Int64
    let usesVsyncIoctl: Bool
    private let device: FramebufferDevice
    private let timer: Int32
    private let origin: Double
    private var lastTick: Int64 = -1
    private var pendingTick: Int64?
    private var lastFrameTime = -Double.infinity
    private let minimumFrameInterval: Double
    private(set) var isFramePending = false

    init(device: FramebufferDevice, pacing: FramePacing) throws(DisplayError) {
        self.device = device
        refreshPeriod = pacing.refreshPeriod
        vblanksPerFrame = Int64(pacing.vblanksPerFrame)
        minimumFrameInterval = pacing.minimumFrameInterval
        usesVsyncIoctl = device.waitForVsync()
        if usesVsyncIoctl {
            timer = -1
        } else {
            switch SystemCall.run({ marquee_timerfd_create() }) {
            case .success(let created): timer = created
            case .failure(let code): throw DisplayError(.systemCall, "timerfd_create failed: \(code)", errno: code)
            }
        }
        origin = MonotonicClock.now()
    }

    deinit { if timer >= 0 { close(timer) } }

    var now: Double { MonotonicClock.now() }

    var pollDescriptor: Int32? { pendingTick != nil ? timer : nil }

    func requestFrame() {
        guard !isFramePending else { return }
        isFramePending = true
        guard !usesVsyncIoctl else { return }
        let notBeforeNow = Int64(((now - origin) / refreshPeriod).rounded(.up))
        let tick = max(lastTick < 0 ? 0 : lastTick + vblanksPerFrame, notBeforeNow)
        pendingTick = tick
        _ = marquee_timerfd_arm_at(timer, origin + Double(tick) * refreshPeriod)
    }

    func pollTimeoutMilliseconds() -> Int32 {
        // The vsync ioctl blocks in dispatch; the timer is polled through its descriptor.
        isFramePending && usesVsyncIoctl ? 0 : -1
    }

    func dispatch() throws -> FrameTime? {
        guard isFramePending else { return nil }
        if usesVsyncIoctl {
            var time = now
            // Wait out vsyncs until --max-fps allows a frame (and at least one).
            repeat {
                guard device.waitForVsync() else { break }
                time = now
            } while time < lastFrameTime + minimumFrameInterval
            lastFrameTime = time
            isFramePending = false
            return FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
        }
        guard let tick = pendingTick else { return nil }
        var expirations: UInt64 = 0
        guard read(timer, &expirations, 8) == 8 else { return nil }
        pendingTick = nil
        isFramePending = false
        lastTick = tick
        let time = origin + Double(tick) * refreshPeriod
        return FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
    }

    func advanceIdle(to time: Double) {}
}
