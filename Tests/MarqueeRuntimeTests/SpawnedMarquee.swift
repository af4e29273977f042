import Glibc
import XCTest

/// Runs the real `marquee` binary (built by `swift build --build-tests`) with pipes for its
/// standard input and output.
struct Running {
    var pid: pid_t
    var input: Int32
    var output: Int32
}

protocol SpawnsMarquee {}

extension SpawnsMarquee {
    var binary: String {
        let tests = #filePath
        let root = tests.components(separatedBy: "/Tests/").first!
        return root + "/.build/debug/marquee"
    }

    func start(_ arguments: [String]) throws -> Running {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        var inputPipe: [Int32] = [0, 0]
        var outputPipe: [Int32] = [0, 0]
        pipe(&inputPipe)
        pipe(&outputPipe)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The child keeps only its ends, as 0 and 1: an inherited write end of its own input
        // would keep it from ever seeing end of input.
        for fd in inputPipe + outputPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test process blocks some signals for its own sessions; the child starts clean.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, binary, &actions, &attributes, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(inputPipe[0])
        close(outputPipe[1])
        XCTAssertEqual(status, 0)
        return Running(pid: pid, input: inputPipe[1], output: outputPipe[0])
    }

    func send(_ running: Running, _ text: String) {
        _ = text.withCString { write(running.input, $0, strlen($0)) }
    }

    /// Reads output until `needle` appears or a few seconds pass.
    func read(_ running: Running, until needle: String) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<300 where !text.contains(needle) {
            var descriptor = pollfd(fd: running.output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let count = Glibc.read(running.output, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }

    func exitStatus(_ running: Running) -> Int32? {
        for _ in 0..<300 {
            var status: Int32 = 0
            if waitpid(running.pid, &status, WNOHANG) == running.pid {
                return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
            }
            usleep(10_000)
        }
        kill(running.pid, SIGKILL)
        return nil
    }

}
