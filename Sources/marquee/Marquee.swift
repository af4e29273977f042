import ArgumentParser
import MarqueeRuntime

@main
struct Marquee: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "A kiosk renderer: a scrolling collection of cards, driven by commands on stdin.",
        discussion: """
            Without a subcommand, `marquee` runs `marquee run`. Commands are read from standard input, one per line, and each is answered with one JSON line on standard output (docs/protocol.md).

            Examples:
              marquee                                   show the demo deck
              printf 'scroll-to end duration=1\\nwait idle\\nsnapshot /tmp/a.png\\n' | marquee run
              marquee run --control-socket /tmp/m.sock  also take commands from a socket
              marquee send --socket /tmp/m.sock 'scroll-to end'
              marquee check-deck board.json             validate a deck file
              marquee compare golden.png now.png        compare two snapshots
              marquee bench --json                      measure the frame path
            """,
        subcommands: [Run.self, Send.self, CheckDeck.self, Compare.self, Bench.self],
        defaultSubcommand: Run.self
    )
}
