import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

/// `--backend window` on a real X server (Xvfb): the window shows the software backend's frames
/// pixel for pixel, an idle window costs next to no CPU, and without a display it is a clear error.
final class WindowBackendTests: XCTestCase, SpawnsMarquee {
    /// A plain deck (no templates, no images, so nothing arrives later than the first frame), in a
    /// folder of its own under the name the window's title shows.
    let deck: String = {
        let folder = SessionHarness.scratch + "/window-deck-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
        SessionHarness.writeFile(folder + "/departures.json", WindowBackendTests.platformDeck)
        return folder + "/departures.json"
    }()

    /// The platform display the layout figures below are worked out for (52 px headers, 124 px
    /// cards, 14 px spacing).
    static let platformDeck = #"""
        {
          "title": "Platform display, Brightwater Central",
          "layout": { "type": "list", "insets": { "top": 28, "left": 40, "bottom": 28, "right": 40 },
                      "spacing": 14, "cardHeight": 124, "headerHeight": 52 },
          "style": { "background": "#121a2b", "cardColor": "#f2f4f8", "cardAlpha": 0.94, "cornerRadius": 14,
                     "textColor": "#1a1a1f", "headerColor": "#f5c542",
                     "titleFont": "DejaVu Sans:bold", "bodyFont": "DejaVu Sans", "headerFont": "DejaVu Sans:bold",
                     "titleSize": 30, "bodySize": 19, "headerSize": 28, "padding": 18, "accentWidth": 8 },
          "sections": [
            { "title": "Departures", "cards": [
              { "id": "d1", "title": "08:42  Dunmore", "body": "Platform 4 · On time\nCalling at Alderley, Carrow and Dunmore", "accent": "#2ea05a" },
              { "id": "d2", "title": "08:49  Kestrel Point", "body": "Platform 2 · Expected 08:55\nCalling at Eastfield, Glenholt and Kestrel Point", "accent": "#e89a1c" },
              { "id": "d3", "title": "08:57  Marrowby", "body": "Platform 1 · Cancelled\nA replacement bus leaves from the east entrance at 09:05", "accent": "#d63a3a" },
              { "id": "d4", "title": "09:04  Harrowgate Central", "body": "Platform 4 · On time\nCalling at Fenwick Parkway and Harrowgate Central", "accent": "#2ea05a" },
              { "id": "d5", "title": "09:12  Longmead", "body": "Platform 3 · On time\nCalling at Ivybridge, Northam and Longmead", "accent": "#2ea05a" },
              { "id": "d6", "title": "09:20  Carrow Bay", "body": "Platform 2 · On time\nFirst class at the front of the train", "accent": "#2ea05a" }
            ]},
            { "title": "Notices", "cards": [
              { "id": "n1", "title": "Step-free access", "body": "Lifts serve all platforms. Ask staff at the ticket hall for ramp assistance.", "color": "#e8eef8" },
              { "id": "n2", "title": "Engineering works", "body": "Sunday: buses replace trains between Glenholt and Marrowby from 06:00 to 14:00.", "color": "#e8eef8" }
            ]}
          ]
        }
        """#
    let title = "marquee: departures.json"

    /// Runs marquee with DISPLAY (and only it) naming `display`, or with no display at all;
    /// `sdlLibrary` sets the test hook that names the SDL library to open.
    private func startWindow(
        display: String?, _ arguments: [String], log: String, sdlLibrary: String? = nil, backend: String = "window"
    ) throws -> Running {
        let names = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "MARQUEE_SDL_LIBRARY"]
        let saved: [(String, String?)] = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        for (name, _) in saved { unsetenv(name) }
        if let display { setenv("DISPLAY", display, 1) }
        if let sdlLibrary { setenv("MARQUEE_SDL_LIBRARY", sdlLibrary, 1) }
        return try start(["run", "--backend", backend] + arguments, stderrPath: log)
    }

    func testTheWindowShowsExactlyTheSoftwareBackendsFrame() throws {
        let display = try VirtualDisplay()
        let name = SessionHarness.scratch + "/window-\(UInt32.random(in: 0...UInt32.max))"
        let script = "scroll-to 3 duration=0\nwait idle\n"
        let window = try startWindow(
            display: display.name, ["--size", "640x360", "--deck", deck], log: name + ".log")
        defer {
            close(window.input)
            close(window.output)
        }
        send(window, script)
        let replies = read(window, until: #""seq":2"#, seconds: 20)
        XCTAssertTrue(
            replies.contains(#"{"seq":2,"ok":true}"#), "\(replies); \(SessionHarness.readFile(name + ".log"))")
        let shown = try XWDImage.decode(display.captureWindow(named: title, to: name + ".xwd"))

        let software = try start(["run", "--backend", "software", "--size", "640x360", "--deck", deck])
        send(software, script + "snapshot \(name)-software.png\nquit\n")
        _ = read(software, until: #""seq":4"#)
        XCTAssertEqual(exitStatus(software), 0)
        close(software.input)
        close(software.output)
        let expected = try PNGFile.read(name + "-software.png")

        // Exact: the frame is uploaded as XRGB8888 and drawn unscaled with nearest sampling.
        let (difference, _) = ImageDifference.measure(shown, against: expected, tolerance: 0)
        if difference.mismatchedPixels != 0 || !difference.sameSize {
            try PNGFile.write(shown, to: name + "-window.png")
        }
        XCTAssertTrue(difference.sameSize, "window \(shown.width)x\(shown.height), expected 640x360")
        XCTAssertEqual(difference.mismatchedPixels, 0, "see \(name)-window.png against \(name)-software.png")

        // Idle: nothing animates, so the loop only wakes to look at the window's events.
        let before = cpuSeconds(window)
        usleep(1_000_000)
        let idle = cpuSeconds(window) - before
        XCTAssertLessThan(idle, 0.1, "an idle window used \(idle) s of CPU in 1 s")

        send(window, "quit\n")
        XCTAssertEqual(exitStatus(window), 0)
    }

    func testKeysScrollSnapshotAndQuit() throws {
        let display = try VirtualDisplay()
        let directory = SessionHarness.scratch + "/window-keys-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o755)
        let trace = directory + "/trace.jsonl"
        // `s` writes into the current directory, which the child inherits from this process.
        var saved = [CChar](repeating: 0, count: 4096)
        getcwd(&saved, saved.count)
        chdir(directory)
        let started = Result {
            try startWindow(
                display: display.name, ["--size", "640x360", "--deck", deck, "--trace", trace],
                log: directory + "/err.log")
        }
        chdir(saved)
        let window = try started.get()
        defer {
            close(window.input)
            close(window.output)
        }
        func offset() -> Double? {
            let last = SessionHarness.readFile(trace).split(separator: "\n").last ?? ""
            return last.firstMatch(of: /"offset":\[0,([0-9.]+)\]/).flatMap { Double($0.1) }
        }
        XCTAssertTrue(eventually(seconds: 20) { offset() == 0 }, "started")  // a slow start is no failure
        try display.press(["Down"], inWindowNamed: title)
        // Where `scroll-to 1` puts card 1: past the section's header row and card 0, each with the
        // spacing after it (52 + 14 + 124 + 14).
        XCTAssertTrue(eventually(seconds: 3) { offset() == 204 }, "Down: offset \(offset() ?? -1)")
        try display.press(["End"], inWindowNamed: title)
        XCTAssertTrue(eventually(seconds: 3) { (offset() ?? 0) > 500 }, "End: offset \(offset() ?? -1)")
        let end = offset()
        try display.press(["Page_Up"], inWindowNamed: title)
        XCTAssertTrue(eventually(seconds: 3) { offset() == end.map { $0 - 360 } }, "Page Up: offset \(offset() ?? -1)")
        try display.press(["Home"], inWindowNamed: title)
        XCTAssertTrue(eventually(seconds: 3) { offset() == 0 }, "Home: offset \(offset() ?? -1)")
        try display.press(["s"], inWindowNamed: title)
        XCTAssertTrue(eventually(seconds: 3) { access(directory + "/marquee-snapshot-1.png", F_OK) == 0 })
        XCTAssertTrue(
            eventually(seconds: 3) {
                SessionHarness.readFile(directory + "/err.log").contains("wrote marquee-snapshot-1.png")
            })
        try display.press(["q"], inWindowNamed: title)
        XCTAssertEqual(exitStatus(window), 0)
    }

    func testABrokenSaveIsNamedInTheTitleUntilAGoodOne() throws {
        let display = try VirtualDisplay()
        let directory = SessionHarness.scratch + "/window-watch-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o755)
        let path = directory + "/board.json"
        SessionHarness.writeFile(path, #"{"sections": [{"cards": [{"id": "a"}]}]}"#)
        let window = try startWindow(
            display: display.name, ["--size", "320x200", "--deck", path, "--watch"], log: directory + "/err.log")
        defer {
            close(window.input)
            close(window.output)
        }
        // Starting (Xvfb, then SDL and its GL renderer) may be slow on a loaded machine; only the
        // reloads below are held to a few seconds.
        XCTAssertTrue(eventually(seconds: 20) { SessionHarness.readFile(directory + "/err.log").contains("window:") })
        XCTAssertTrue(eventually(seconds: 3) { (try? display.hasWindow(titled: "^marquee: board.json$")) == true })
        SessionHarness.writeFile(path, "{ broken")
        XCTAssertTrue(
            eventually(seconds: 3) {
                (try? display.hasWindow(titled: "^marquee: board.json - deck .* is invalid")) == true
            })
        XCTAssertTrue(SessionHarness.readFile(directory + "/err.log").contains("watch: kept the current deck"))
        SessionHarness.writeFile(path, #"{"sections": [{"cards": [{"id": "b"}]}]}"#)
        XCTAssertTrue(eventually(seconds: 3) { (try? display.hasWindow(titled: "^marquee: board.json$")) == true })
        send(window, "quit\n")
        XCTAssertEqual(exitStatus(window), 0)
    }

    func testWithoutADisplayItIsAOneLineErrorAndExitUnavailable() throws {
        let log = SessionHarness.scratch + "/window-none-\(UInt32.random(in: 0...UInt32.max)).log"
        let running = try startWindow(display: nil, ["--deck", deck], log: log)
        close(running.input)
        close(running.output)
        XCTAssertEqual(exitStatus(running), 69, "EX_UNAVAILABLE")
        let lines = SessionHarness.readFile(log).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains("needs a desktop session") == true, "\(lines)")
    }

    /// A machine without SDL2 (a kiosk installed from the package): `--backend window` says which
    /// Debian package to install, in one line, and exits 69 (unavailable); the other backends do not notice.
    func testWithoutSDL2ItIsOneLineNamingThePackageAndExitUnavailable() throws {
        let log = SessionHarness.scratch + "/window-nosdl-\(UInt32.random(in: 0...UInt32.max)).log"
        // dlopen of a name no library has fails as it does where libsdl2-2.0-0 is not installed
        // (the system's own copy cannot be hidden from the loader any other way).
        let missing = "libSDL2-absent-for-marquee-tests.so.0"
        // A display is named: the library's absence, not the display's, must be what is reported.
        let running = try startWindow(display: ":0", ["--deck", deck], log: log, sdlLibrary: missing)
        close(running.input)
        close(running.output)
        XCTAssertEqual(exitStatus(running), 69, "EX_UNAVAILABLE")
        let lines = SessionHarness.readFile(log).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains("needs SDL2") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains("apt-get install libsdl2-2.0-0") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains(missing) == true, "dlopen's reason: \(lines)")

        let softwareLog = log + ".software"
        let software = try startWindow(
            display: ":0", ["--deck", deck], log: softwareLog, sdlLibrary: missing, backend: "software")
        send(software, "scroll-to 2 duration=0\nwait idle\nquit\n")
        let replies = read(software, until: #""seq":3"#)
        XCTAssertEqual(exitStatus(software), 0, SessionHarness.readFile(softwareLog))
        XCTAssertTrue(replies.contains(#"{"seq":3,"ok":true}"#), replies)
        close(software.input)
        close(software.output)
    }

    /// The binary does not link SDL2: only `--backend window` opens it, at run time, so the
    /// package installs on a kiosk without SDL and its X11 and Wayland libraries.
    func testTheBinaryDoesNotNeedSDL2() throws {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        guard access("/usr/bin/readelf", X_OK) == 0 else { throw XCTSkip("readelf is not installed (binutils)") }
        let dynamic = Self.output(of: "/usr/bin/readelf -d '\(binary)'")
        let needed = dynamic.matches(of: /\(NEEDED\)\s+Shared library: \[([^\]]+)\]/).map { String($0.1) }
        // Read right: the libraries it does link are there.
        XCTAssertTrue(needed.contains("libpixman-1.so.0"), "NEEDED: \(needed)")
        XCTAssertFalse(needed.contains { $0.lowercased().contains("sdl") }, "NEEDED: \(needed)")
        // Nor through another library.
        let loaded = Self.output(of: "ldd '\(binary)'")
        XCTAssertTrue(loaded.contains("libpixman-1.so.0"), loaded)
        XCTAssertFalse(loaded.lowercased().contains("libsdl"), loaded)
        // libseat likewise: `--seat` opens it at run time (SeatLibrary).
        XCTAssertFalse(needed.contains { $0.contains("libseat") }, "NEEDED: \(needed)")
        XCTAssertFalse(loaded.contains("libseat"), loaded)
    }

    private static func output(of command: String) -> String {
        guard let pipe = popen(command, "r") else { return "" }
        var text = ""
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), pipe) != nil {
            let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            text += String(decoding: bytes, as: UTF8.self)
        }
        pclose(pipe)
        return text
    }

    func testAutoNeverOpensAWindow() throws {
        let display = try VirtualDisplay()
        let log = SessionHarness.scratch + "/window-auto-\(UInt32.random(in: 0...UInt32.max)).log"
        let saved = getenv("DISPLAY").map { String(cString: $0) }
        setenv("DISPLAY", display.name, 1)
        defer { if let saved { setenv("DISPLAY", saved, 1) } else { unsetenv("DISPLAY") } }
        let running = try start(["run", "--backend", "auto", "--deck", deck], stderrPath: log)
        close(running.input)
        close(running.output)
        XCTAssertEqual(exitStatus(running), 0)
        let text = SessionHarness.readFile(log)
        XCTAssertTrue(text.contains("backend auto: using software"), text)
        XCTAssertFalse(text.contains("window:"), text)
    }
}
