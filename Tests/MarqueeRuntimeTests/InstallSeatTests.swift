import Glibc
import XCTest

/// `deploy/install.sh --seat` under a scratch root: the two drop-ins that start seatd for the
/// marquee group and give the unit `--seat`, removed again by an install without `--seat` and by
/// `--uninstall`.
/// (An extension, so the install helpers of `InstallScriptTests` are the ones used.)
extension InstallScriptTests {
    private var marqueeDropIn: String { "/etc/systemd/system/marquee.service.d/seat.conf" }
    private var seatdDropIn: String { "/etc/systemd/system/seatd.service.d/marquee.conf" }

    func testSeatInstallsTheDropInsAndAPlainInstallRemovesThem() throws {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        let root = "/tmp/marquee-install-seat-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        XCTAssertEqual(install("--root \(root) --seat --binary \(binary)"), 0)
        XCTAssertTrue(exists(root + marqueeDropIn))
        XCTAssertTrue(exists(root + seatdDropIn))
        // The drop-in's variable is one the unit's command line passes on.
        XCTAssertTrue(contents(of: root + marqueeDropIn).contains("Environment=MARQUEE_SEAT=--seat"))
        XCTAssertTrue(contents(of: root + marqueeDropIn).contains("Requires=seatd.service"))
        let unit = contents(of: root + "/etc/systemd/system/marquee.service")
        XCTAssertTrue(unit.contains("run $MARQUEE_BACKEND $MARQUEE_SEAT --deck"), unit)
        // seatd's own ExecStart is cleared before the one for the marquee group.
        let seatd = contents(of: root + seatdDropIn)
        XCTAssertTrue(seatd.contains("ExecStart=\nExecStart=/usr/sbin/seatd -g marquee"), seatd)

        XCTAssertEqual(install("--root \(root) --binary \(binary)"), 0)
        XCTAssertFalse(exists(root + marqueeDropIn), "an install without --seat goes back to the video group")
        XCTAssertFalse(exists(root + seatdDropIn))

        XCTAssertEqual(install("--root \(root) --seat --binary \(binary)"), 0)
        XCTAssertEqual(install("--root \(root) --uninstall"), 0)
        XCTAssertFalse(exists(root + marqueeDropIn))
        XCTAssertFalse(exists(root + seatdDropIn))
        XCTAssertFalse(exists(root + "/etc/systemd/system/marquee.service.d"))
    }
}
