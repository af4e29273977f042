import Glibc
import XCTest

/// An Xvfb X server on a display number no one uses, for the window backend's tests; stopped
/// (by its pid) when the test ends.
final class VirtualDisplay {
    static let server = "/usr/bin/Xvfb"
    static let capture = "/usr/bin/xwd"
    let number: Int
    private let pid: pid_t

    /// Skips the test when Xvfb or xwd is missing (tools/install-dependencies installs both).
    init() throws {
        guard access(Self.server, X_OK) == 0, access(Self.capture, X_OK) == 0 else {
            throw XCTSkip("Xvfb or xwd is not installed (Debian xvfb and x11-apps; tools/install-dependencies)")
        }
        // A free number: neither a lock file nor a socket for it. From a range apart from the
        // desktop's low numbers, offset by our pid so parallel test runs rarely collide.
        var candidate = 100 + Int(getpid() % 400)
        while access("/tmp/.X\(candidate)-lock", F_OK) == 0 || access("/tmp/.X11-unix/X\(candidate)", F_OK) == 0 {
            candidate += 1
        }
        number = candidate
        var spawned: pid_t = 0
        let words = [Self.server, ":\(candidate)", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let status = posix_spawn(&spawned, Self.server, &actions, nil, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        guard status == 0 else { throw XCTSkip("cannot start Xvfb: \(String(cString: strerror(status)))") }
        pid = spawned
        // Ready when its socket exists (bounded: a server that never comes up fails the test).
        for _ in 0..<500 where access("/tmp/.X11-unix/X\(candidate)", F_OK) != 0 { usleep(10_000) }
        guard access("/tmp/.X11-unix/X\(candidate)", F_OK) == 0 else {
            stop()
            XCTFail("Xvfb :\(candidate) did not start within 5 s")
            throw XCTSkip("no X server")
        }
    }

    deinit { stop() }

    private func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    var name: String { ":\(number)" }

    /// The named window's pixels, as `xwd` reads them from the X server.
    func captureWindow(named title: String, to path: String) throws -> [UInt8] {
        var pid: pid_t = 0
        let words = [Self.capture, "-display", name, "-name", title, "-silent", "-out", path]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, Self.capture, nil, nil, argv, environ) == 0 else { throw XCTSkip("cannot run xwd") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        XCTAssertEqual(status, 0, "xwd -name \(title) failed")
        return Self.readBytes(path)
    }

    /// Focuses the named window and presses `keys` there (xdotool, through the XTEST extension,
    /// as a keyboard would); skips the test when xdotool is not installed.
    func press(_ keys: [String], inWindowNamed title: String) throws {
        let status = try xdotool(
            ["search", "--sync", "--name", "^\(title)$", "windowfocus", "--sync", "key", "--delay", "50"] + keys)
        XCTAssertEqual(status, 0, "xdotool \(keys) failed")
    }

    /// Whether a window's title matches the regular expression `pattern` now.
    func hasWindow(titled pattern: String) throws -> Bool {
        try xdotool(["search", "--name", pattern]) == 0
    }

    private func xdotool(_ arguments: [String]) throws -> Int32 {
        let tool = "/usr/bin/xdotool"
        guard access(tool, X_OK) == 0 else { throw XCTSkip("xdotool is not installed (tools/install-dependencies)") }
        let words = [tool] + arguments
        var pid: pid_t = 0
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables: [String] = ["DISPLAY=\(name)"]
        var environment = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        guard posix_spawn(&pid, tool, nil, nil, argv, &environment) == 0 else { throw XCTSkip("cannot run xdotool") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    static func readBytes(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        return bytes
    }
}
