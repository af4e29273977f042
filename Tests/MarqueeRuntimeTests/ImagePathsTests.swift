import Foundation
import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Image paths from a deck (relative to the deck's folder, under `--restrict-paths`), check-deck's
/// image problems, and the session's `image-failed` events.
final class ImagePathsTests: XCTestCase {
    var root = ""
    var outside = ""

    override func setUpWithError() throws {
        let base = SessionHarness.scratch + "/images-\(UInt32.random(in: 0...UInt32.max))"
        root = base + "/deck"
        outside = base + "/secret"
        for folder in [base, root, root + "/pictures", outside] { mkdir(folder, 0o755) }
        try writePNG(root + "/pictures/logo.png")
        try writePNG(outside + "/private.png")
        symlink(outside + "/private.png", root + "/pictures/link.png")
        // A PNG cut short: the header is fine, the pixels are missing.
        let whole = try Data(contentsOf: URL(fileURLWithPath: root + "/pictures/logo.png"))
        try whole.prefix(whole.count - 20).write(to: URL(fileURLWithPath: root + "/pictures/broken.png"))
    }

    private func writePNG(_ path: String) throws {
        let buffer = PixelBuffer(width: 8, height: 8)
        buffer.withPixels { $0.update(repeating: 0xFF33_6699) }
        try PNGFile.write(buffer, to: path)
    }

    func testPathsAreTakenFromTheDecksFolder() throws {
        let deck = root + "/board.json"
        XCTAssertEqual(
            try ImagePaths.resolve("pictures/logo.png", deckPath: deck, policy: .unrestricted).get(),
            root + "/pictures/logo.png")
        XCTAssertEqual(try ImagePaths.resolve("/srv/a.png", deckPath: deck, policy: .unrestricted).get(), "/srv/a.png")
        let here = String(cString: getcwd(nil, 0))
        XCTAssertEqual(
            try ImagePaths.resolve("a.png", deckPath: "decks/board.json", policy: .unrestricted).get(),
            here + "/decks/a.png")
        XCTAssertEqual(try ImagePaths.resolve("a.png", deckPath: nil, policy: .unrestricted).get(), here + "/a.png")
        XCTAssertThrowsError(try ImagePaths.resolve("", deckPath: deck, policy: .unrestricted).get())
    }

    func testRestrictPathsCoversImages() throws {
        let policy = try PathPolicy(directory: root)
        let deck = root + "/board.json"
        XCTAssertEqual(
            try ImagePaths.resolve("pictures/../pictures/logo.png", deckPath: deck, policy: policy).get(),
            root + "/pictures/logo.png")
        for escape in ["../secret/private.png", outside + "/private.png", "pictures/link.png"] {
            XCTAssertThrowsError(try ImagePaths.resolve(escape, deckPath: deck, policy: policy).get(), escape) {
                XCTAssertTrue("\($0)".hasSuffix("(--restrict-paths)"), "\($0)")
            }
        }
    }

    func testCheckDeckReportsEachUnusableImageAtItsJSONPath() throws {
        let uses: [(jsonPath: String, value: String)] = [
            ("sections[0].cards[0].fields.logo", "pictures/logo.png"),
            ("sections[0].cards[1].fields.logo", "pictures/missing.png"),
            ("sections[0].cards[2].fields.logo", "pictures/broken.png"),
            ("sections[0].cards[3].fields.logo", "pictures"),
            ("sections[0].cards[4].fields.logo", "pictures/broken.png"),
            ("sections[1].cards[0].fields.photo", "../secret/private.png"),
        ]
        let problems = ImagePaths.problems(
            uses, deckPath: root + "/board.json", policy: try PathPolicy(directory: root))
        XCTAssertEqual(
            problems.map(\.path),
            [
                "sections[0].cards[1].fields.logo", "sections[0].cards[2].fields.logo",
                "sections[0].cards[3].fields.logo", "sections[0].cards[4].fields.logo",
                "sections[1].cards[0].fields.photo",
            ])
        XCTAssertTrue(problems[0].message.contains("No such file or directory"), problems[0].message)
        XCTAssertTrue(problems[1].message.hasPrefix("image pictures/broken.png: corrupt PNG"), problems[1].message)
        XCTAssertEqual(problems[2].message, "image pictures: it is a directory, not a regular file")
        XCTAssertEqual(problems[3].message, problems[1].message)
        XCTAssertTrue(problems[4].message.hasSuffix("(--restrict-paths)"), problems[4].message)
        let tight = ImagePaths.problems(
            [("logo", "pictures/logo.png")], deckPath: root + "/board.json", maximumPixels: 63)
        XCTAssertEqual(
            tight.map(\.message), ["image pictures/logo.png: 8x8 is 64 pixels, more than the 63 of --image-max-pixels"])
    }

    /// The session turns each failing file into one `image-failed` event on its output, however
    /// many requests name it.
    func testSessionEmitsOneImageFailedEventPerFile() throws {
        let name = "\(SessionHarness.scratch)/images-run-\(UInt32.random(in: 0...UInt32.max))"
        SessionHarness.writeFile(name + ".in", "wait 0.1\n")
        let input = open(name + ".in", O_RDONLY)
        let output = open(name + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer {
            close(input)
            close(output)
        }
        var options = RunOptions()
        options.backend = .software
        options.size = PixelSize(width: 320, height: 240)
        options.inputDescriptor = input
        options.outputDescriptor = output
        options.imageCacheMegabytes = 1
        let session = try Session(options: options)
        XCTAssertEqual(session.images.limits.cacheBytes, 1 << 20)
        let missing = root + "/pictures/missing.png"
        let broken = root + "/pictures/broken.png"
        for path in [missing, broken, missing] {
            for width in [40, 80] {
                _ = session.images.image(for: ImageRequest(path: path, width: width, height: 30, fit: .cover), now: 0)
            }
        }
        // Both files have failed before the loop starts (so its first poll sees the wake-up).
        var descriptor = pollfd(fd: session.images.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(20)
        while !failed(session, [missing, broken]) {
            XCTAssertLessThan(Date(), deadline)
            if Date() > deadline { break }
            _ = poll(&descriptor, 1, 50)
        }
        XCTAssertEqual(try session.run(), 0)
        let lines = try SessionHarness.jsonLines(SessionHarness.readFile(name + ".out"))
        let events = lines.filter { $0["event"]?.string == "image-failed" }
        XCTAssertEqual(events.compactMap { $0["path"]?.string }.sorted(), [broken, missing])
        XCTAssertTrue(
            events.first { $0["path"]?.string == missing }?["error"]?.string == "No such file or directory", "\(events)"
        )
        XCTAssertEqual(lines.filter { $0["seq"] != nil }.count, 1, "the wait's reply")
    }

    private func failed(_ session: Session, _ paths: [String]) -> Bool {
        paths.allSatisfy { path in
            if case .failed = session.images.image(
                for: ImageRequest(path: path, width: 40, height: 30, fit: .cover), now: 0)
            {
                true
            } else {
                false
            }
        }
    }
}
