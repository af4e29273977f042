import ArgumentParser
import Glibc
import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

@testable import marquee

/// An output flag naming one of the command's inputs (the path itself, `./` before it, a symlink
/// or a hard link to it) is refused with exit status 64 before anything is written: the golden
/// image and the deck stay as they were.
final class OutputPathTests: XCTestCase {
    private var folder = ""

    override func setUp() {
        folder = "/tmp/marquee-outputs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
    }

    override func tearDown() {
        for name in [
            "golden.png", "now.png", "link.png", "hard.png", "board.json", "font.ttf", "out.png", "t.jsonl", "fifo.png",
            "null.png", "t.HDMI-A-2.jsonl", "t.DP-1.jsonl", "ca.pem",
        ] {
            unlink("\(folder)/\(name)")
        }
        rmdir(folder)
    }

    private func refusal(_ arguments: [String]) -> (status: Int32, message: String) {
        do {
            _ = try Marquee.parseAsRoot(arguments)
            return (0, "")
        } catch {
            return (Marquee.exitCode(for: error).rawValue, Marquee.message(for: error))
        }
    }

    private func bytes(_ path: String) -> [UInt8] { Array(TestFiles.read(path).utf8) }

    func testCompareRefusesADiffThatIsOneOfItsImages() throws {
        let golden = folder + "/golden.png"
        let now = folder + "/now.png"
        let red = PixelBuffer(width: 10, height: 10)
        red.withPixels { for index in $0.indices { $0[index] = 0xFFFF_0000 } }
        try PNGFile.write(red, to: golden)
        red.withPixels { for index in $0.indices { $0[index] = 0xFFFA_0000 } }
        try PNGFile.write(red, to: now)
        symlink(golden, folder + "/link.png")
        link(now, folder + "/hard.png")
        let before = bytes(golden)
        for diff in [golden, folder + "/./golden.png", folder + "/link.png"] {
            let (status, message) = refusal(["compare", golden, now, "--diff", diff])
            XCTAssertEqual(status, 64, diff)
            XCTAssertTrue(message.contains("--diff \(diff) is the expected image"), message)
        }
        let (status, message) = refusal(["compare", golden, now, "--diff", folder + "/hard.png"])
        XCTAssertEqual(status, 64)
        XCTAssertTrue(message.contains("is the image to check (\(now))"), message)
        XCTAssertEqual(bytes(golden), before, "the golden image untouched")
        XCTAssertEqual(
            refusal(["compare", golden, now, "--diff", folder + "/out.png"]).status, 0, "a new file is fine")
    }

    /// The diff is written by renaming a new file over its path: a FIFO or a device (through a
    /// symlink too; as root `/dev/null` itself) would be replaced by a PNG.
    func testCompareRefusesADiffThatIsNotARegularFile() throws {
        let golden = folder + "/golden.png"
        let now = folder + "/now.png"
        let red = PixelBuffer(width: 4, height: 4)
        try PNGFile.write(red, to: golden)
        try PNGFile.write(red, to: now)
        mkfifo(folder + "/fifo.png", 0o644)
        symlink("/dev/null", folder + "/null.png")
        for (diff, what) in [
            (folder + "/fifo.png", "a FIFO"), (folder + "/null.png", "a character device"), (folder, "a directory"),
        ] {
            let (status, message) = refusal(["compare", golden, now, "--diff", diff])
            XCTAssertEqual(status, 64, diff)
            XCTAssertTrue(message.contains("--diff \(diff) is \(what)"), message)
        }
        var status = stat()
        XCTAssertEqual(lstat(folder + "/fifo.png", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the FIFO stays")
    }

    func testRunRefusesATraceThatIsTheDeckOrTheFont() throws {
        let deck = folder + "/board.json"
        TestFiles.write(deck, #"{"sections": []}"#)
        TestFiles.write(folder + "/font.ttf", "not read here")
        for (flags, what) in [
            (["--deck", deck, "--trace", deck], "the --deck file"),
            (
                ["--deck", deck, "--trace", folder + "/../\(folder.split(separator: "/").last!)/board.json"],
                "the --deck file"
            ),
            (["--font", folder + "/font.ttf", "--trace", folder + "/font.ttf"], "the --font file"),
        ] {
            let (status, message) = refusal(["run", "--backend", "software"] + flags)
            XCTAssertEqual(status, 64, "\(flags)")
            XCTAssertTrue(message.contains(what), message)
        }
        XCTAssertEqual(TestFiles.read(deck), #"{"sections": []}"#)
        XCTAssertEqual(
            refusal(["run", "--backend", "software", "--deck", deck, "--trace", folder + "/t.jsonl"]).status, 0)
    }

    /// With several `--connector` each further output is traced beside `--trace`'s file, its
    /// connector before the extension: that file naming the `--deck`, `--font` or an MQTT file (by
    /// a symlink too) is refused with exit status 64, naming it and why, and the file is unchanged.
    func testRunRefusesAFurtherOutputsTraceThatIsAnInput() throws {
        let trace = folder + "/t.jsonl"
        let deck = folder + "/t.HDMI-A-2.jsonl"
        TestFiles.write(deck, #"{"sections": []}"#)
        TestFiles.write(folder + "/ca.pem", "CA")
        symlink(folder + "/ca.pem", folder + "/t.DP-1.jsonl")
        let drm = ["run", "--backend", "drm", "--trace", trace, "--connector", "HDMI-A-1"]
        for (flags, derived, what) in [
            (["--connector", "HDMI-A-2", "--deck", deck], deck, "the --deck file"),
            (["--connector", "HDMI-A-2", "--font", deck], deck, "the --font file"),
            (
                [
                    "--connector", "HDMI-A-2", "--connector", "DP-1", "--mqtt", "mqtts://broker", "--mqtt-topic",
                    "kiosk/1", "--mqtt-ca",
                    folder + "/ca.pem",
                ],
                folder + "/t.DP-1.jsonl", "the --mqtt-ca file (\(folder)/ca.pem)"
            ),
        ] {
            let (status, message) = refusal(drm + flags)
            XCTAssertEqual(status, 64, "\(flags)")
            let output = derived.split(separator: ".").dropLast().last!
            XCTAssertTrue(
                message.contains(
                    "--trace \(trace): output \(output) is traced to \(derived), which is \(what): writing it would replace it; name another --trace file"
                ), message)
        }
        XCTAssertEqual(TestFiles.read(deck), #"{"sections": []}"#)
        XCTAssertEqual(TestFiles.read(folder + "/ca.pem"), "CA")
        XCTAssertEqual(
            refusal(drm + ["--connector", "DSI-1", "--deck", deck]).status, 0, "another connector's trace is fine")
    }
}
