import CLinux
import Glibc
import MarqueeCore

/// Watches the kernel's uevents for one DRM card: a display plugged in or out (or a TV switched
/// off and on) makes the driver send a `change` uevent of the card (`HOTPLUG=1`), after which the
/// connectors are probed again.
///
/// The kernel's own netlink broadcast is read, not udev's (libudev's monitor): it needs no udev
/// daemon (a minimal image, the VM tests), adds no library, and a DRM hotplug needs nothing udev
/// adds (the card's device node already exists). docs/architecture.md, "Hotplug".
final class UeventMonitor {
    let fd: Int32
    /// "card0": the card whose events count.
    private let cardName: String
    private var buffer = [UInt8](repeating: 0, count: 8192)

    /// Throws when the socket cannot be opened (a kernel without netlink uevents).
    init(devicePath: String) throws(DisplayError) {
        cardName = String(devicePath.split(separator: "/").last ?? "")
        switch SystemCall.run({ marquee_uevent_socket() }) {
        case .success(let socket): fd = socket
        case .failure(let code):
            throw DisplayError(
                .systemCall, "cannot watch for displays plugged in or out (uevent socket): \(code)", errno: code)
        }
    }

    deinit { close(fd) }

    /// Reads every waiting uevent; true when one was a change of the card.
    func takeCardChanges() -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return changed  // EAGAIN: all read (ENOBUFS: some were lost; the probe sees the state anyway)
            }
            if let event = Uevent(buffer[0..<count]), event.isChange(ofCard: cardName) { changed = true }
        }
    }
}

/// One kernel uevent: `ACTION@DEVPATH`, then `KEY=VALUE` strings, each ended by a NUL.
struct Uevent: Equatable {
    var action: String
    var properties: [String: String]

    init?<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: true).map {
            String(decoding: $0, as: UTF8.self)
        }
        // udev's own re-broadcasts start with "libudev"; the kernel's header holds an '@'.
        guard let header = parts.first, header.contains("@") else { return nil }
        var properties: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            properties[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        action = properties["ACTION"] ?? String(header.prefix { $0 != "@" })
        self.properties = properties
    }

    /// A `change` of the DRM card `card` ("card0"): what drivers send on hotplug (with
    /// `HOTPLUG=1`; a `change` written to the card's `uevent` file in sysfs lacks it, and is taken
    /// too: probing again when nothing changed costs little).
    func isChange(ofCard card: String) -> Bool {
        action == "change" && properties["SUBSYSTEM"] == "drm" && properties["DEVNAME"] == "dri/\(card)"
    }
}
