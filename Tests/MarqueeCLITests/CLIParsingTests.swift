import ArgumentParser
import Foundation
import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol
import MarqueeRuntime
import XCTest

@testable import marquee

final class CLIParsingTests: XCTestCase {
    func testRunIsTheDefaultSubcommand() throws {
        let command = try Marquee.parseAsRoot([])
        XCTAssertTrue(command is Run)
        let explicit = try Marquee.parseAsRoot(["--size", "800x600"])
        XCTAssertEqual((explicit as? Run)?.options.size, PixelSize(width: 800, height: 600))
    }

    func testRunOptions() throws {
        let run = try XCTUnwrap(
            Marquee.parseAsRoot([
                "run", "--backend", "software", "--deck", "d.json", "--size", "1920x1080", "--refresh", "50",
                "--realtime",
                "--max-fps", "30", "--font", "/f.ttf", "--trace", "/t.jsonl", "--exit-on-eof",
            ]) as? Run)
        let options = run.options
        XCTAssertEqual(options.backend, .software)
        XCTAssertEqual(options.deckPath, "d.json")
        XCTAssertEqual(options.size, PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(options.refreshRate, 50)
        XCTAssertTrue(options.realtime)
        XCTAssertEqual(options.maximumFramesPerSecond, 30)
        XCTAssertEqual(options.fontPath, "/f.ttf")
        XCTAssertEqual(options.tracePath, "/t.jsonl")
        XCTAssertTrue(options.exitOnEndOfInput)
    }

    func testDefaults() throws {
        let options = try XCTUnwrap(Marquee.parseAsRoot(["run"]) as? Run).options
        XCTAssertEqual(options.backend, .auto)
        XCTAssertEqual(options.size, PixelSize(width: 1280, height: 720))
        XCTAssertEqual(options.refreshRate, 60)
        XCTAssertFalse(options.realtime)
        XCTAssertNil(options.deckPath)
    }

    func testBadValuesAreRejectedWithAMessage() {
        for arguments in [
            ["run", "--size", "1280"], ["run", "--size", "0x10"], ["run", "--size", "axb"], ["run", "--refresh", "0"],
            ["run", "--backend", "x11"], ["run", "--max-fps", "-5"], ["bench", "--frames", "0"], ["check-deck"],
        ] {
            XCTAssertThrowsError(try Marquee.parseAsRoot(arguments), "\(arguments)") { error in
                XCTAssertFalse(Marquee.message(for: error).isEmpty)
            }
        }
        XCTAssertTrue(
            Marquee.message(for: catchError { try Marquee.parseAsRoot(["run", "--size", "big"]) }).contains("WxH"))
    }

    /// A negative number after an option is its value, not another option: the message is the
    /// option's own range, as with `--size=-5x10` (it was "Missing value for '--size <size>'").
    func testNegativeValuesGetTheOptionsOwnMessage() {
        let cases: [([String], String)] = [
            (
                ["run", "--size", "-5x10"],
                #"--size must be WxH with each side from 1 to 16384, for example 1280x720 (got "-5x10")"#
            ),
            (["run", "--rotate", "-90"], "--rotate must be 0, 90, 180 or 270 (got -90)"),
            (["run", "--max-fps", "-1"], "--max-fps must be from 1 to 1000 (got -1.0)"),
            (["run", "--refresh", "-3"], "--refresh must be a rate from 1 to 1000 Hz (got -3.0)"),
            (["run", "--max-clients", "-1"], "--max-clients must be from 1 to 4096 (got -1)"),
            (["run", "--image-cache", "-1"], "--image-cache must be from 1 to 65536 MiB (got -1)"),
            (
                ["run", "--mode", "-5x10"],
                #"--mode must be WxH or WxH@HZ, for example 1920x1080 or 1920x1080@60 (got "-5x10")"#
            ),
            (["bench", "--frames", "-1"], "--frames must be from 1 to 100000"),
            (["compare", "a.png", "b.png", "--tolerance", "-1"], "--tolerance must be from 0 to 255"),
        ]
        for (arguments, expected) in cases {
            let message = Marquee.message(for: catchError { try Marquee.parseAsRoot(arguments) })
            XCTAssertTrue(message.hasPrefix(expected), "\(arguments): \(message)")
            XCTAssertEqual(
                Marquee.message(
                    for: catchError { try Marquee.parseAsRoot([arguments[0]] + Self.joined(arguments.dropFirst())) }),
                message, "the same as with \"=\"")
        }
    }

    /// `--size -5x10` written as `--size=-5x10`.
    static func joined(_ arguments: ArraySlice<String>) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            if arguments[index].hasPrefix("--"), index + 1 < arguments.endIndex, arguments[index + 1].hasPrefix("-") {
                result.append(arguments[index] + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(arguments[index])
                index += 1
            }
        }
        return result
    }

