import XCTest

@testable import MarqueeDisplay

/// Kernel uevents as the netlink socket delivers them: which ones make Marquee probe its card's
/// connectors again.
final class UeventTests: XCTestCase {
    func message(_ parts: [String]) -> [UInt8] { parts.flatMap { Array($0.utf8) + [0] } }

    func testADRMHotplugOfTheCardIsAChange() throws {
        // What drm_sysfs_hotplug_event sends (drivers/gpu/drm/drm_sysfs.c).
        let bytes = message([
            "change@/devices/platform/vkms/drm/card0", "ACTION=change", "DEVPATH=/devices/platform/vkms/drm/card0",
            "SUBSYSTEM=drm", "HOTPLUG=1", "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=1234", "MAJOR=226",
            "MINOR=0",
        ])
        let event = try XCTUnwrap(Uevent(bytes))
        XCTAssertEqual(event.action, "change")
        XCTAssertEqual(event.properties["HOTPLUG"], "1")
        XCTAssertTrue(event.isChange(ofCard: "card0"))
        XCTAssertFalse(event.isChange(ofCard: "card1"), "another card's hotplug is not ours")
    }

    func testOtherEventsAreNotChangesOfTheCard() throws {
        let render = message([
            "change@/devices/x/drm/renderD128", "ACTION=change", "SUBSYSTEM=drm", "DEVNAME=dri/renderD128",
        ])
        XCTAssertFalse(try XCTUnwrap(Uevent(render)).isChange(ofCard: "card0"))
        let added = message(["add@/devices/x/drm/card0", "ACTION=add", "SUBSYSTEM=drm", "DEVNAME=dri/card0"])
        XCTAssertFalse(try XCTUnwrap(Uevent(added)).isChange(ofCard: "card0"))
        let usb = message(["change@/devices/usb1", "ACTION=change", "SUBSYSTEM=usb", "DEVNAME=bus/usb/001/001"])
        XCTAssertFalse(try XCTUnwrap(Uevent(usb)).isChange(ofCard: "card0"))
        // udev's re-broadcasts (another multicast group, a binary header) are not kernel events.
        XCTAssertNil(Uevent(Array("libudev".utf8) + [0, 0xfe, 0xed, 0xca, 0xfe]))
        XCTAssertNil(Uevent([UInt8]()))
    }

    func testTheActionComesFromTheHeaderWhenNoPropertySaysIt() throws {
        let event = try XCTUnwrap(
            Uevent(message(["change@/devices/x/drm/card1", "SUBSYSTEM=drm", "DEVNAME=dri/card1"])))
        XCTAssertTrue(event.isChange(ofCard: "card1"))
    }
}
