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

    /// `stderrPath`: where its log goes (a file a test can wait on), else /dev/null.
    /// `descriptorLimit`: started through `sh -c 'ulimit -n N; exec marquee ...'` (same pid).
    /// `runner`: a program (absolute path) and its arguments that exec the binary, such as
    /// `setpriv` to run it as another user.
    func start(
        _ arguments: [String], stderrPath: String? = nil, descriptorLimit: Int? = nil, runner: [String] = []
    ) throws -> Running {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        // A test that writes to a child which has already exited (one refused at start, as it
        // should be) must get EPIPE, not die of SIGPIPE with every later test in the process.
        signal(SIGPIPE, SIG_IGN)
        var inputPipe: [Int32] = [0, 0]
        var outputPipe: [Int32] = [0, 0]
        pipe(&inputPipe)
        pipe(&outputPipe)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_addopen(
            &actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // The child keeps only its ends, as 0 and 1: an inherited write end of its own input
        // would keep it from ever seeing end of input.
        for fd in inputPipe + outputPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // Nor anything else of the test process's (pipes and sockets of earlier tests, about 40
        // by the time the socket tests run): under `descriptorLimit` they took the child's low
        // descriptors, and whether it could accept even one client hung on which were free.
        // (Swift's Glibc does not export `posix_spawn_file_actions_addclosefrom_np`; glibc ignores
        // a close action whose descriptor was closed in the meantime.)
        for fd in openDescriptors() where fd > 2 && !(inputPipe + outputPipe).contains(fd) {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var program = binary
        var words = [binary] + arguments
        if let first = runner.first {
            program = first
            words = runner + words
        }
        if let descriptorLimit {
            program = "/bin/sh"
            words = ["sh", "-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", binary] + arguments
        }
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test process blocks some signals for its own sessions; the child starts clean.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
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

    /// Reads output until `needle` appears or `seconds` pass.
    func read(_ running: Running, until needle: String, seconds: Int = 6) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<max(1, seconds * 50) where !text.contains(needle) {
            var descriptor = pollfd(fd: running.output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let count = Glibc.read(running.output, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }

    /// Waits up to `seconds` for `running` to exit; its status, or nil (then it is killed).
    func exitStatus(_ running: Running, within seconds: Int = 3) -> Int32? {
        for _ in 0..<(seconds * 100) {
            var status: Int32 = 0
            if waitpid(running.pid, &status, WNOHANG) == running.pid {
                return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
            }
            usleep(10_000)
        }
        kill(running.pid, SIGKILL)
        return nil
    }

    /// Waits (up to `seconds`) until `condition` holds; the observable state a test waits for
    /// instead of sleeping and hoping.
    func eventually(seconds: Double = 6, _ condition: () -> Bool) -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// The test process's open descriptors (`/proc/self/fd`, less the directory's own).
    func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        let own = dirfd(directory)
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(name), fd != own { descriptors.append(fd) }
        }
        closedir(directory)
        return descriptors
    }

    /// How many threads the process has (`/proc/PID/task`).
    func threadCount(_ running: Running) -> Int {
        entryCount(of: "/proc/\(running.pid)/task")
    }

    /// Descriptors the process has open (`/proc/PID/fd`).
    func descriptorCount(_ running: Running) -> Int {
        entryCount(of: "/proc/\(running.pid)/fd")
    }

    /// How many entries the directory at `path` has, leaving out names that begin with "." (so
    /// "." and ".."); 0 if it cannot be opened, as when the process is gone.
    func entryCount(of path: String) -> Int {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
        }
        return count
    }

    /// User plus system CPU time of the process so far, in seconds (`/proc/PID/stat`).
    func cpuSeconds(_ running: Running) -> Double {
        let text = SessionHarness.readFile("/proc/\(running.pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's ")": state is field 3, utime 14 and stime 15 (proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Calls `body` with a Unix socket path as a `sockaddr` and its length (for connect and bind).
func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