    func testSubcommands() throws {
        XCTAssertEqual((try Marquee.parseAsRoot(["check-deck", "x.json"]) as? CheckDeck)?.file, "x.json")
        let bench = try XCTUnwrap(Marquee.parseAsRoot(["bench", "--frames", "10", "--json"]) as? Bench)
        XCTAssertEqual(bench.frames, 10)
        XCTAssertTrue(bench.json)
        XCTAssertTrue(
            try XCTUnwrap(Marquee.parseAsRoot(["bench", "--json", "--frame-times"]) as? Bench).frameTimes)
        XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--frame-times"]), "--frame-times needs --json")
        let sizes = try XCTUnwrap(
            Marquee.parseAsRoot(["bench", "--cards", "100,1000000", "--scroll-to-card", "50"]) as? Bench)
        XCTAssertEqual(sizes.cardCounts, [100, 1_000_000])
        XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--cards", "100,x"]))
        XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--cards", "100", "--scroll-to-card", "100"]))
        XCTAssertEqual(try XCTUnwrap(Marquee.parseAsRoot(["bench"]) as? Bench).scene, .cards1080p)
        for scene in BenchScene.allCases {
            XCTAssertEqual(
                try XCTUnwrap(Marquee.parseAsRoot(["bench", "--scene", scene.rawValue]) as? Bench).scene, scene)
        }
        XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--scene", "cards-4k"]))
        for scene in ["transitions-1080p", "update-1080p"] {
            XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--scene", scene, "--scroll-to-card", "3"]), scene)
        }
    }

    /// `--band-rows` takes row counts of at least 1, every one of them, and only with `--scanout`;
    /// `--scanout-path` only with `--scanout`.
    func testBandRowsAndScanoutPath() throws {
        let bench = try XCTUnwrap(Marquee.parseAsRoot(["bench", "--scanout", "--band-rows", "32,128"]) as? Bench)
        XCTAssertEqual(bench.bandHeights, [32, 128])
        for rows in ["0", "abc", "64,,32", "32,", "-8"] {
            XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--scanout", "--band-rows", rows]), rows)
        }
        XCTAssertThrowsError(try Marquee.parseAsRoot(["bench", "--band-rows", "32"]), "--band-rows needs --scanout")
        XCTAssertThrowsError(
            try Marquee.parseAsRoot(["bench", "--scanout-path", "rotate 0 XRGB8888"]), "--scanout-path needs --scanout")
        XCTAssertEqual(
            try XCTUnwrap(
                Marquee.parseAsRoot(["bench", "--scanout", "--scanout-path", "shadow rotate 90 RGB565"]) as? Bench
            ).scanoutPath, "shadow rotate 90 RGB565")
    }

    func testBenchScenes() {
        XCTAssertEqual(BenchScene.cards1080p.defaultFrames, 120, "SPEC §10: 2 s at 60 Hz")
        XCTAssertEqual(BenchScene.transitions1080p.defaultFrames, 21, "0.35 s at 60 Hz")
        XCTAssertEqual(BenchScene.cardsSPI.defaultSize, PixelSize(width: 480, height: 320))
        XCTAssertEqual(BenchScene.cards1080pSlow.defaultSize, PixelSize(width: 1920, height: 1080))
    }

