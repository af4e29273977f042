import Foundation
import Glibc
import XCTest

/// A private Mosquitto broker for one test: Debian's `mosquitto`, on a free loopback port, with
/// persistence in a directory of its own, so it can be stopped and started again with its
/// sessions and retained messages; and `mosquitto_pub` and `mosquitto_sub` as the outside party.
final class MQTTBroker {
    static let program = "/usr/sbin/mosquitto"
    static let publisher = "/usr/bin/mosquitto_pub"
    static let subscriber = "/usr/bin/mosquitto_sub"

    let port: Int
    let directory: String
    /// With TLS: the CA certificate that signed the broker's (for `localhost` and 127.0.0.1).
    let caFile: String?
    private var broker: Process?
    private var others: [Process] = []

    /// Skips the test, saying why, when the broker or its clients are not installed.
    static func requireInstalled() throws {
        for path in [program, publisher, subscriber] where access(path, X_OK) != 0 {
            throw XCTSkip(
                "\(path) is not installed (tools/install-dependencies installs mosquitto and mosquitto-clients)")
        }
    }

    /// `maxQueuedMessages`: mosquitto's `max_queued_messages`, the QoS 1 messages it queues for
    /// each subscriber (1,000 by default, beyond which it drops them itself); 0 is no limit.
    init(tls: Bool = false, maxQueuedMessages: Int? = nil) throws {
        try Self.requireInstalled()
        port = Self.freePort()
        directory = SessionHarness.scratch + "/broker-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o777)
        // Run as root, mosquitto drops to its own user, which must be able to save its database here.
        chmod(directory, 0o777)
        var config = """
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence true
            persistence_location \(directory)/

            """
        if let maxQueuedMessages { config += "max_queued_messages \(maxQueuedMessages)\n" }
        if tls {
            caFile = try Self.makeCertificates(in: directory)
            config += "cafile \(directory)/ca.pem\ncertfile \(directory)/server.pem\nkeyfile \(directory)/server.key\n"
        } else {
            caFile = nil
        }
        _ = FileManager.default.createFile(atPath: directory + "/mosquitto.conf", contents: Data(config.utf8))
        try start()
    }

    deinit {
        for process in others + [broker].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        let process = try Self.launch(
            Self.program, ["-c", directory + "/mosquitto.conf"], output: directory + "/broker.log")
        broker = process
        for _ in 0..<500 {
            if Self.accepts(port) { return }
            usleep(10_000)
        }
        XCTFail("mosquitto did not start listening on port \(port): \(log)")
    }

    /// Stops the broker as an operator or a crash-free restart would (SIGTERM): it sends the last
    /// wills of its clients and saves its database.
    func stop() {
        guard let broker else { return }
        broker.terminate()
        broker.waitUntilExit()
        self.broker = nil
    }

    var log: String { (try? String(contentsOfFile: directory + "/broker.log", encoding: .utf8)) ?? "" }

    /// How mosquitto_pub and mosquitto_sub reach this broker.
    private var clientArguments: [String] {
        guard let caFile else { return ["-h", "127.0.0.1", "-p", "\(port)"] }
        return ["-h", "localhost", "-p", "\(port)", "--cafile", caFile]
    }

    /// A CA and a broker certificate it signed, for `localhost` and 127.0.0.1, made with openssl;
    /// returns the CA file.
    private static func makeCertificates(in directory: String) throws -> String {
        let openssl = "/usr/bin/openssl"
        guard access(openssl, X_OK) == 0 else { throw XCTSkip("\(openssl) is not installed") }
        let steps = [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Marquee test CA",
                "-keyout",
                "ca.key", "-out", "ca.pem",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out",
                "server.csr",
            ],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days",
                "2",
                "-extfile", "san.cnf", "-out", "server.pem",
            ],
        ]
        _ = FileManager.default.createFile(
            atPath: directory + "/san.cnf", contents: Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8))
        for step in steps {
            let process = try launch(openssl, step, output: directory + "/openssl.log", in: directory)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw XCTSkip("openssl \(step[0]) failed") }
        }
        // The broker reads its key after dropping to its own user.
        chmod(directory + "/server.key", 0o644)
        return directory + "/ca.pem"
    }

    /// Publishes `message` (or a file's bytes) at QoS 1 and waits for the broker's acknowledgement.
    func publish(_ topic: String, _ message: String? = nil, file: String? = nil) throws {
        var arguments = clientArguments + ["-q", "1", "-t", topic]
        arguments += file.map { ["-f", $0] } ?? ["-m", message ?? ""]
        let process = try Self.launch(Self.publisher, arguments, output: "/dev/null")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "mosquitto_pub to \(topic) failed")
    }

    /// A subscriber that writes `TOPIC PAYLOAD` lines to a file until the test ends.
    func subscribe(_ topics: [String]) throws -> Subscription {
        let path = directory + "/sub-\(UInt32.random(in: 0...UInt32.max)).txt"
        let arguments = clientArguments + ["-q", "1", "-v"] + topics.flatMap { ["-t", $0] }
        others.append(try Self.launch(Self.subscriber, arguments, output: path))
        return Subscription(path: path)
    }

    /// The retained message on `topic` now, as a new subscriber sees it (nil when there is none).
    func retained(_ topic: String) throws -> String? {
        let path = directory + "/retained-\(UInt32.random(in: 0...UInt32.max)).txt"
        let arguments = clientArguments + ["-t", topic, "-C", "1", "-W", "2", "--retained-only"]
        let process = try Self.launch(Self.subscriber, arguments, output: path)
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.isEmpty ? nil : text.trimmingCharacters(in: .newlines)
    }

    private static func launch(_ program: String, _ arguments: [String], output: String, in directory: String? = nil)
        throws -> Process
    {
        if !FileManager.default.fileExists(atPath: output) {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
        }
        let process = Process()
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let handle = FileHandle(forWritingAtPath: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// A port nobody listens on now (the kernel's choice for an ephemeral bind).
    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// What a `mosquitto_sub -v` received so far: one `(topic, payload)` per line.
struct Subscription {
    let path: String

    var messages: [(topic: String, payload: String)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    func payloads(on topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.payload) }
}
