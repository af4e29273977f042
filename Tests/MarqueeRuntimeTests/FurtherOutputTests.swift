import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Where a further output's frames are traced (`--trace` given with several `--connector`), and
/// the refusals those trace files are held to, as `--trace` itself is: each is emptied at start,
/// so none may be a file the run reads, and no two may be the same file. There is no DRM device
/// here: the checks are driven with connector names directly (and with a software backend as a
/// further output), and on the real binary they come before the display is opened.
final class FurtherOutputTests: XCTestCase, SpawnsMarquee {
    private var folder = ""

    override func setUp() {
        folder = SessionHarness.scratch + "/further-traces-\(UInt64.random(in: 0..<UInt64.max))"
        mkdir(folder, 0o755)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private let deckText = #"{"sections": [{"cards": [{"id": "a", "title": "A"}]}]}"#

    private func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    func testEachFurtherOutputTracesBesideTheTraceFile() {
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/t.jsonl", output: "HDMI-A-2"), "/tmp/t.HDMI-A-2.jsonl")
        XCTAssertEqual(FurtherOutput.tracePath("t.jsonl", output: "DSI-1"), "t.DSI-1.jsonl")
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/trace", output: "HDMI-A-2"), "/tmp/trace.HDMI-A-2")
        XCTAssertEqual(
            FurtherOutput.tracePath("/tmp/run.d/trace", output: "HDMI-A-2"), "/tmp/run.d/trace.HDMI-A-2",
            "a dot in a folder's name is not the file's extension")
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/.trace", output: "HDMI-A-2"), "/tmp/.trace.HDMI-A-2")
        XCTAssertEqual(
            OutputPaths.traceFiles("/tmp/t.jsonl", furtherOutputs: ["HDMI-A-2", "DP-1"]).map(\.path),
            ["/tmp/t.jsonl", "/tmp/t.HDMI-A-2.jsonl", "/tmp/t.DP-1.jsonl"])
    }

    /// A further output's trace that is the `--deck` file, the `--font` file, the file standard
    /// input is read from or a picture the deck shows: a real `Session` refuses it with exit
    /// status 64, naming the derived path and what it is, before the display is opened (the
    /// outputs ask for DRM, which is not here: the refusal comes first) and before any trace file
    /// is opened: the input is unchanged and `--trace`'s own file is not even created.
    func testASessionRefusesAFurtherOutputsTraceThatIsAnInput() throws {
        let trace = folder + "/t.jsonl"
        let picture = "not a PNG: only its bytes matter here"
        SessionHarness.writeFile(folder + "/t.DP-1.png", picture)
        let pictureDeck = folder + "/pictures.json"
        SessionHarness.writeFile(
            pictureDeck,
            #"{"templates": {"t": {"elements": [{"image": "p", "left": 0, "top": 0, "width": 10, "height": 10}]}}, "#
                + #""sections": [{"cards": [{"id": "a", "template": "t", "fields": {"p": "t.DP-1.png"}}]}]}"#)
        SessionHarness.writeFile(folder + "/t.HDMI-A-2.jsonl", deckText)
        SessionHarness.writeFile(folder + "/t.DP-1.jsonl", deckText)
        SessionHarness.writeFile(folder + "/t.DSI-1.jsonl", "quit\n")
        let commands = open(folder + "/t.DSI-1.jsonl", O_RDONLY)
        defer { close(commands) }
        let cases: [(String, String, (inout RunOptions) -> Void)] = [
            (
                "t.HDMI-A-2.jsonl", "the --deck file",
                {
                    $0.deckPath = self.folder + "/t.HDMI-A-2.jsonl"
                    $0.furtherOutputs = [DRMOutputRequest(connector: "HDMI-A-2")]
                }
            ),
            (
                "t.DP-1.jsonl", "the --deck file",
                {
                    $0.deckPath = self.folder + "/t.DP-1.jsonl"
                    $0.furtherOutputs = [DRMOutputRequest(connector: "HDMI-A-2"), DRMOutputRequest(connector: "DP-1")]
                }
            ),
            (
                "t.DP-1.jsonl", "the --font file",
                {
                    $0.fontPath = self.folder + "/t.DP-1.jsonl"
                    $0.furtherOutputs = [DRMOutputRequest(connector: "DP-1")]
                }
            ),
            (
                "t.DSI-1.jsonl", "standard input (the commands)",
                {
                    $0.inputDescriptor = commands
                    $0.furtherOutputs = [DRMOutputRequest(connector: "DSI-1")]
                }
            ),
        ]
        for (derived, what, configure) in cases {
            XCTAssertThrowsError(
                try SessionHarness.run("quit\n") {
                    $0.tracePath = trace
                    configure(&$0)
                }
            ) { error in
                let error = error as! RuntimeError
                XCTAssertEqual(
                    error.message,
                    "--trace \(trace): output \(derived.dropFirst(2).dropLast(6)) is traced to \(folder)/\(derived), which is \(what): writing it would replace it; name another --trace file"
                )
                XCTAssertEqual(ExitStatus.of(error), 64)
            }
        }
        // The picture: its path is the deck's value resolved from the deck's folder.
        let pictureTrace = folder + "/t.png"
        XCTAssertThrowsError(
            try SessionHarness.run("quit\n", deckPath: pictureDeck) {
                $0.tracePath = pictureTrace
                $0.furtherOutputs = [DRMOutputRequest(connector: "DP-1")]
            }
        ) { error in
            let error = error as! RuntimeError
            XCTAssertEqual(
                error.message,
                "--trace \(pictureTrace): output DP-1 is traced to \(folder)/t.DP-1.png, which is a picture the deck shows: writing it would replace it; name another --trace file"
            )
            XCTAssertEqual(ExitStatus.of(error), 64)
        }
        XCTAssertEqual(SessionHarness.readFile(folder + "/t.HDMI-A-2.jsonl"), deckText)
        XCTAssertEqual(SessionHarness.readFile(folder + "/t.DP-1.jsonl"), deckText)
        XCTAssertEqual(SessionHarness.readFile(folder + "/t.DSI-1.jsonl"), "quit\n")
        XCTAssertEqual(SessionHarness.readFile(folder + "/t.DP-1.png"), picture)
        XCTAssertFalse(exists(trace), "no trace file was opened")
        XCTAssertFalse(exists(pictureTrace), "no trace file was opened")
    }

    /// The MQTT files, and an input reached through a symlink or a hard link, by the checking
    /// function itself (what the CLI and the session both call); a name that leads to no input is
    /// accepted.
    func testTheCheckFindsAFurtherTraceThatIsAnyInputByAnyName() {
        let trace = folder + "/t.jsonl"
        SessionHarness.writeFile(folder + "/ca.pem", "CA")
        SessionHarness.writeFile(folder + "/password", "secret")
        symlink(folder + "/ca.pem", folder + "/t.HDMI-A-2.jsonl")
        link(folder + "/password", folder + "/t.DP-1.jsonl")
        let inputs: [(what: String, path: String?)] = [
            ("the --deck file", nil), ("the --mqtt-ca file", folder + "/ca.pem"),
            ("the --mqtt-password-file", folder + "/password"),
        ]
        XCTAssertEqual(
            OutputPaths.traceConflict(trace: trace, furtherOutputs: ["HDMI-A-2"], inputs: inputs),
            "--trace \(trace): output HDMI-A-2 is traced to \(folder)/t.HDMI-A-2.jsonl, which is the --mqtt-ca file (\(folder)/ca.pem): writing it would replace it; name another --trace file"
        )
        XCTAssertEqual(
            OutputPaths.traceConflict(trace: trace, furtherOutputs: ["DSI-1", "DP-1"], inputs: inputs),
            "--trace \(trace): output DP-1 is traced to \(folder)/t.DP-1.jsonl, which is the --mqtt-password-file (\(folder)/password): writing it would replace it; name another --trace file"
        )
        XCTAssertNil(OutputPaths.traceConflict(trace: trace, furtherOutputs: ["DSI-1", "HDMI-A-1"], inputs: inputs))
        XCTAssertEqual(SessionHarness.readFile(folder + "/ca.pem"), "CA")
        XCTAssertEqual(SessionHarness.readFile(folder + "/password"), "secret")
    }

    /// What a `snapshot` may not replace among the trace files (`Session.writeSnapshot`): the
    /// `--trace` file and each further output's, named after the connector it drives. A snapshot's
    /// path ends in .png, so the traces here do too (`--trace t.png`: `t.HDMI-A-2.png`). Further
    /// outputs need DRM, so the session's own refusal is tried in the VM
    /// (`two_outputs_snapshot_over_trace` in Tests/vm/outputs.sh); here the list and the message
    /// it makes, by the file's name and through a symlink.
    func testASnapshotMayNotReplaceAnyOutputsTrace() {
        let trace = folder + "/t.png"
        XCTAssertTrue(OutputPaths.namedTraceFiles(nil, furtherOutputs: ["HDMI-A-2"]).isEmpty, "no --trace, no files")
        let files = OutputPaths.namedTraceFiles(trace, furtherOutputs: ["HDMI-A-2", "DP-1"])
        XCTAssertEqual(
            files.map(\.what), ["the --trace file", "output HDMI-A-2's trace file", "output DP-1's trace file"])
        XCTAssertEqual(files.map(\.path), [trace, folder + "/t.HDMI-A-2.png", folder + "/t.DP-1.png"])
        for file in files { SessionHarness.writeFile(file.path!, "{\"frame\":0}\n") }
        symlink(folder + "/t.DP-1.png", folder + "/dp.png")
        XCTAssertEqual(
            OutputPaths.conflict(output: folder + "/t.HDMI-A-2.png", flag: "snapshot", inputs: files),
            "snapshot \(folder)/t.HDMI-A-2.png is output HDMI-A-2's trace file: writing it would replace it; name another file"
        )
        XCTAssertEqual(
            OutputPaths.conflict(output: folder + "/dp.png", flag: "snapshot", inputs: files),
            "snapshot \(folder)/dp.png is output DP-1's trace file (\(folder)/t.DP-1.png): writing it would replace it; name another file"
        )
        XCTAssertEqual(
            OutputPaths.conflict(output: trace, flag: "snapshot", inputs: files),
            "snapshot \(trace) is the --trace file: writing it would replace it; name another file")
        XCTAssertNil(OutputPaths.conflict(output: folder + "/fresh.png", flag: "snapshot", inputs: files))
        SessionHarness.writeFile(folder + "/t.DSI-1.png", "not a trace of this run")
        XCTAssertNil(
            OutputPaths.conflict(output: folder + "/t.DSI-1.png", flag: "snapshot", inputs: files),
            "a connector the session does not drive has no trace of it")
    }

    /// A further output's trace that is `--trace`'s own file (a symlink or a hard link beside it)
    /// or another further output's would mix two outputs' frames in one file: refused, naming
    /// both; a connector named twice (which the CLI and DRM refuse before) is refused too.
    func testTwoTracesThatAreOneFileAreRefused() {
        let trace = folder + "/t.jsonl"
        SessionHarness.writeFile(trace, "an earlier run's frames\n")
        symlink(trace, folder + "/t.HDMI-A-2.jsonl")
        SessionHarness.writeFile(folder + "/t.DP-1.jsonl", "")
        link(folder + "/t.DP-1.jsonl", folder + "/t.DP-2.jsonl")
        XCTAssertEqual(
            OutputPaths.traceConflict(trace: trace, furtherOutputs: ["HDMI-A-2"], inputs: []),
            "--trace \(trace): output HDMI-A-2 is traced to \(folder)/t.HDMI-A-2.jsonl, which is the --trace file itself (a link to it): two outputs' frames would be mixed in one file; name another --trace file"
        )
        XCTAssertEqual(
            OutputPaths.traceConflict(trace: trace, furtherOutputs: ["DP-1", "DP-2"], inputs: []),
            "--trace \(trace): output DP-2 is traced to \(folder)/t.DP-2.jsonl, which is output DP-1's trace \(folder)/t.DP-1.jsonl: two outputs' frames would be mixed in one file; name another --trace file"
        )
        XCTAssertEqual(
            OutputPaths.traceConflict(trace: folder + "/u.jsonl", furtherOutputs: ["DP-3", "DP-3"], inputs: []),
            "--trace \(folder)/u.jsonl: output DP-3 is traced to \(folder)/u.DP-3.jsonl, which is output DP-3's trace \(folder)/u.DP-3.jsonl: two outputs' frames would be mixed in one file; name another --trace file"
        )
        XCTAssertNil(OutputPaths.traceConflict(trace: trace, furtherOutputs: ["DP-1", "DP-3"], inputs: []))
        XCTAssertEqual(SessionHarness.readFile(trace), "an earlier run's frames\n")
    }

    /// A further output's trace that is a dangling symlink to `--trace`'s file leads nowhere until
    /// the first trace is created, so the check before the display missed it; the one made just
    /// before each further trace is opened (`makeFurtherOutputs`) finds it, and the first
    /// output's frames are not emptied by the second writer.
    func testAFurtherTraceLinkedToTheFirstOnceItExistsIsRefusedBeforeItIsOpened() throws {
        let trace = folder + "/t.jsonl"
        symlink(trace, folder + "/t.software.jsonl")
        var options = RunOptions()
        options.tracePath = trace
        XCTAssertNil(
            OutputPaths.traceConflict(trace: trace, furtherOutputs: ["software"], inputs: []),
            "not yet a file: nothing to compare")
        // What the first output's TraceWriter has done by then, and written since.
        SessionHarness.writeFile(trace, "{\"frame\":0}\n")
        let backend = SoftwareBackend(size: PixelSize(width: 64, height: 48), refreshRate: 60, realtime: false)
        XCTAssertThrowsError(
            try Session.makeFurtherOutputs(
                [backend], deck: DemoDeck.make(), first: try Renderer(), clockOffset: 0, options: options)
        ) { error in
            let error = error as! RuntimeError
            XCTAssertEqual(
                error.message,
                "--trace \(trace): output software is traced to \(folder)/t.software.jsonl, which is the --trace file itself (a link to it): two outputs' frames would be mixed in one file; name another --trace file"
            )
            XCTAssertEqual(ExitStatus.of(error), 64)
        }
        XCTAssertEqual(SessionHarness.readFile(trace), "{\"frame\":0}\n", "the first output's trace is not emptied")
    }

    /// On the real binary, with two `--connector` on DRM (there is no DRM device here: both
    /// refusals come before the display is opened): a deck named as the second output's trace is
    /// refused by the command line, and a file of commands on standard input named so is refused
    /// by the session; exit status 64 both times, the message on stderr, the files unchanged and
    /// no trace file created.
    func testTheBinaryRefusesAFurtherOutputsTraceThatIsTheDeckOrStandardInput() throws {
        let trace = folder + "/t.jsonl"
        let deck = folder + "/t.HDMI-A-2.jsonl"
        SessionHarness.writeFile(deck, deckText)
        let log = folder + "/stderr.log"
        let drm = ["run", "--backend", "drm", "--connector", "HDMI-A-1", "--connector", "HDMI-A-2", "--trace", trace]
        let refused = try start(drm + ["--deck", deck], stderrPath: log)
        close(refused.input)
        XCTAssertEqual(exitStatus(refused, within: 10), 64)
        close(refused.output)
        XCTAssertTrue(
            SessionHarness.readFile(log).contains(
                "--trace \(trace): output HDMI-A-2 is traced to \(deck), which is the --deck file: writing it would replace it; name another --trace file"
            ), SessionHarness.readFile(log))
        XCTAssertEqual(SessionHarness.readFile(deck), deckText, "the deck is unchanged")
        XCTAssertFalse(exists(trace))

        let commands = folder + "/t.DP-1.jsonl"
        SessionHarness.writeFile(commands, "quit\n")
        let stdinLog = folder + "/stdin.log"
        let fromFile = try start(
            ["run", "--backend", "drm", "--connector", "HDMI-A-1", "--connector", "DP-1", "--trace", trace],
            stderrPath: stdinLog, runner: ["/bin/sh", "-c", "exec \"$@\" < '\(commands)'", "sh"])
        close(fromFile.input)
        XCTAssertEqual(exitStatus(fromFile, within: 10), 64)
        close(fromFile.output)
        XCTAssertTrue(
            SessionHarness.readFile(stdinLog).contains(
                "--trace \(trace): output DP-1 is traced to \(commands), which is standard input (the commands): writing it would replace it; name another --trace file"
            ), SessionHarness.readFile(stdinLog))
        XCTAssertEqual(SessionHarness.readFile(commands), "quit\n", "the commands are unchanged")
        XCTAssertFalse(exists(trace))
    }
}
