import CMosquitto
import Glibc
import MarqueeCore

/// `--mqtt`: one more command source, reached through a broker (docs/architecture.md, "MQTT:
/// libmosquitto on a thread of its own").
///
/// libmosquitto's network loop runs on a thread of its own (in CMosquitto's shim), which writes
/// every message received on the command and group topics into a pipe; the run loop reads the
/// pipe's other end as it reads standard input, through a `CommandSource` with its own decoder and
/// `seq` numbers. Replies and events are handed to `mosquitto_publish`, which only queues them for
/// that thread, so a broker that is slow or away never holds up the loop.
final class MQTTLink {
    let settings: MQTTSettings
    /// The read end of the pipe the network thread writes commands into (non-blocking).
    let commandDescriptor: Int32
    private let client: UnsafeMutablePointer<marquee_mqtt>
    /// Publications waiting for the broker's acknowledgement, at most, while the broker is away;
    /// beyond it replies and events are dropped (and counted) rather than kept in memory for as
    /// long as it is away.
    static let publicationCap = 1000
    /// The same while the broker is connected: publications then wait only for the network thread
    /// and the broker's acknowledgements, but one message may carry thousands of lines (a batch
    /// of edits) whose replies are made faster than they are acknowledged. Far above one such
    /// message, so none is dropped while connected; still a bound (with replies of tens of bytes,
    /// about 10 MB in libmosquitto's queue; error replies are at most 2 KiB), and below the 65,535
    /// message ids libmosquitto numbers QoS 1 publications with, so no two waiting share one.
    static let connectedPublicationCap = 50_000
    private var dropped = 0
    /// Whether the drops counted in `dropped` began while the broker was connected (it then took
    /// replies slower than they were made) rather than away.
    private var droppedWhileConnected = false

    init(_ given: MQTTSettings) throws(RuntimeError) {
        var settings = given
        if let path = settings.passwordFile { try settings.readPassword(from: path) }
        if let path = settings.caFile { try RegularFile.check(path, what: "MQTT CA file", maximumBytes: 1 << 20) }
        self.settings = settings
        mosquitto_lib_init()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw RuntimeError(Errno.current, "mqtt: cannot make a pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        // Room for a burst of commands while the loop renders (F_SETPIPE_SZ, which Glibc's module
        // does not export; best effort, 64 KiB otherwise).
        _ = fcntl(ends[1], 1031, Int32(1 << 20))
        commandDescriptor = ends[0]
        let topics = [settings.commandTopic] + settings.groups
        let copies = topics.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        guard
            let made = copies.withUnsafeBufferPointer({ list in
                marquee_mqtt_new(
                    settings.clientID, settings.host, Int32(settings.port), settings.statusTopic, list.baseAddress,
                    Int32(list.count), ends[1])
            })
        else {
            close(ends[0])
            close(ends[1])
            throw RuntimeError("mqtt: cannot create a libmosquitto client")
        }
        client = made
        let mosquitto = marquee_mqtt_client(client)
        if let username = settings.username {
            try check(mosquitto_username_pw_set(mosquitto, username, settings.password), "setting the user name")
        }
        if settings.useTLS {
            if let ca = settings.caFile {
                try check(mosquitto_tls_set(mosquitto, ca, nil, nil, nil, nil), "using the CA file \(ca)")
            } else {
                try check(
                    mosquitto_int_option(mosquitto, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "using the system's CA certificates")
            }
        }
        let started = marquee_mqtt_start(client)
        guard started == 0 else {
            throw RuntimeError(Errno(rawValue: started), "mqtt: cannot start its thread")
        }
        Log.info(
            "mqtt: \(settings.useTLS ? "mqtts" : "mqtt")://\(settings.host):\(settings.port) as \(settings.clientID); commands on \(topics.joined(separator: ", "))"
        )
    }

    private func check(_ code: Int32, _ what: String) throws(RuntimeError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw RuntimeError("mqtt: \(what): \(String(cString: mosquitto_strerror(code)))")
        }
    }

    /// Publishes a reply on `PREFIX/reply`, or an event on `PREFIX/event` (QoS 1, not retained).
    func publish(_ line: [UInt8], event: Bool) {
        let topic = event ? settings.eventTopic : settings.replyTopic
        let result = line.withUnsafeBytes { bytes in
            marquee_mqtt_publish(
                client, topic, bytes.baseAddress, Int32(bytes.count), Int32(Self.publicationCap),
                Int32(Self.connectedPublicationCap))
        }
        switch result {
        case 0:
            if dropped > 0 {
                let why =
                    droppedWhileConnected
                    ? "while \(Self.connectedPublicationCap) waited for the broker's acknowledgement (it took them slower than they were made)"
                    : "while the broker was away"
                Log.info("mqtt: publishing again; \(dropped) replies and events were dropped \(why)")
                dropped = 0
            }
        case 1, 2:
            if dropped == 0 {
                droppedWhileConnected = result == 2
                Log.error(
                    result == 2
                        ? "mqtt: \(Self.connectedPublicationCap) replies and events wait for the broker's acknowledgement; more are dropped until it takes them"
                        : "mqtt: \(Self.publicationCap) replies and events wait for the broker; more are dropped until it takes them"
                )
            }
            dropped += 1
        default:
            Log.error("mqtt: a reply was not published: \(String(cString: mosquitto_strerror(-result)))")
        }
    }

    /// At exit: lets the network thread deliver what is queued (the reply to `quit`, the last
    /// events), for at most `seconds` and only while connected. The connection then closes with the
    /// process, and the broker publishes the will (`offline`).
    func finish(seconds: Double = 2) {
        let end = Session.monotonicNow() + seconds
        while marquee_mqtt_connected(client) != 0 && marquee_mqtt_outstanding(client) > 0
            && Session.monotonicNow() < end
        {
            usleep(10_000)
        }
    }
}
