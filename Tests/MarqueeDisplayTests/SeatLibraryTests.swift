import Glibc
import XCTest

@testable import MarqueeDisplay

/// `--seat` opens libseat at run time: where it is missing the error names the package, and where
/// it is installed every function Marquee calls is found.
final class SeatLibraryTests: XCTestCase {
    override func tearDown() { unsetenv(SeatLibrary.overrideVariable) }

    func testWithoutLibseatDRMWithSeatSaysWhatToInstall() {
        // dlopen of a name no library has fails as it does where libseat1 is not installed.
        setenv(SeatLibrary.overrideVariable, "libseat-absent-for-marquee-tests.so.1", 1)
        var options = DRMOptions()
        options.seat = true
        options.devicePath = "/dev/null"
        XCTAssertThrowsError(try DRMBackend(options: options, log: { _ in })) { error in
            let message = (error as? DisplayError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("--seat needs libseat"), message)
            XCTAssertTrue(message.contains("apt-get install libseat1"), message)
            XCTAssertTrue(message.contains("libseat-absent-for-marquee-tests.so.1"), "dlopen's reason: \(message)")
        }
    }

    func testInstalledLibseatHasEveryFunction() throws {
        guard let probe = dlopen(SeatLibrary.soname, RTLD_LAZY) else {
            throw XCTSkip("libseat1 is not installed")
        }
        dlclose(probe)
        XCTAssertNoThrow(try SeatLibrary())
    }
}
