import ArgumentParser
import MarqueeRuntime

struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send commands to a running marquee over its control socket and print the replies.",
        discussion: """
            Each COMMAND is one protocol line (quote it). Without COMMANDs, every line of standard input is sent as it arrives, so that a feed can be piped in. Prints the replies and the events that arrive before the last reply: send 'wait idle' last to see a scroll's scroll-finished. Exits 1 if any reply is an error, 2 if the socket cannot be reached, Marquee refuses the connection (it serves --max-clients already: "marquee refused the connection: too many clients (64)"), or the connection closes before every line was answered (or while standard input is still open), saying so on stderr.

            With --reconnect, send waits for the socket instead (at start too; after a refusal too, trying again after 0.1 s, then less often up to every 2 s), and once Marquee is back sends the lines that were not answered again, in order, before new ones: nothing is lost across a restart, but a command whose reply was lost may be applied twice.

            Examples:
              marquee send 'scroll-to id:dep-4 duration=1' 'wait idle'
              marquee send --socket /tmp/m.sock 'insert 0 {"id": "n1", "title": "New"}'
              mosquitto_sub -t kiosk/commands | marquee send --reconnect
            """
    )

    @Option(help: "The control socket (default: $MARQUEE_SOCKET, else, unset or empty, /run/marquee/control.sock).")
    var socket: String?

    @Flag(help: "Wait for the socket when it is missing or goes away, and send unanswered lines again.")
    var reconnect = false

    @Argument(help: "Protocol lines to send (docs/protocol.md).")
    var commands: [String] = []

    func validate() throws {
        for command in commands where command.contains("\n") {
            throw ValidationError(
                "a COMMAND must be one line; pass several COMMANDs instead (got \(command.debugDescription))")
        }
    }

    func run() throws {
        let status: Int32
        do throws(RuntimeError) {
            status = try ControlClient.send(
                socket: socket ?? ControlClient.defaultSocketPath, commands: commands, reconnect: reconnect)
        } catch {
            Log.error(error.message)
            throw ExitCode(2)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