    func testSendAndControlSocket() throws {
        let send = try XCTUnwrap(
            Marquee.parseAsRoot(["send", "--socket", "/tmp/m.sock", "scroll-to end", "wait idle"]) as? Send)
        XCTAssertEqual(send.socket, "/tmp/m.sock")
        XCTAssertEqual(send.commands, ["scroll-to end", "wait idle"])
        XCTAssertThrowsError(try Marquee.parseAsRoot(["send", "quit\nquit"]), "one line per COMMAND")
        let run = try XCTUnwrap(
            Marquee.parseAsRoot(["run", "--control-socket", "/tmp/m.sock", "--restrict-paths", "/srv"]) as? Run)
        XCTAssertEqual(run.options.controlSocket, "/tmp/m.sock")
        XCTAssertEqual(run.options.restrictPaths, "/srv")
    }

    func testImageOptions() throws {
        let defaults = try XCTUnwrap(Marquee.parseAsRoot(["run"]) as? Run).options
        XCTAssertEqual(defaults.imageLimits.cacheBytes, 64 << 20)
        XCTAssertEqual(defaults.imageLimits.maximumPixels, 40_000_000)
        let run = try XCTUnwrap(
            Marquee.parseAsRoot(["run", "--image-cache", "16", "--image-max-pixels", "2000000"]) as? Run)
        XCTAssertEqual(run.options.imageLimits.cacheBytes, 16 << 20)
        XCTAssertEqual(run.options.imageLimits.maximumPixels, 2_000_000)
        for arguments in [["--image-cache", "0"], ["--image-cache", "x"], ["--image-max-pixels", "0"]] {
            XCTAssertThrowsError(try Marquee.parseAsRoot(["run"] + arguments), "\(arguments)")
        }
    }

    func testDisplayOptions() throws {
        let run = try XCTUnwrap(
            Marquee.parseAsRoot([
                "run", "--backend", "drm", "--device", "/dev/dri/card1", "--connector", "HDMI-A-2", "--mode",
                "1920x1080@59.94", "--rotate", "270", "--no-atomic", "--wait-for-display", "--seat",
            ]) as? Run)
        let options = run.options
        XCTAssertEqual(options.devicePath, "/dev/dri/card1")
        XCTAssertEqual(options.connector, "HDMI-A-2")
        XCTAssertEqual(options.mode, ModeRequest(width: 1920, height: 1080, refresh: 59.94))
        XCTAssertEqual(options.rotation, .threeQuarters)
        XCTAssertTrue(options.forceLegacyModesetting)
        XCTAssertTrue(options.waitForDisplay)
        XCTAssertTrue(options.seat)
        XCTAssertTrue(options.rotationIsExplicit)
        let defaults = try XCTUnwrap(Marquee.parseAsRoot(["run"]) as? Run).options
        XCTAssertEqual(defaults.rotation, .none)
        XCTAssertFalse(defaults.rotationIsExplicit, "without --rotate a DRM panel's own orientation applies")
        XCTAssertFalse(defaults.waitForDisplay)
        XCTAssertFalse(defaults.seat, "without --seat the device is opened directly")
        XCTAssertTrue(
            try XCTUnwrap(Marquee.parseAsRoot(["run", "--rotate", "0"]) as? Run).options.rotationIsExplicit,
            "--rotate 0 overrides a panel's orientation too")
        XCTAssertNil(defaults.mode)
        XCTAssertFalse(defaults.forceLegacyModesetting)
        // The rotation applies to the software backend too.
        XCTAssertEqual(
            try XCTUnwrap(Marquee.parseAsRoot(["run", "--backend", "software", "--rotate", "90"]) as? Run).options
                .rotation, .quarter)
    }

