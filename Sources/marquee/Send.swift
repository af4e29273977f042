import ArgumentParser
import MarqueeRuntime

struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send commands to a running marquee over its control socket and print the replies.",
        discussion: """
            Each COMMAND is one protocol line (quote it). Without COMMANDs, every line of standard input is sent as it arrives, so that a feed can be piped in. Exits 1 if any reply is an error, 2 if the socket cannot be reached.

            Examples:
              marquee send 'scroll-to id:dep-4 duration=1' 'wait idle'
              marquee send --socket /tmp/m.sock 'insert 0 {"id": "n1", "title": "New"}'
              mosquitto_sub -t kiosk/commands | marquee send
            """
    )

    @Option(help: "The control socket (default: $MARQUEE_SOCKET, else /run/marquee/control.sock).")
    var socket: String?

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
            status = try ControlClient.send(socket: socket ?? ControlClient.defaultSocketPath, commands: commands)
        } catch {
            Log.error(error.message)
            throw ExitCode(2)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
