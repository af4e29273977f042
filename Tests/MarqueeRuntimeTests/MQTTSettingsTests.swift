import MarqueeRuntime
import XCTest

/// `--mqtt URL` and its topics, parsed without a broker.
final class MQTTSettingsTests: XCTestCase {
    func testURLsWithAndWithoutCredentialsPortsAndTLS() throws {
        let plain = try MQTTSettings(url: "mqtt://broker.local", prefix: "kiosk/lobby")
        XCTAssertEqual([plain.host, "\(plain.port)", "\(plain.useTLS)"], ["broker.local", "1883", "false"])
        XCTAssertNil(plain.username)
        XCTAssertEqual(plain.commandTopic, "kiosk/lobby/command")
        XCTAssertEqual(plain.statusTopic, "kiosk/lobby/status")
        XCTAssertEqual(plain.clientID, "marquee-kiosk/lobby")

        let secure = try MQTTSettings(url: "mqtts://kiosk:p%40ss:w@10.0.0.5:9883/", prefix: "k")
        XCTAssertEqual([secure.host, "\(secure.port)", "\(secure.useTLS)"], ["10.0.0.5", "9883", "true"])
        XCTAssertEqual(secure.username, "kiosk")
        XCTAssertEqual(secure.password, "p@ss:w")
        XCTAssertEqual(try MQTTSettings(url: "mqtts://h", prefix: "k").port, 8883)

        let v6 = try MQTTSettings(url: "mqtt://user@[::1]:1884", prefix: "k")
        XCTAssertEqual([v6.host, "\(v6.port)", v6.username], ["::1", "1884", "user"])
        XCTAssertNil(v6.password)
    }

    func testBadURLsAndTopicsAreRefusedWithoutShowingThePassword() {
        for url in [
            "http://h", "mqtt://", "mqtt://h:0", "mqtt://h:99999", "mqtt://h:x", "mqtt://h/path", "mqtt://[::1",
        ] {
            XCTAssertThrowsError(try MQTTSettings(url: url, prefix: "k"), url)
        }
        XCTAssertThrowsError(try MQTTSettings(url: "mqtt://u:secret@h:0", prefix: "k")) { error in
            XCTAssertFalse("\(error)".contains("secret"), "\(error)")
        }
        XCTAssertThrowsError(try MQTTSettings(url: "mqtt://h", prefix: "kiosk/#"))
        XCTAssertThrowsError(try MQTTSettings(url: "mqtt://h", prefix: ""))
        var settings = try? MQTTSettings(url: "mqtt://h", prefix: "k")
        XCTAssertNoThrow(try settings?.addGroups(["fleet/+/all"]))
        XCTAssertEqual(settings?.groups, ["fleet/+/all"])
    }

    /// A group a broker would refuse to subscribe to is refused at start: subscribed with
    /// `PREFIX/command`, it left the kiosk deaf to its own topic.
    func testGroupsMustBeTopicFiltersAWildcardAloneInItsLevel() throws {
        var settings = try MQTTSettings(url: "mqtt://h", prefix: "k")
        let valid = ["fleet/all", "fleet/+/all", "fleet/#", "#", "+", "+/+", "fleet/+", "/fleet", "fleet//all"]
        XCTAssertNoThrow(try settings.addGroups(valid))
        XCTAssertEqual(settings.groups, valid)
        for group in ["a/#/b", "a#", "a/b#", "#/a", "a/+b", "a+/b", "fleet/##", "++"] {
            XCTAssertThrowsError(try settings.addGroups([group]), group) { error in
                XCTAssertEqual(
                    "\(error)",
                    "--mqtt-group must be an MQTT topic filter: + alone in its level, # alone in the last level (got \"\(group)\")"
                )
            }
        }
        XCTAssertEqual(settings.groups, valid, "a refused group is not added")
    }

    func testThePasswordFileGivesTheFirstLine() throws {
        let path = SessionHarness.scratch + "/mqtt-password-\(UInt32.random(in: 0...UInt32.max))"
        SessionHarness.writeFile(path, "s3cret\nignored\n")
        var settings = try MQTTSettings(url: "mqtt://kiosk@h", prefix: "k")
        try settings.readPassword(from: path)
        XCTAssertEqual(settings.password, "s3cret")
        var withPassword = try MQTTSettings(url: "mqtt://kiosk:x@h", prefix: "k")
        XCTAssertThrowsError(try withPassword.readPassword(from: path))
    }
}
