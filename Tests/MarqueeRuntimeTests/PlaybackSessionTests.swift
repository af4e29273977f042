import Glibc
import MarqueeCore
import XCTest

/// `play`, `pause`, `resume`, `stop` and a deck's own `playback` through a real `Session` on the
/// software backend's virtual clock, and the dwell's wake-ups on the real binary.
final class PlaybackSessionTests: XCTestCase, SpawnsMarquee {
    /// Ten untitled cards 100 px high, 20 px apart, insets 40 (card i from 40 + 120 i), in a 640x480
    /// view: pages at 0, 380, 860 (the last with room below), then back to 0.
    static func deckJSON(cards: Int = 10, playback: String? = nil, firstHeight: Int? = nil) -> String {
        let list = (0..<cards).map { index in
            let height = index == 0 ? firstHeight.map { ",\"height\":\($0)" } ?? "" : ""
            return "{\"id\":\"c\(index)\",\"title\":\"Card \(index)\"\(height)}"
        }
        let playbackMember = playback.map { ",\"playback\":\($0)" } ?? ""
        return """
            {"layout":{"cardHeight":100,"spacing":20,"insets":40}\(playbackMember),"sections":[{"cards":[\(list.joined(separator: ","))]}]}
            """
    }

    func writeDeck(_ text: String) -> String {
        let path = "\(SessionHarness.scratch)/playback-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(path, text)
        return path
    }

    func events(_ run: SessionRun, _ name: String) -> [JSONValue] {
        run.replies.filter { $0["event"]?.string == name }
    }

    func offset(_ run: SessionRun, at target: Double) -> Double? {
        run.trace.last { $0["target"]!.number! <= target + 1e-9 }?.offsetY
    }

