import Foundation
import Glibc
import MarqueeCore
import XCTest

/// `run --mqtt`, on the real binary against a real broker (Debian's mosquitto, started by each
/// test on a port of its own), with mosquitto_pub and mosquitto_sub as the controller.
final class MQTTTests: XCTestCase, SpawnsMarquee {
    private var running: [Running] = []

    override func tearDown() {
        for marquee in running {
            kill(marquee.pid, SIGTERM)
            _ = exitStatus(marquee)
            close(marquee.input)
            close(marquee.output)
        }
        running = []
    }

    /// Starts Marquee on the software backend, connected to `broker` under `prefix`.
    func startMarquee(
        _ broker: MQTTBroker, prefix: String, url: String? = nil, extra: [String] = []
    ) throws -> Running {
        let url = url ?? "mqtt://127.0.0.1:\(broker.port)"
        let marquee = try start(
            ["run", "--backend", "software", "--realtime", "--mqtt", url, "--mqtt-topic", prefix] + extra,
            stderrPath: broker.directory + "/marquee-\(prefix.replacingOccurrences(of: "/", with: "-")).log")
        running.append(marquee)
        return marquee
    }

    private func json(_ payloads: [String]) -> [JSONValue] {
        payloads.compactMap { try? JSONParser.parse($0) }
    }

