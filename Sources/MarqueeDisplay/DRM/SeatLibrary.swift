import CSeat
import Glibc

/// libseat, opened at run time by `--seat` alone: the handle from `dlopen` and the functions the
/// seat calls, each looked up once with `dlsym`.
///
/// The binary does not link libseat (docs/architecture.md, "Seats"): most kiosks run as root or
/// in the video group and never use a seat manager, and libseat1 pulls libsystemd in (for its
/// logind backend), which a Pi image without systemd would carry for nothing. libseat's header
/// still gives the listener's layout (the CSeat module, which links nothing); the functions'
/// signatures are libseat's stable ABI (soname libseat.so.1).
final class SeatLibrary {
    /// The soname Debian's libseat1 installs.
    static let soname = "libseat.so.1"
    /// Test hook: a library name or path to open instead of `soname`, so a test can see the error
    /// of a machine without libseat1.
    static let overrideVariable = "MARQUEE_SEAT_LIBRARY"

    /// Kept open until the process exits: the seat's callbacks live in it.
    private let library: RuntimeLibrary

    let openSeat: @convention(c) (UnsafePointer<libseat_seat_listener>?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let closeSeat: @convention(c) (OpaquePointer?) -> Int32
    let disableSeat: @convention(c) (OpaquePointer?) -> Int32
    let openDevice: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?) -> Int32
    let closeDevice: @convention(c) (OpaquePointer?, Int32) -> Int32
    let seatName: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let getFD: @convention(c) (OpaquePointer?) -> Int32
    let dispatch: @convention(c) (OpaquePointer?, Int32) -> Int32
    let setLogLevel: @convention(c) (libseat_log_level) -> Void

    /// Opens libseat and looks up every function, or says in one line what to install.
    init() throws(DisplayError) {
        let library = try RuntimeLibrary(
            soname: Self.soname, override: Self.overrideVariable,
            missing:
                "--seat needs libseat, which is not installed: install the Debian package libseat1 (sudo apt-get install libseat1 seatd)"
        )
        self.library = library
        func function<T>(_ symbol: String) throws(DisplayError) -> T {
            try library.function(
                symbol, tooOld: "--seat needs libseat 0.5 or later (the Debian package libseat1)")
        }
        openSeat = try function("libseat_open_seat")
        closeSeat = try function("libseat_close_seat")
        disableSeat = try function("libseat_disable_seat")
        openDevice = try function("libseat_open_device")
        closeDevice = try function("libseat_close_device")
        seatName = try function("libseat_seat_name")
        getFD = try function("libseat_get_fd")
        dispatch = try function("libseat_dispatch")
        setLogLevel = try function("libseat_set_log_level")
    }
}
