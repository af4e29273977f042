import Glibc
import MarqueeCore
import MarqueeDisplay

/// What loading a big deck costs, for `marquee bench --load`: a deck file of N cards shaped like
/// cards-1080p's is written to a temporary folder, then `marquee check-deck FILE` and
/// `marquee run --backend software --size 1920x1080 --deck FILE` (which quits at once) run as
/// child processes of this binary. Each is timed (wall and CPU) and its peak RSS read from the
/// kernel (`wait4`), as `/usr/bin/time` would: memory is what a small board has to spare.
public enum LoadBench {
    public struct Figures {
        public var cards: Int
        public var fileBytes: Int
        public var checkSeconds: Double
        public var checkCPUSeconds: Double
        public var checkPeakKiB: Int
        public var runSeconds: Double
        public var runCPUSeconds: Double
        public var runPeakKiB: Int

        public var jsonLine: String {
            var json = JSONWriter()
            json.beginObject()
            json.member("bench", "load")
            json.member("cards", cards)
            json.member("file_mb", BenchRunner.Result.rounded(Double(fileBytes) / 1e6))
            json.member("check_deck_s", BenchRunner.Result.rounded(checkSeconds))
            json.member("check_deck_cpu_s", BenchRunner.Result.rounded(checkCPUSeconds))
            json.member("check_deck_peak_mb", BenchRunner.Result.rounded(Double(checkPeakKiB) * 1024 / 1e6))
            json.member("run_s", BenchRunner.Result.rounded(runSeconds))
            json.member("run_cpu_s", BenchRunner.Result.rounded(runCPUSeconds))
            json.member("run_peak_mb", BenchRunner.Result.rounded(Double(runPeakKiB) * 1024 / 1e6))
            json.endObject()
            return json.string
        }
    }

    public static func run(cards: Int) throws(RuntimeError) -> Figures {
        var template = Array("/tmp/marquee-load-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RuntimeError(Errno.current, "bench --load: cannot make a folder")
        }
        let folder = String(cString: made)
        let deckPath = folder + "/deck.json"
        defer {
            unlink(deckPath)
            rmdir(folder)
        }
        let fileBytes = try writeDeck(cards: cards, to: deckPath)
        let binary = try ownPath()
        let check = try measure([binary, "check-deck", deckPath], input: nil)
        let run = try measure(
            [binary, "run", "--backend", "software", "--size", "1920x1080", "--deck", deckPath], input: "quit\n")
        return Figures(
            cards: cards, fileBytes: fileBytes, checkSeconds: check.seconds, checkCPUSeconds: check.cpuSeconds,
            checkPeakKiB: check.peakKiB, runSeconds: run.seconds, runCPUSeconds: run.cpuSeconds, runPeakKiB: run.peakKiB
        )
    }

    /// One section of `cards` cards with cards-1080p's id, title and body, written in pieces.
    static func writeDeck(cards: Int, to path: String) throws(RuntimeError) -> Int {
        guard let file = fopen(path, "w") else {
            throw RuntimeError(Errno.current, "bench --load: cannot write \(path)")
        }
        defer { fclose(file) }
        let body = BenchRunner.deck(cards: 1).sections[0].cards[0].body
        var piece = JSONWriter()
        var total = 0
        func put(_ text: String) {
            total += text.utf8.count
            fputs(text, file)
        }
        put(#"{"sections":[{"cards":["#)
        for number in 0..<cards {
            piece.reset()
            piece.beginObject()
            piece.member("id", "c\(number)")
            piece.member("title", "Card \(number)")
            piece.member("body", body)
            piece.endObject()
            put((number == 0 ? "" : ",") + piece.string)
        }
        put("]}]}\n")
        guard fflush(file) == 0 else {
            throw RuntimeError(Errno.current, "bench --load: cannot write \(path)")
        }
        return total
    }

    private static func ownPath() throws(RuntimeError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw RuntimeError(Errno.current, "bench --load: cannot find this program") }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `arguments` with `input` on its stdin (or nothing) and its output discarded.
    private static func measure(_ arguments: [String], input: String?) throws(RuntimeError) -> (
        seconds: Double, cpuSeconds: Double, peakKiB: Int
    ) {
        var inputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else {
            throw RuntimeError(Errno.current, "bench --load: cannot make a pipe")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_addclose(&actions, inputPipe[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let start = MonotonicClock.now()
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(inputPipe[0])
        guard status == 0 else {
            close(inputPipe[1])
            throw RuntimeError(Errno(rawValue: status), "bench --load: cannot run \(arguments[0])")
        }
        if let input { _ = input.utf8CString.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count - 1) } }
        close(inputPipe[1])
        var exitStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &exitStatus, 0, &usage) < 0 {
            guard errno == EINTR else { throw RuntimeError(Errno.current, "bench --load: wait4") }
        }
        let seconds = MonotonicClock.now() - start
        guard exitStatus == 0 else {
            throw RuntimeError(
                "bench --load: \(arguments.dropFirst().joined(separator: " ")) failed (status \(exitStatus))")
        }
        func time(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
        return (seconds, time(usage.ru_utime) + time(usage.ru_stime), usage.ru_maxrss)
    }
}
