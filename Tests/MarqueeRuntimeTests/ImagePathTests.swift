import Glibc
import MarqueeRuntime
import XCTest

/// Image fields become paths relative to the deck file's folder, and only inside
/// `--restrict-paths` when it is given (the request handed to the image store is resolved).
final class ImagePathTests: XCTestCase {
    func testImagePathsFollowTheDeckAndTheRestriction() throws {
        let root = SessionHarness.scratch + "/images-\(UInt64.random(in: 0..<UInt64.max))"
        mkdir(root, 0o755)
        mkdir(root + "/board", 0o755)
        mkdir(root + "/board/logos", 0o755)
        SessionHarness.writeFile(root + "/board/logos/a.png", "not decoded here")
        SessionHarness.writeFile(root + "/outside.png", "not decoded here")
        let deck = root + "/board/deck.json"

        let open = Session.imagePaths(deckPath: deck, policy: .unrestricted, store: nil)
        XCTAssertEqual(open("logos/a.png"), root + "/board/logos/a.png")
        XCTAssertEqual(open("/elsewhere/b.png"), "/elsewhere/b.png", "absolute paths are taken as they are")

        let restricted = Session.imagePaths(deckPath: deck, policy: try PathPolicy(directory: root + "/board"), store: nil)
        XCTAssertNotNil(restricted("logos/a.png"))
        XCTAssertNil(restricted("../outside.png"), "outside --restrict-paths")
        XCTAssertNil(restricted("/etc/hostname"), "outside --restrict-paths")
        XCTAssertNil(restricted("logos/missing.png"), "a file that is not there")
    }
}
