import ArgumentParser
import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

@testable import marquee

/// `marquee compare` exits 2 when an image cannot be read; a FIFO given as either image is such an
/// image (refused as `load`, `--deck` and `--font` refuse one), never a wait for a writer.
final class CompareTests: XCTestCase {
    func testAFIFOAsEitherImageExits2InsteadOfHanging() throws {
        let folder = "/tmp/marquee-compare-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
        let image = folder + "/a.png"
        let fifo = folder + "/cf.png"
        defer {
            unlink(image)
            unlink(fifo)
            rmdir(folder)
        }
        try PNGFile.write(PixelBuffer(width: 4, height: 3), to: image)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertNoThrow(try Compare.parse([image, image]).run(), "the same image matches")
        for arguments in [[image, fifo], [fifo, image]] {
            let status = LockedBox<Int32?>(nil)
            let returned = finishes(within: 10) {
                do {
                    try Compare.parse(arguments).run()
                    status.value = 0
                } catch {
                    status.value = (error as? ExitCode)?.rawValue ?? -1
                }
            }
            if !returned {
                // Lets the hung reader go: a writer opens the FIFO and closes it at once.
                close(open(fifo, O_WRONLY | O_NONBLOCK))
            }
            XCTAssertTrue(returned, "compare \(arguments) returned")
            XCTAssertEqual(status.value, 2, "compare \(arguments)")
        }
    }
}
