import CSeat
import Glibc
import MarqueeCore

/// A seat taken through libseat (`--seat`): the seat manager (seatd, or logind) opens the DRM
/// device for Marquee, which then needs neither root nor the video group, and hands the device
/// over when the user switches to another virtual terminal.
///
/// libseat reports through callbacks, run inside `libseat_dispatch`; they only note the event
/// here, and the DRM backend acts on the notes after the dispatch returns (`takeEvents`), where it
/// can wait for its flip and set modes. A disable must be acknowledged (`acknowledgeDisable`)
/// soon, or the seat manager takes the device away regardless.
final class Seat {
    /// What libseat reported, in order.
    enum Event: Equatable {
        /// The seat is Marquee's (again): its VT is in front, and the device's DRM master is
        /// Marquee's file.
        case enabled
        /// Another VT is coming to the front: stop using the device and acknowledge.
        case disabled
    }

    /// The notes the callbacks leave; its address is libseat's `userdata`.
    private final class Inbox {
        var events: [Event] = []
    }

    private let library: SeatLibrary
    private let handle: OpaquePointer
    /// libseat keeps the listener's address, so it lives as long as the seat.
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    private let inbox: Unmanaged<Inbox>
    /// "seat0", for logs.
    let name: String

    private init(
        library: SeatLibrary, handle: OpaquePointer, listener: UnsafeMutablePointer<libseat_seat_listener>,
        inbox: Unmanaged<Inbox>
    ) {
        self.library = library
        self.handle = handle
        self.listener = listener
        self.inbox = inbox
        name = library.seatName(handle).map { String(cString: $0) } ?? "seat"
    }

    deinit {
        _ = library.closeSeat(handle)
        listener.deallocate()
        inbox.release()
    }

    /// Opens libseat and the seat; waits (logged) until the seat is active, as it is at once when
    /// Marquee's VT is in front. The errors say what to install or start.
    static func open(log: (String) -> Void) throws(DisplayError) -> Seat {
        let library = try SeatLibrary()
        // libseat's own lines (which backend it tried, which socket failed) go to stderr beside
        // Marquee's; errors only, so a working seat adds nothing to the log.
        library.setLogLevel(LIBSEAT_LOG_LEVEL_ERROR)
        let inbox = Unmanaged.passRetained(Inbox())
        let listener = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        listener.initialize(
            to: libseat_seat_listener(
                enable_seat: { _, userdata in
                    guard let userdata else { return }
                    Unmanaged<Inbox>.fromOpaque(userdata).takeUnretainedValue().events.append(.enabled)
                },
                disable_seat: { _, userdata in
                    guard let userdata else { return }
                    Unmanaged<Inbox>.fromOpaque(userdata).takeUnretainedValue().events.append(.disabled)
                }))
        var opened: OpaquePointer?
        var code = Errno.noSuchFile
        for backend in backends() {
            if let backend { setenv(backendVariable, backend, 1) }
            opened = library.openSeat(listener, inbox.toOpaque())
            if opened == nil { code = Errno.current }
            if backend != nil { unsetenv(backendVariable) }
            if opened != nil { break }
        }
        guard let handle = opened else {
            listener.deallocate()
            inbox.release()
            throw DisplayError(
                .backendUnavailable,
                "--seat: no seat manager gave Marquee a seat (\(code)). Start seatd as root with a group the user is in (seatd -g marquee; Debian: the seatd package), or run Marquee inside a logind session; libseat's own reason is logged above.",
                errno: code)
        }
        let seat = Seat(library: library, handle: handle, listener: listener, inbox: inbox)
        try seat.waitUntilEnabled(log: log)
        return seat
    }

    private static let backendVariable = "LIBSEAT_BACKEND"

    /// The libseat backends to try, in order (nil: libseat's own choice). libseat falls back to
    /// its builtin backend (a seatd inside the process), which needs root: for an ordinary user it
    /// opens a seat that never becomes active, and Marquee would wait for it for ever. So an
    /// ordinary user tries seatd and logind only, unless LIBSEAT_BACKEND names one.
    private static func backends() -> [String?] {
        getenv(backendVariable) != nil || geteuid() == 0 ? [nil] : ["seatd", "logind"]
    }

    /// The descriptor to poll; readable when the seat manager has something to say.
    var fd: Int32 { library.getFD(handle) }

    /// Reads what the seat manager sent without blocking and returns the events, in order.
    func takeEvents() throws(DisplayError) -> [Event] {
        try dispatch(timeoutMilliseconds: 0)
        let events = inbox.takeUnretainedValue().events
        inbox.takeUnretainedValue().events.removeAll()
        return events
    }

    /// Tells the seat manager Marquee has stopped using the device (after a `.disabled`).
    func acknowledgeDisable() throws(DisplayError) {
        if library.disableSeat(handle) < 0 {
            let code = Errno.current
            throw DisplayError(
                .systemCall, "--seat: acknowledging the switch away from \(name) failed: \(code)", errno: code)
        }
    }

    /// Opens `path` through the seat manager: the descriptor and libseat's device id (for
    /// `closeDevice`).
    func openDevice(_ path: String) throws(DisplayError) -> (fd: Int32, id: Int32) {
        var fd: Int32 = -1
        let id = library.openDevice(handle, path, &fd)
        guard id >= 0, fd >= 0 else {
            let code = Errno.current
            throw DisplayError(
                code == .noSuchFile ? .backendUnavailable : .permissionDenied,
                "--seat: the seat manager did not open \(path) for Marquee: \(code)", errno: code)
        }
        return (fd, id)
    }

    func closeDevice(_ id: Int32) { _ = library.closeDevice(handle, id) }

    /// Before the device is used (while `--wait-for-display` waits): a switch away is acknowledged
    /// at once, and the seat waited for again, so the backend starts on an active seat.
    func settleBeforeUse(log: (String) -> Void) throws(DisplayError) {
        let events = try takeEvents()
        for event in events where event == .disabled { try acknowledgeDisable() }
        if events.last == .disabled { try waitUntilEnabled(log: log) }
    }

    private func waitUntilEnabled(log: (String) -> Void) throws(DisplayError) {
        var logged = false
        while true {
            try dispatch(timeoutMilliseconds: logged ? -1 : 0)
            let events = inbox.takeUnretainedValue().events
            inbox.takeUnretainedValue().events.removeAll()
            // Only the last word counts before anything was opened: a disable is acknowledged.
            for event in events where event == .disabled { try acknowledgeDisable() }
            if events.last == .enabled { return }
            if !logged {
                log("drm: waiting for \(name) to become active (its virtual terminal brought to the front)")
                logged = true
            }
        }
    }

    private func dispatch(timeoutMilliseconds: Int32) throws(DisplayError) {
        while library.dispatch(handle, timeoutMilliseconds) < 0 {
            let code = Errno.current
            if code == .interrupted { continue }
            throw DisplayError(
                .systemCall,
                "--seat: the connection to the seat manager of \(name) failed (\(code)); was seatd stopped?",
                errno: code)
        }
    }
}
