import ArgumentParser
import MarqueeRuntime

/// `marquee run`'s `--mqtt` flags, kept apart from Run's own so each stays short.
struct MQTTFlags: ParsableArguments {
    @Option(
        name: .customLong("mqtt"),
        help: ArgumentHelp(
            "Also take commands from an MQTT broker: mqtt://[USER[:PASSWORD]@]HOST[:PORT] (default port 1883) or mqtts:// (TLS, 8883). Needs --mqtt-topic. The software backend then keeps running after standard input ends.",
            valueName: "url"))
    var url: String?

    @Option(
        name: .customLong("mqtt-topic"),
        help: ArgumentHelp(
            "The topic prefix: commands on PREFIX/command, replies on PREFIX/reply, events on PREFIX/event, and PREFIX/status is a retained online (offline when Marquee is gone).",
            valueName: "prefix"))
    var topic: String?

    @Option(
        name: .customLong("mqtt-group"),
        help: ArgumentHelp(
            "Also take commands from this topic filter (repeatable; a group of kiosks, such as fleet/all or fleet/+/lobby: + alone in a level, # alone in the last). Replies still go to PREFIX/reply.",
            valueName: "topic"))
    var groups: [String] = []

    @Option(
        name: .customLong("mqtt-ca"),
        help: ArgumentHelp(
            "With mqtts://: check the broker's certificate against this CA file (default: the system's CA certificates).",
            valueName: "file"))
    var caFile: String?

    @Option(
        name: .customLong("mqtt-password-file"),
        help: ArgumentHelp(
            "Read the broker password from the first line of this file (the user name is in the URL), so it is not on the command line.",
            valueName: "file"))
    var passwordFile: String?

    /// The settings, or nil without `--mqtt`; throws with a message for a bad combination.
    func settings() throws -> MQTTSettings? {
        guard let url else {
            let stray = [
                ("--mqtt-topic", topic != nil), ("--mqtt-group", !groups.isEmpty), ("--mqtt-ca", caFile != nil),
                ("--mqtt-password-file", passwordFile != nil),
            ]
            if let (flag, _) = stray.first(where: { $0.1 }) { throw ValidationError("\(flag) needs --mqtt URL") }
            return nil
        }
        guard let topic else { throw ValidationError("--mqtt needs --mqtt-topic PREFIX (for example kiosk/lobby)") }
        do throws(RuntimeError) {
            var settings = try MQTTSettings(url: url, prefix: topic)
            try settings.addGroups(groups)
            if caFile != nil && !settings.useTLS { throw RuntimeError("--mqtt-ca is for mqtts:// URLs") }
            if passwordFile != nil && settings.username == nil {
                throw RuntimeError("--mqtt-password-file needs a user name in the URL (mqtt://USER@HOST)")
            }
            if passwordFile != nil && settings.password != nil {
                throw RuntimeError("--mqtt-password-file: the --mqtt URL has a password already; give it in one place")
            }
            settings.caFile = caFile
            settings.passwordFile = passwordFile
            return settings
        } catch {
            throw ValidationError(error.message)
        }
    }
}
