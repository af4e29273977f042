import Glibc
import XCTest

/// `marquee run`'s exit status tells a service manager or a monitor why it stopped: a setting that
/// will fail the same way every time, a backend missing from the machine, a device the user may not
/// open, or a failure that another start may not meet (docs/deployment.md, "Exit statuses"). The
/// display-only causes (no display connected, another DRM master, a mode the display does not
/// offer) are checked on real drivers by the VM suite.
final class ExitStatusTests: XCTestCase, SpawnsMarquee {
    private var folder = ""

    override func setUp() {
        folder = SessionHarness.scratch + "/exit-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
    }

    private func status(_ arguments: [String], runner: [String] = []) throws -> (status: Int32?, log: String) {
        let log = folder + "/\(UInt32.random(in: 0...UInt32.max)).log"
        let running = try start(["run"] + arguments, stderrPath: log, runner: runner)
        close(running.input)
        defer { close(running.output) }
        return (exitStatus(running), SessionHarness.readFile(log))
    }

    func testAMissingBackendDeviceIsUnavailable() throws {
        let drm = try status(["--backend", "drm", "--device", folder + "/card9"])
        XCTAssertEqual(drm.status, 69, "EX_UNAVAILABLE: \(drm.log)")
        XCTAssertTrue(drm.log.contains("cannot open \(folder)/card9"), drm.log)
        let notFramebuffer = try status(["--backend", "fbdev", "--device", "/dev/null"])
        XCTAssertEqual(notFramebuffer.status, 69, notFramebuffer.log)
        XCTAssertTrue(notFramebuffer.log.contains("not a framebuffer device"), notFramebuffer.log)
    }

    func testADeviceTheUserMayNotOpenIsNoPermission() throws {
        guard getuid() == 0, access("/usr/bin/setpriv", X_OK) == 0 else {
            throw XCTSkip("needs root and setpriv to run the binary as another user")
        }
        // A character device only root may open, with /dev/dri/card0's numbers (226, 0): `nobody`
        // is refused at open(), before the kernel looks for a driver.
        let device = folder + "/card0"
        let cardZero = dev_t(226 << 8)  // glibc's makedev for a major under 4096 and minor 0
        guard mknod(device, S_IFCHR | 0o600, cardZero) == 0 else {
            throw XCTSkip("cannot make a device node here (\(String(cString: strerror(errno))))")
        }
        chmod(folder, 0o755)
        let refused = try status(
            ["--backend", "drm", "--device", device],
            runner: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        XCTAssertEqual(refused.status, 77, "EX_NOPERM: \(refused.log)")
        XCTAssertTrue(refused.log.contains("permission denied"), refused.log)
    }

    func testABadFlagIsAUsageError() throws {
        let bad = try status(["--rotate", "7"])
        XCTAssertEqual(bad.status, 64, "EX_USAGE, from the argument parser: \(bad.log)")
    }

    func testADeckThatCannotBeReadIsAPlainFailure() throws {
        let missing = try status(["--backend", "software", "--deck", folder + "/none.json"])
        XCTAssertEqual(missing.status, 1, missing.log)
        XCTAssertTrue(missing.log.contains("No such file or directory"), missing.log)
    }
}