    func testPagesDwellWithNoFramesAndMoveAtTheirTimes() throws {
        let run = try SessionHarness.run(
            "play pages dwell=2 duration=0.5 curve=linear\nwait 11.9\n", deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(run.replies[0]["mode"]?.string, "pages")
        XCTAssertEqual(run.replies[0]["dwell"]?.number, 2)
        XCTAssertEqual(run.replies[0]["wrap"]?.string, "rewind")
        // Moves from 2 to 2.5, 4.5 to 5, (back to 0) 7 to 7.5 and 9.5 to 10.
        let moves = [(2.0, 0.0, 380.0), (4.5, 380, 860), (7, 860, 0), (9.5, 0, 380)]
        for (start, from, to) in moves {
            XCTAssertEqual(offset(run, at: start - 0.01), from)
            XCTAssertEqual(offset(run, at: start + 0.25)!, (from + to) / 2, accuracy: 1e-6)
            XCTAssertEqual(offset(run, at: start + 0.5), to)
        }
        let dwellFrames = run.trace.dropFirst().filter { line in
            let target = line["target"]!.number!
            return !moves.contains { target >= $0.0 - 1e-9 && target <= $0.0 + 0.5 + 1e-9 }
        }
        XCTAssertEqual(dwellFrames.count, 0, "no frame is drawn while a page rests")
    }

    func testAScrollCommandStopsPlaybackAndTellsItsSource() throws {
        let run = try SessionHarness.run(
            "play pages dwell=1 duration=0\nwait 1.5\nscroll-to 0 duration=0\nwait 5\nresume\n",
            deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(offset(run, at: 1.4), 380)
        XCTAssertEqual(run.trace.last!.offsetY, 0)
        XCTAssertEqual(offset(run, at: 6), 0, "no page after the scroll")
        let stopped = events(run, "playback-stopped")
        XCTAssertEqual(stopped.count, 1)
        XCTAssertEqual(stopped.first?["seq"]?.number, 1)
        XCTAssertEqual(stopped.first?["reason"]?.string, "scroll")
        XCTAssertEqual(
            run.replies.last { $0["seq"]?.number == 5 }?["error"]?.string,
            "resume: nothing is playing (start it with play)")
    }

    func testAFailedScrollLeavesPlaybackRunning() throws {
        let run = try SessionHarness.run(
            "play pages dwell=1 duration=0\nscroll-to 99\nwait 1.5\n", deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(run.replies[1]["ok"]?.bool, false)
        XCTAssertEqual(offset(run, at: 1.5), 380, "the pages went on")
        XCTAssertTrue(events(run, "playback-stopped").isEmpty)
    }

    func testEditsAndApplyDuringPlaybackShapeTheNextPage() throws {
        // A 300 px card inserted at the top during the first dwell: cards "tall" (40 to 340) and
        // c0 (360 to 460) fit, c1 (480 to 580) is cut, so the next page starts with it: 460.
        let insert = try SessionHarness.run(
            "play pages dwell=1 duration=0\nwait 0.5\ninsert 0 {\"id\":\"tall\",\"title\":\"Tall\",\"height\":300}\nwait 1\n",
            deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(insert.replies[2]["ok"]?.bool, true)
        XCTAssertEqual(offset(insert, at: 1.5), 460)
        // The same through `apply`: a feed's new state with its first card 300 px high.
        let stateJSON = Self.deckJSON(firstHeight: 300)
        let apply = try SessionHarness.run(
            "play pages dwell=1 duration=0\nwait 0.5\napply \(stateJSON)\nwait 1\n",
            deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(apply.replies[2]["updated"]?.number, 1)
        // c0 (40 to 340), c1 (360 to 460) fit, c2 (480 to 580) is cut.
        XCTAssertEqual(offset(apply, at: 1.5), 460)
    }

    func testHostileCommandsAreClearErrorsAndChangeNothing() throws {
        let script = """
            play cards 0
            play cards -2
            play cards 1.5
            play cards 99999999999
            play pages dwell=-1
            play pages dwell=nan
            play pages dwell=inf
            play pages dwell=100000
            play pages duration=-0.5
            play pages wrap=sideways
            play pages curve=bouncy
            play ticker speed=0
            play ticker speed=-80
            play ticker speed=1e308
            play ticker dwell=3
            play
            play backwards
            pause
            resume
            stop
            pause now
            scroll-to 2 duration=0
            wait idle
            """
        let run = try SessionHarness.run(script + "\n", deckPath: writeDeck(Self.deckJSON()))
        let answers = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(answers.count, 23)
        let expectedErrors = [
            "play cards: \"0\" is not a whole number of cards from 1 to 1000000000",
            "play cards: \"-2\" is not a whole number of cards from 1 to 1000000000",
            "play cards: \"1.5\" is not a whole number of cards from 1 to 1000000000",
            "play cards: \"99999999999\" is not a whole number of cards from 1 to 1000000000",
            "play pages dwell: \"-1\" is not a number of seconds from 0 to 86400",
            "play pages dwell: \"nan\" is not a number of seconds from 0 to 86400",
            "play pages dwell: \"inf\" is not a number of seconds from 0 to 86400",
            "play pages dwell: \"100000\" is not a number of seconds from 0 to 86400",
            "play pages duration: \"-0.5\" is not a number of seconds from 0 to 86400",
            "play pages: wrap=\"sideways\" is not rewind or loop",
        ]
        for (index, message) in expectedErrors.enumerated() {
            XCTAssertEqual(answers[index]["error"]?.string, message, "line \(index + 1)")
        }
        for index in 10..<17 {
            XCTAssertEqual(answers[index]["ok"]?.bool, false, "line \(index + 1)")
            XCTAssertLessThan(answers[index]["error"]!.string!.utf8.count, 300)
        }
        XCTAssertEqual(answers[17]["error"]?.string, "pause: nothing is playing (start it with play)")
        XCTAssertEqual(answers[18]["error"]?.string, "resume: nothing is playing (start it with play)")
        XCTAssertEqual(answers[19]["ok"]?.bool, true, "stop with nothing playing: the wanted state holds")
        XCTAssertEqual(answers[20]["ok"]?.bool, false)
        XCTAssertEqual(answers[21]["ok"]?.bool, true, "the deck still scrolls")
        XCTAssertEqual(run.trace.last!.offsetY, 240)
        XCTAssertEqual(run.trace.last!["cards"]!.array!.count, 5)
    }

    func testPlayOnAnEmptyDeckIsAnErrorAndPauseResumeStopAnswer() throws {
        let empty = try SessionHarness.run(
            "play pages\nplay ticker\nwait 1\n", deckPath: writeDeck(#"{"sections":[{"title":"Nothing yet"}]}"#))
        XCTAssertEqual(empty.replies[0]["error"]?.string, "play: the deck has no cards to play (nothing changed)")
        XCTAssertEqual(empty.replies[1]["ok"]?.bool, false)

        let run = try SessionHarness.run(
            "play pages dwell=1 duration=0\npause\npause\nwait 3\nresume\nresume\nwait 0.5\nstop\nstop\nwait 3\n",
            deckPath: writeDeck(Self.deckJSON()))
        XCTAssertEqual(run.replies[2]["error"]?.string, "pause: playback is already paused (resume it with resume)")
        XCTAssertEqual(run.replies[5]["error"]?.string, "resume: playback is not paused")
        // Paused at 0 with the whole dwell left, resumed at 3: the page moves at 4, not before.
        XCTAssertEqual(offset(run, at: 3.9), 0)
        XCTAssertNil(run.trace.first { $0["target"]!.number! > 0.1 && $0["target"]!.number! < 3.99 })
        XCTAssertEqual(run.trace.last!.offsetY, 0, "stopped at 3.5, before the page at 4")
        XCTAssertEqual(events(run, "playback-stopped").first?["reason"]?.string, "stop")
    }

    func testTickerRunsUnderWaitAndNeverHoldsWaitIdleOrTheEnd() throws {
        let run = try SessionHarness.run(
            "play ticker speed=120\nwait idle\nwait 2\n", deckPath: writeDeck(Self.deckJSON(cards: 5)))
        XCTAssertEqual(run.replies[0]["speed"]?.number, 120)
        XCTAssertEqual(run.replies[1]["ok"]?.bool, true, "wait idle does not wait for a ticker")
        XCTAssertEqual(run.status, 0, "the end of input ends the run with the ticker going")
        // From the second frame on (the first may be drawn before `play` is read), every frame
        // is 120 px/s × the target time since then further on, modulo the deck's 600 px.
        let first = run.trace[1]
        for line in run.trace.dropFirst() {
            let elapsed = line["target"]!.number! - first["target"]!.number!
            var difference = (line.offsetY - first.offsetY - 120 * elapsed).truncatingRemainder(dividingBy: 600)
            if difference < 0 { difference += 600 }
            XCTAssertLessThan(min(difference, 600 - difference), 1e-6, "frame at \(line["target"]!.number!)")
        }
        XCTAssertGreaterThan(run.trace.count, 100, "a frame at every vblank of the 2 s")
    }

    func testADecksOwnPlaybackStartsByItselfAndFollowsLoadAndApply() throws {
        let playing = writeDeck(Self.deckJSON(playback: #"{"mode":"pages","dwell":1,"duration":0}"#))
        let still = writeDeck(Self.deckJSON())
        let run = try SessionHarness.run(
            """
            wait 1.5
            load \(still)
            wait 2
            apply \(Self.deckJSON(playback: #"{"mode":"cards","cards":1,"dwell":1,"duration":0}"#))
            wait 1.5
            apply \(Self.deckJSON(playback: #"{"mode":"cards","cards":1,"dwell":1,"duration":0}"#))
            wait 0.5
            """ + "\n", deckPath: playing)
        XCTAssertEqual(offset(run, at: 1.5), 380, "the deck paged by itself")
        // The loaded deck has no playback: the deck's playback ends; the offset stays.
        XCTAssertEqual(offset(run, at: 3.4), 380)
        // The applied state plays one card at a time from 3.5 + 1: card 4 to the top.
        XCTAssertEqual(offset(run, at: 4.4), 380)
        XCTAssertEqual(offset(run, at: 4.6), 500)
        // The same playback applied again (a feed's next state) changes nothing: the dwell from
        // 4.5 goes on, the next card comes at 5.5.
        XCTAssertEqual(offset(run, at: 5.4), 500)
        XCTAssertEqual(run.trace.last!.offsetY, 620)
        XCTAssertTrue(events(run, "playback-stopped").isEmpty, "no source started these")
    }

    /// An operator's `pause` survives an `apply` whose playback is the shown one written out with
    /// its defaults (`"duration": 0.6, "wrap": "rewind", "curve": "ease-in-out"`): the same playback by
    /// value, so it neither restarts nor loses the pause.
    func testAnApplySpellingOutTheDefaultsKeepsThePause() throws {
        let deck = writeDeck(Self.deckJSON(playback: #"{"mode":"pages","dwell":1}"#))
        let spelled = Self.deckJSON(playback: #"{"mode":"pages","dwell":1,"duration":0.6,"wrap":"rewind","curve":"ease-in-out"}"#)
        let run = try SessionHarness.run("wait 0.5\npause\napply \(spelled)\nwait 3\nresume\n", deckPath: deck)
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, true, true, true], "\(answers)")
        XCTAssertEqual(offset(run, at: 3.5), 0, "still paused on the first page")
    }

    func testADecksPlaybackFillsTheOptionsPlayLeavesOut() throws {
        let deck = writeDeck(Self.deckJSON(playback: #"{"mode":"pages","dwell":5,"duration":1.5,"curve":"linear"}"#))
        let run = try SessionHarness.run("play cards 2 dwell=1\n", deckPath: deck)
        XCTAssertEqual(run.replies[0]["cards"]?.number, 2)
        XCTAssertEqual(run.replies[0]["dwell"]?.number, 1)
        XCTAssertEqual(run.replies[0]["duration"]?.number, 1.5)
        XCTAssertEqual(run.replies[0]["curve"]?.string, "linear")
    }

    /// The one timer: over most of a 4 s dwell on the real clock, the process (every thread of
    /// it) is not woken once (context switches from /proc/PID/task/*/status, as the VM suite
    /// counts them for idle).
    func testNoWakeUpDuringADwell() throws {
        let deck = writeDeck(Self.deckJSON())
        let running = try start(["run", "--backend", "software", "--realtime", "--deck", deck])
        defer {
            kill(running.pid, SIGTERM)
            _ = exitStatus(running)
        }
        send(running, "play pages dwell=4\n")
        XCTAssertTrue(read(running, until: "\"mode\"").contains("\"ok\":true"))
        usleep(500_000)
        let before = Self.contextSwitches(running.pid)
        usleep(3_000_000)
        let after = Self.contextSwitches(running.pid)
        XCTAssertEqual(after - before, 0, "wake-ups in 3 s of a dwell")
    }

    /// Voluntary and involuntary context switches of every thread of `pid`.
    static func contextSwitches(_ pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(directory) }
        var total = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            for line in SessionHarness.readFile("/proc/\(pid)/task/\(name)/status").split(separator: "\n")
            where line.hasSuffix("ctxt_switches") == false && line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return total
    }
}