    func testCommandsAreAnsweredInOrderWithEventsAndARetainedStatus() throws {
        let broker = try MQTTBroker()
        let watcher = try broker.subscribe(["kiosk/1/#"])
        let marquee = try startMarquee(broker, prefix: "kiosk/1")
        XCTAssertTrue(eventually { watcher.payloads(on: "kiosk/1/status").contains("online") }, broker.log)
        try broker.publish("kiosk/1/command", "scroll-to end duration=0.2")
        // One message of two lines: two commands.
        try broker.publish("kiosk/1/command", "bogus\nwait idle")
        XCTAssertTrue(eventually { watcher.payloads(on: "kiosk/1/reply").count >= 3 })
        let replies = json(watcher.payloads(on: "kiosk/1/reply"))
        XCTAssertEqual(replies.map { $0["seq"] }, [.number(1), .number(2), .number(3)])
        XCTAssertEqual(replies.map { $0["ok"] }, [.bool(true), .bool(false), .bool(true)])
        let events = json(watcher.payloads(on: "kiosk/1/event"))
        XCTAssertEqual(events.first?["event"], .string("scroll-finished"))
        XCTAssertEqual(events.first?["seq"], .number(1))
        XCTAssertTrue(watcher.payloads(on: "kiosk/1/reply").allSatisfy { !$0.contains("scroll-finished") })
        // Standard input is a source of its own: its numbering starts at 1 too, and its replies
        // stay on stdout.
        send(marquee, "scroll-to start\n")
        XCTAssertTrue(read(marquee, until: "\n").contains(#"{"seq":1,"ok":true}"#))
        XCTAssertEqual(try broker.retained("kiosk/1/status"), "online")
    }

    func testAGroupCommandReachesEveryKioskAndEachRepliesUnderItsPrefix() throws {
        let broker = try MQTTBroker()
        let watcher = try broker.subscribe(["fleet/+/status", "fleet/+/reply"])
        let names = ["a", "b", "c"]
        for name in names {
            _ = try startMarquee(broker, prefix: "fleet/\(name)", extra: ["--mqtt-group", "fleet/all"])
        }
        XCTAssertTrue(
            eventually { names.allSatisfy { watcher.payloads(on: "fleet/\($0)/status").contains("online") } },
            broker.log)
        try broker.publish("fleet/all", "scroll-to end")
        XCTAssertTrue(eventually { names.allSatisfy { !watcher.payloads(on: "fleet/\($0)/reply").isEmpty } })
        for name in names {
            XCTAssertEqual(json(watcher.payloads(on: "fleet/\(name)/reply")).map { $0["seq"] }, [.number(1)], name)
        }
    }

    /// Groups with wildcards in their places are subscriptions the broker takes, and the kiosk
    /// still hears its own command topic beside them; a group with `#` in the middle is refused at
    /// start (exit 64) instead of leaving the kiosk deaf to everything.
    func testWildcardGroupsAreHeardWithTheCommandTopicAndABadOneIsRefusedAtStart() throws {
        let broker = try MQTTBroker()
        let watcher = try broker.subscribe(["k/status", "k/reply"])
        let refused = try start(
            [
                "run", "--backend", "software", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-topic", "k",
                "--mqtt-group", "a/#/b",
            ], stderrPath: broker.directory + "/refused.log")
        close(refused.input)
        close(refused.output)
        XCTAssertEqual(exitStatus(refused), 64)
        XCTAssertTrue(SessionHarness.readFile(broker.directory + "/refused.log").contains("+ alone in its level"))
        _ = try startMarquee(broker, prefix: "k", extra: ["--mqtt-group", "fleet/+/lobby", "--mqtt-group", "site/#"])
        XCTAssertTrue(eventually { watcher.payloads(on: "k/status").contains("online") }, broker.log)
        try broker.publish("fleet/east/lobby", "wait 0")
        XCTAssertTrue(eventually { watcher.payloads(on: "k/reply").count == 1 }, broker.log)
        try broker.publish("site/3/floor/2", "wait 0")
        XCTAssertTrue(eventually { watcher.payloads(on: "k/reply").count == 2 }, broker.log)
        try broker.publish("k/command", "wait 0")
        XCTAssertTrue(eventually { watcher.payloads(on: "k/reply").count == 3 }, broker.log)
        XCTAssertEqual(
            json(watcher.payloads(on: "k/reply")).map { $0["seq"] }, [.number(1), .number(2), .number(3)])
    }

    func testCommandsSentWhileTheBrokerWasAwayArriveWhenMarqueeIsBack() throws {
        let broker = try MQTTBroker()
        let before = try broker.subscribe(["k/status", "k/reply"])
        _ = try startMarquee(broker, prefix: "k")
        XCTAssertTrue(eventually { before.payloads(on: "k/status").contains("online") }, broker.log)
        try broker.publish("k/command", "scroll-to end")
        XCTAssertTrue(eventually { before.payloads(on: "k/reply").count == 1 })

        broker.stop()
        // Marquee tries again 1 s after losing the broker, then 2 s after that: starting the broker
        // between the two leaves it away for about 1.5 s, long enough to see it and to publish.
        usleep(1_500_000)
        try broker.start()
        let after = try broker.subscribe(["k/status", "k/reply"])
        // The will, kept (retained, persisted) across the restart, until Marquee is back.
        XCTAssertTrue(eventually(seconds: 3) { !after.payloads(on: "k/status").isEmpty })
        XCTAssertEqual(after.payloads(on: "k/status").first, "offline", "the last will; broker log:\n\(broker.log)")
        try broker.publish("k/command", "scroll-to start")
        try broker.publish("k/command", "bogus")
        XCTAssertEqual(
            try broker.retained("k/status"), "offline", "Marquee came back before the commands were published")

        XCTAssertTrue(eventually(seconds: 8) { after.payloads(on: "k/reply").count >= 2 }, broker.log)
        let replies = json(after.payloads(on: "k/reply"))
        XCTAssertEqual(replies.map { $0["seq"] }, [.number(2), .number(3)], "the same source, numbering on")
        XCTAssertEqual(replies.map { $0["ok"] }, [.bool(true), .bool(false)])
        XCTAssertEqual(after.payloads(on: "k/status").last, "online")
        XCTAssertEqual(try broker.retained("k/status"), "online")
    }

    func testMalformedPayloadsAreAnsweredWithErrors() throws {
        let broker = try MQTTBroker()
        let watcher = try broker.subscribe(["bad/reply", "bad/status"])
        let marquee = try startMarquee(broker, prefix: "bad")
        XCTAssertTrue(eventually { watcher.payloads(on: "bad/status").contains("online") }, broker.log)
        let invalid = broker.directory + "/invalid.bin"
        let long = broker.directory + "/long.bin"
        _ = FileManager.default.createFile(atPath: invalid, contents: Data([0x73, 0x63, 0xFF, 0xFE, 0x0A]))
        _ = FileManager.default.createFile(atPath: long, contents: Data(repeating: 0x61, count: 70_000))
        try broker.publish("bad/command", file: invalid)
        try broker.publish("bad/command", file: long)
        try broker.publish("bad/command", "{\"scroll-to\": [1, 2")
        try broker.publish("bad/command", "scroll-to end")
        XCTAssertTrue(eventually { watcher.payloads(on: "bad/reply").count >= 4 }, broker.log)
        let replies = json(watcher.payloads(on: "bad/reply"))
        XCTAssertEqual(replies.map { $0["seq"] }, [.number(1), .number(2), .number(3), .number(4)])
        XCTAssertEqual(replies.map { $0["ok"] }, [.bool(false), .bool(false), .bool(false), .bool(true)])
        let errors = replies.prefix(2).compactMap { reply -> String? in
            if case .string(let text) = reply["error"] { return text }
            return nil
        }
        XCTAssertTrue(errors.first?.contains("UTF-8") == true, "\(errors)")
        XCTAssertTrue(errors.last?.contains("longer than") == true, "\(errors)")
        var status: Int32 = 0
        XCTAssertEqual(waitpid(marquee.pid, &status, WNOHANG), 0, "Marquee is still running")
    }

    func testRepliesWhileTheBrokerIsAwayAreKeptUpToTheCapAndTheRestDropped() throws {
        let broker = try MQTTBroker()
        let before = try broker.subscribe(["cap/status"])
        let marquee = try startMarquee(broker, prefix: "cap")
        XCTAssertTrue(eventually { before.payloads(on: "cap/status").contains("online") }, broker.log)
        // 1,500 commands held behind a short wait, so that their replies come while the broker is
        // stopped (Marquee retries 1 s after losing it, then 2 s after that).
        let lines = ["wait 0.3"] + Array(repeating: "scroll-by 1", count: 1500)
        try broker.publish("cap/command", lines.joined(separator: "\n"))
        broker.stop()
        usleep(1_500_000)
        try broker.start()
        let after = try broker.subscribe(["cap/reply"])
        let log = broker.directory + "/marquee-cap.log"
        // What was kept is delivered once Marquee is back: the last reply kept is 1000th
        // publication (replies and the scroll-by's events count alike).
        XCTAssertTrue(
            eventually(seconds: 8) { after.payloads(on: "cap/reply").count > 1 }, SessionHarness.readFile(log))
        // Then a new command is answered again, with the seq after all 1,501.
        try broker.publish("cap/command", "scroll-by 1")
        XCTAssertTrue(eventually { after.payloads(on: "cap/reply").contains(#"{"seq":1502,"ok":true}"#) })
        let seqs = json(after.payloads(on: "cap/reply")).compactMap { reply -> Double? in
            if case .number(let seq) = reply["seq"] { return seq.value }
            return nil
        }
        XCTAssertLessThan(seqs.count, MQTTLinkCap.value, "no more than the cap is kept: \(seqs.count)")
        XCTAssertEqual(seqs.filter { $0 > 1000 }, [1502], "the replies after the cap was reached were dropped")
        XCTAssertTrue(SessionHarness.readFile(log).contains("wait for the broker; more are dropped"))
        XCTAssertTrue(SessionHarness.readFile(log).contains("were dropped while the broker was away"))
        var status: Int32 = 0
        XCTAssertEqual(waitpid(marquee.pid, &status, WNOHANG), 0, "Marquee is still running")
    }
}

extension MQTTTests {
    /// One message may carry thousands of lines (a batch of edits): with the broker connected,
    /// every reply is published, the commit's too. Before, the cap meant for a broker that is
    /// away (1,000 publications waiting for their acknowledgement) dropped replies 1,001 to
    /// 1,202 and logged them as dropped "while the broker was away".
    func testEveryReplyToAMessageOfThousandsOfLinesIsPublishedWhileConnected() throws {
        // The broker itself queues at most 1,000 messages for a subscriber by default.
        let broker = try MQTTBroker(maxQueuedMessages: 0)
        let watcher = try broker.subscribe(["big/status", "big/reply"])
        let marquee = try startMarquee(broker, prefix: "big")
        XCTAssertTrue(eventually { watcher.payloads(on: "big/status").contains("online") }, broker.log)
        let edits = (0..<1200).map { #"update \#($0 % 40) {"body": "v\#($0)"}"# }
        try broker.publish("big/command", (["batch"] + edits + ["commit"]).joined(separator: "\n"))
        let log = broker.directory + "/marquee-big.log"
        XCTAssertTrue(
            eventually(seconds: 20) { watcher.payloads(on: "big/reply").count >= 1202 },
            "\(watcher.payloads(on: "big/reply").count) replies; \(SessionHarness.readFile(log))")
        let replies = json(watcher.payloads(on: "big/reply"))
        XCTAssertEqual(replies.count, 1202)
        XCTAssertEqual(replies.map { $0["seq"] }, (1...1202).map { JSONValue.number(JSONNumber(Double($0))) })
        XCTAssertEqual(replies.last?["ok"], .bool(true), "the commit is answered")
        // A second message of 3,000 lines (before, 501 of its replies arrived).
        try broker.publish("big/command", Array(repeating: "scroll-by 0px", count: 3000).joined(separator: "\n"))
        XCTAssertTrue(
            eventually(seconds: 30) { watcher.payloads(on: "big/reply").count >= 4202 },
            "\(watcher.payloads(on: "big/reply").count) replies; \(SessionHarness.readFile(log))")
        XCTAssertEqual(json(watcher.payloads(on: "big/reply")).last?["seq"], .number(4202))
        XCTAssertFalse(SessionHarness.readFile(log).contains("dropped"), SessionHarness.readFile(log))
        var status: Int32 = 0
        XCTAssertEqual(waitpid(marquee.pid, &status, WNOHANG), 0, "Marquee is still running")
    }

    func testTLSWithTheBrokersCAAndARefusalWithAnotherCA() throws {
        let broker = try MQTTBroker(tls: true)
        let caFile = try XCTUnwrap(broker.caFile)
        let watcher = try broker.subscribe(["tls/#"])
        _ = try startMarquee(
            broker, prefix: "tls", url: "mqtts://localhost:\(broker.port)", extra: ["--mqtt-ca", caFile])
        // Another "CA": the broker's own certificate, which signed nothing, so the handshake fails.
        let stranger = try startMarquee(
            broker, prefix: "stranger", url: "mqtts://localhost:\(broker.port)",
            extra: ["--mqtt-ca", broker.directory + "/server.pem"])
        XCTAssertTrue(eventually { watcher.payloads(on: "tls/status").contains("online") }, broker.log)
        try broker.publish("tls/command", "scroll-to end")
        XCTAssertTrue(eventually { watcher.payloads(on: "tls/reply") == [#"{"seq":1,"ok":true}"#] })
        let strangerLog = broker.directory + "/marquee-stranger.log"
        XCTAssertTrue(
            eventually { SessionHarness.readFile(strangerLog).contains("TLS") }, SessionHarness.readFile(strangerLog))
        XCTAssertTrue(watcher.payloads(on: "stranger/status").isEmpty)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(stranger.pid, &status, WNOHANG), 0, "a refused handshake does not end Marquee")
    }
}

/// The publication cap of Marquee's MQTT link (MQTTLink.publicationCap, which is internal).
private enum MQTTLinkCap {
    static let value = 1000
}