    func testSeveralConnectorsEachWithItsModeAndRotation() throws {
        let paired = try XCTUnwrap(
            Marquee.parseAsRoot([
                "run", "--backend", "drm", "--connector", "HDMI-A-1", "--rotate", "0", "--mode", "1920x1080",
                "--connector", "HDMI-A-2", "--rotate", "90", "--mode", "1280x720@50",
            ]) as? Run
        ).options
        XCTAssertEqual(paired.connector, "HDMI-A-1")
        XCTAssertEqual(paired.mode, ModeRequest(width: 1920, height: 1080, refresh: nil))
        XCTAssertEqual(paired.rotation, .none)
        XCTAssertTrue(paired.rotationIsExplicit)
        XCTAssertEqual(
            paired.furtherOutputs,
            [
                DRMOutputRequest(
                    connector: "HDMI-A-2", mode: ModeRequest(width: 1280, height: 720, refresh: 50), rotation: .quarter)
            ])
        // Given once, --mode and --rotate apply to every output; not given, each panel's own.
        let shared = try XCTUnwrap(
            Marquee.parseAsRoot(["run", "--connector", "DSI-1", "--connector", "HDMI-A-1", "--rotate", "180"]) as? Run
        ).options
        XCTAssertEqual(shared.rotation, .half)
        XCTAssertEqual(shared.furtherOutputs, [DRMOutputRequest(connector: "HDMI-A-1", mode: nil, rotation: .half)])
        let own = try XCTUnwrap(
            Marquee.parseAsRoot(["run", "--connector", "DSI-1", "--connector", "HDMI-A-1"]) as? Run
        )
        .options
        XCTAssertFalse(own.rotationIsExplicit)
        XCTAssertEqual(own.furtherOutputs, [DRMOutputRequest(connector: "HDMI-A-1", mode: nil, rotation: nil)])
        XCTAssertEqual(
            try XCTUnwrap(Marquee.parseAsRoot(["run", "--connector", "HDMI-A-1"]) as? Run).options.furtherOutputs, [])
    }

    func testSeveralConnectorsThatCannotBePairedAreRefused() {
        let cases: [([String], String)] = [
            (
                ["run", "--connector", "A", "--connector", "B", "--connector", "C", "--rotate", "90", "--rotate", "0"],
                "--rotate is given 2 times for 3 --connector"
            ),
            (
                ["run", "--connector", "A", "--connector", "B", "--mode", "1x1", "--mode", "2x2", "--mode", "3x3"],
                "--mode is given 3 times for 2 --connector"
            ),
            (
                ["run", "--mode", "800x600", "--mode", "640x480"],
                "--mode is given more than once, but there is no --connector"
            ),
            (["run", "--connector", "A", "--rotate", "90", "--rotate", "0"], "there is one --connector"),
            (["run", "--connector", "HDMI-A-1", "--connector", "hdmi-a-1"], "--connector hdmi-a-1 is given twice"),
            (
                ["run", "--connector", "A", "--connector", "B", "--rotate", "45", "--rotate", "0"],
                "--rotate must be 0, 90, 180 or 270 (got 45)"
            ),
            (
                ["run", "--backend", "fbdev", "--connector", "A", "--connector", "B"],
                "several --connector are for the DRM backend (got --backend fbdev)"
            ),
        ]
        for (arguments, expected) in cases {
            let message = Marquee.message(for: catchError { try Marquee.parseAsRoot(arguments) })
            XCTAssertTrue(message.contains(expected), "\(arguments): \(message)")
        }
    }

    func testDisplayOptionsThatCannotApplyAreRefused() {
        let cases: [([String], String)] = [
            (["run", "--rotate", "45"], "--rotate must be 0, 90, 180 or 270"),
            (["run", "--mode", "1920"], "--mode must be WxH or WxH@HZ"),
            (["run", "--mode", "1920x1080@0"], "--mode must be WxH or WxH@HZ"),
            (["run", "--backend", "software", "--mode", "800x600"], "--mode is for the DRM backend"),
            (["run", "--backend", "fbdev", "--connector", "HDMI-A-1"], "--connector is for the DRM backend"),
            (["run", "--backend", "software", "--no-atomic"], "--no-atomic is for the DRM backend"),
            (["run", "--backend", "software", "--wait-for-display"], "--wait-for-display is for the DRM backend"),
            (["run", "--backend", "fbdev", "--seat"], "--seat is for the DRM backend"),
            (["run", "--backend", "window", "--seat"], "--seat does not apply to --backend window"),
            (["run", "--backend", "software", "--device", "/dev/fb0"], "the software backend draws into memory"),
            (["run", "--backend", "drm", "--size", "800x600"], "--size is for the software backend"),
            (["run", "--backend", "fbdev", "--refresh", "50"], "--refresh is for the software backend"),
            (["run", "--backend", "drm", "--realtime"], "--realtime is for the software backend"),
            (["run", "--backend", "window", "--rotate", "90"], "--rotate does not apply to --backend window"),
            (["run", "--backend", "window", "--refresh", "50"], "--refresh does not apply to --backend window"),
            (["run", "--backend", "window", "--device", "/dev/fb0"], "--device does not apply to --backend window"),
            (["run", "--watch"], "--watch reloads the --deck file"),
        ]
        for (arguments, expected) in cases {
            let message = Marquee.message(for: catchError { try Marquee.parseAsRoot(arguments) })
            XCTAssertTrue(message.contains(expected), "\(arguments): \(message)")
        }
    }

