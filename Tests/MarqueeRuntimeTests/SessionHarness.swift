import Glibc
import MarqueeCore
import MarqueeRuntime
import MarqueeTestSupport
import XCTest

/// Runs a real `Session` on the software backend with a script as its input, collecting the reply
/// lines and the frame trace.
struct SessionRun {
    var replies: [JSONValue]
    var trace: [JSONValue]
    var status: Int32
    /// Times the deck's schedule woke the session (Session.scheduleWakeUps).
    var scheduleWakeUps = 0
}

enum SessionHarness {
    static let scratch: String = {
        let path = "/tmp/marquee-tests-\(getpid())"
        mkdir(path, 0o755)
        return path
    }()

    static func writeFile(_ path: String, _ text: String) { TestFiles.write(path, text) }

    static func readFile(_ path: String) -> String { TestFiles.read(path) }

    static func jsonLines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }

    static func run(
        _ script: String, deckPath: String? = nil, size: PixelSize = PixelSize(width: 640, height: 480),
        configure: (inout RunOptions) -> Void = { _ in }
    ) throws -> SessionRun {
        let name = "\(scratch)/run-\(UInt64.random(in: 0..<UInt64.max))"
        let inputPath = name + ".in"
        let outputPath = name + ".out"
        let tracePath = name + ".trace"
        writeFile(inputPath, script)
        let input = open(inputPath, O_RDONLY)
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer {
            close(input)
            close(output)
        }
        var options = RunOptions()
        options.backend = .software
        options.deckPath = deckPath
        options.size = size
        options.tracePath = tracePath
        options.inputDescriptor = input
        options.outputDescriptor = output
        configure(&options)
        let session = try Session(options: options)
        let status = try session.run()
        return SessionRun(
            replies: try jsonLines(readFile(outputPath)), trace: try jsonLines(readFile(tracePath)), status: status,
            scheduleWakeUps: session.scheduleWakeUps)
    }
}

extension JSONValue {
    var number: Double? {
        if case .number(let value) = self { return value.value }
        return nil
    }
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
    /// The y of a trace line's `offset`.
    var offsetY: Double { self["offset"]!.array![1].number! }
}
