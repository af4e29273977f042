import CDRM
import Glibc
import MarqueeCore

/// An open DRM card node (`/dev/dri/cardN`), as DRM master. Closing it (deinit) drops master and
/// frees every framebuffer and dumb buffer Marquee made on it.
final class DRMDevice {
    let path: String
    let fd: Int32
    /// With `--seat`: the seat that opened the device and its id there, to close it through.
    private let seatDevice: (seat: Seat, id: Int32)?

    private init(path: String, fd: Int32, seatDevice: (Seat, Int32)? = nil) {
        self.path = path
        self.fd = fd
        self.seatDevice = seatDevice
    }

    deinit {
        if let seatDevice { seatDevice.seat.closeDevice(seatDevice.id) }
        close(fd)
    }

    /// Opens `path` for modesetting. The errors say what to do: which group grants access, or
    /// that the node is not a DRM device.
    static func open(_ path: String, seat: Seat? = nil) throws(DisplayError) -> DRMDevice {
        if let seat {
            // The seat manager opens it (and makes Marquee's file DRM master while the seat is
            // active): no permission on the node is needed.
            let (fd, id) = try seat.openDevice(path)
            return try checked(DRMDevice(path: path, fd: fd, seatDevice: (seat, id)))
        }
        let fd: Int32
        switch SystemCall.run({ Glibc.open(path, O_RDWR | O_CLOEXEC) }) {
        case .success(let opened): fd = opened
        case .failure(let code):
            switch code {
            case .permissionDenied, .notPermitted:
                throw DisplayError(
                    .permissionDenied, "cannot open \(path): permission denied. \(AccessAdvice.forDevice(path))",
                    errno: code)
            case .noSuchFile:
                throw DisplayError(.backendUnavailable, "cannot open \(path): no such device", errno: code)
            default:
                throw DisplayError(.backendUnavailable, "cannot open \(path): \(code)", errno: code)
            }
        }
        return try checked(DRMDevice(path: path, fd: fd))
    }

    private static func checked(_ device: DRMDevice) throws(DisplayError) -> DRMDevice {
        let path = device.path
        guard let version = drmGetVersion(device.fd) else {
            throw DisplayError(.backendUnavailable, "\(path) is not a DRM device")
        }
        drmFreeVersion(version)
        return device
    }

    /// The driver's name ("vkms", "vc4", "i915"), for logs.
    var driverName: String {
        guard let version = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        return String(cString: version.pointee.name)
    }

    /// Takes DRM master (the right to set modes and flip). The first client to open an idle card
    /// already is master; otherwise another program holds it and the call fails with EBUSY.
    func becomeMaster() throws(DisplayError) {
        if drmIsMaster(fd) != 0 { return }
        guard case .failure(let code) = SystemCall.run({ drmSetMaster(fd) }) else { return }
        throw DisplayError(
            .deviceBusy,
            "\(path) is in use: another program is its DRM master (a desktop session, a display manager, a compositor or another marquee). Stop that program, or run Marquee on a virtual terminal where no graphical session is active.",
            errno: code)
    }

    func dropMaster() { _ = drmDropMaster(fd) }

    func capability(_ capability: Int32) -> UInt64? {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(capability), &value) == 0 ? value : nil
    }

    func enableClientCapability(_ capability: Int32) -> Bool {
        drmSetClientCap(fd, UInt64(capability), 1) == 0
    }

    /// The card nodes on this machine, in number order (`card0`, `card1`, … `card10`).
    static func cardPaths(in directory: String = "/dev/dri") -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var numbers: [Int] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("card"), let number = Int(name.dropFirst(4)) { numbers.append(number) }
        }
        return numbers.sorted().map { "\(directory)/card\($0)" }
    }
}

/// What to tell a user who may not open a display device.
enum AccessAdvice {
    static func forDevice(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "Run Marquee as a user who may open it." }
        let mode = String(info.st_mode & 0o777, radix: 8)
        guard let group = getgrgid(info.st_gid) else {
            return "It is mode \(mode), group id \(info.st_gid): add the user to that group."
        }
        let name = String(cString: group.pointee.gr_name)
        return
            "It belongs to group '\(name)' (mode \(mode)): add the user to it (sudo usermod -aG \(name) $USER, then log in again), or run Marquee from a seat session that logind grants the device to."
    }
}
