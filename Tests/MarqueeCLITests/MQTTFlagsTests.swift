import ArgumentParser
import MarqueeRuntime
import XCTest

@testable import marquee

/// `run`'s `--mqtt` flags: what reaches RunOptions, and the combinations refused at parse time.
final class MQTTFlagsTests: XCTestCase {
    func testTheFlagsReachRunOptions() throws {
        let run = try XCTUnwrap(
            Marquee.parseAsRoot([
                "run", "--mqtt", "mqtts://kiosk@broker:9000", "--mqtt-topic", "kiosk/1", "--mqtt-group", "fleet/all",
                "--mqtt-group", "fleet/+/lobby", "--mqtt-ca", "/etc/ca.pem", "--mqtt-password-file", "/etc/pw",
            ]) as? Run)
        let settings = try XCTUnwrap(run.options.mqtt)
        XCTAssertEqual(settings.host, "broker")
        XCTAssertEqual(settings.port, 9000)
        XCTAssertTrue(settings.useTLS)
        XCTAssertEqual(settings.username, "kiosk")
        XCTAssertEqual(settings.prefix, "kiosk/1")
        XCTAssertEqual(settings.groups, ["fleet/all", "fleet/+/lobby"])
        XCTAssertEqual(settings.caFile, "/etc/ca.pem")
        XCTAssertEqual(settings.passwordFile, "/etc/pw")
        XCTAssertNil(try XCTUnwrap(Marquee.parseAsRoot(["run"]) as? Run).options.mqtt)
    }

    func testBadCombinationsAreRefusedWithAMessage() {
        let cases: [([String], String)] = [
            (["--mqtt", "mqtt://h"], "--mqtt-topic"),
            (["--mqtt-topic", "k"], "needs --mqtt"),
            (["--mqtt-group", "fleet/all"], "needs --mqtt"),
            (["--mqtt", "tcp://h", "--mqtt-topic", "k"], "mqtt://"),
            (["--mqtt", "mqtt://h", "--mqtt-topic", "k/#"], "wildcards"),
            (["--mqtt", "mqtt://h", "--mqtt-topic", "k", "--mqtt-group", "a/#/b"], "+ alone in its level"),
            (["--mqtt", "mqtt://h", "--mqtt-topic", "k", "--mqtt-group", "fleet/x+"], "# alone in the last level"),
            (["--mqtt", "mqtt://h", "--mqtt-topic", "k", "--mqtt-ca", "ca.pem"], "mqtts://"),
            (["--mqtt", "mqtt://h", "--mqtt-topic", "k", "--mqtt-password-file", "pw"], "user name"),
            (["--mqtt", "mqtt://u:p@h", "--mqtt-topic", "k", "--mqtt-password-file", "pw"], "one place"),
        ]
        for (arguments, expected) in cases {
            XCTAssertThrowsError(try Marquee.parseAsRoot(["run"] + arguments), "\(arguments)") { error in
                let message = Marquee.message(for: error)
                XCTAssertTrue(message.contains(expected), "\(arguments): \(message)")
                XCTAssertEqual(Marquee.exitCode(for: error).rawValue, 64, "\(arguments)")
            }
        }
    }

    func testHelpNamesTheFlags() {
        let help = Marquee.helpMessage(for: Run.self)
        for option in ["--mqtt <url>", "--mqtt-topic", "--mqtt-group", "--mqtt-ca", "--mqtt-password-file"] {
            XCTAssertTrue(help.contains(option), option)
        }
    }
}