    func testCompareOptions() throws {
        let compare = try XCTUnwrap(
            Marquee.parseAsRoot(["compare", "a.png", "b.png", "--tolerance", "8", "--max-differing", "0.2"]) as? Compare
        )
        XCTAssertEqual(compare.expected, "a.png")
        XCTAssertEqual(compare.tolerance, 8)
        XCTAssertEqual(compare.maxDiffering, 0.2)
        XCTAssertThrowsError(try Marquee.parseAsRoot(["compare", "a.png", "b.png", "--tolerance", "300"]))
    }

    func testHelpNamesEveryOption() {
        let help = Marquee.helpMessage(for: Run.self)
        for option in [
            "--backend", "--deck", "--size", "--refresh", "--realtime", "--max-fps", "--font", "--trace",
            "--exit-on-eof", "--device", "--connector", "--mode", "--rotate", "--no-atomic", "--wait-for-display",
            "--seat", "--watch",
            "--image-cache", "--image-max-pixels",
        ] {
            XCTAssertTrue(help.contains(option), option)
        }
        XCTAssertTrue(help.contains("scroll-to TARGET"))
        XCTAssertTrue(help.contains("software or window"))
    }

    /// `run --help` lists every command the protocol has, and docs/protocol.md has a heading for
    /// each: the parser's list is the reference (the help once lacked `apply`, `replace`, `play`,
    /// `pause`, `resume`, `stop` and `alert-clear`).
    func testHelpAndProtocolDocumentNameEveryCommand() throws {
        let help = Marquee.helpMessage(for: Run.self)
        let block = try XCTUnwrap(help.range(of: "Commands").map { String(help[$0.upperBound...]) })
        let commands = block.components(separatedBy: "Examples:")[0]
        var listed: Set<String> = []
        for line in commands.split(separator: "\n") {
            for segment in line.components(separatedBy: " | ") + line.components(separatedBy: " ... ") {
                if let word = segment.split(separator: " ").first { listed.insert(String(word)) }
            }
        }
        // This file is Tests/MarqueeCLITests/CLIParsingTests.swift in the repository.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let protocolText = try String(
            contentsOf: repository.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let headings = protocolText.split(separator: "\n").filter { $0.hasPrefix("### ") }.joined(separator: "\n")
        XCTAssertGreaterThanOrEqual(CommandParser.commandNames.count, 24, "the parser lists its commands")
        // README's "Commands:" paragraph names each one in backquotes (it once left out `apply`,
        // `alert`, `alert-clear` and `display`).
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let paragraph = try XCTUnwrap(
            readme.components(separatedBy: "\nCommands: ").dropFirst().first?.components(separatedBy: "\n\n").first)
        for name in CommandParser.commandNames {
            XCTAssertTrue(listed.contains(name), "run --help lists \(name)")
            XCTAssertTrue(
                headings.contains("`\(name) ") || headings.contains("`\(name)`"),
                "docs/protocol.md has a heading for \(name)")
            XCTAssertTrue(
                paragraph.contains("`\(name) ") || paragraph.contains("`\(name)`"),
                "README's Commands paragraph names \(name)")
        }
    }

    func testWindowAndWatch() throws {
        let run = try XCTUnwrap(
            Marquee.parseAsRoot(["run", "--backend", "window", "--size", "640x360", "--deck", "d.json", "--watch"])
                as? Run)
        XCTAssertEqual(run.options.backend, .window)
        XCTAssertEqual(run.options.size, PixelSize(width: 640, height: 360))
        XCTAssertTrue(run.options.watchDeck)
        XCTAssertFalse(try XCTUnwrap(Marquee.parseAsRoot(["run", "--deck", "d.json"]) as? Run).options.watchDeck)
    }

    private func catchError(_ body: () throws -> Any) -> Error {
        do {
            _ = try body()
            return CleanExit.message("no error")
        } catch {
            return error
        }
    }
}
