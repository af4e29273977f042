import CMosquitto

/// Where `--mqtt` connects and which topics it uses: the URL, the topic prefix and the group
/// topics, checked when the command line is parsed so a typo fails at start, not at the first
/// reconnect.
public struct MQTTSettings: Sendable, Equatable {
    public var useTLS: Bool
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// `--mqtt-topic`: commands on `PREFIX/command`; replies, events and status beside it.
    public var prefix: String
    /// `--mqtt-group`: more topics whose messages are commands (a fleet's `fleet/all`).
    public var groups: [String] = []
    /// `--mqtt-ca`: the CA certificate file that `mqtts://` checks the broker with (else the
    /// system's CA store).
    public var caFile: String?
    /// `--mqtt-password-file`: read when Marquee starts (`readPassword`).
    public var passwordFile: String?

    public var commandTopic: String { prefix + "/command" }
    public var replyTopic: String { prefix + "/reply" }
    public var eventTopic: String { prefix + "/event" }
    public var statusTopic: String { prefix + "/status" }
    /// Stable across restarts, so the broker recognizes the persistent session and delivers the
    /// commands that came while Marquee was away.
    public var clientID: String { "marquee-" + prefix }

    /// Parses `mqtt://[user[:password]@]host[:port]` or `mqtts://…` (an IPv6 host in brackets).
    /// User and password may be percent-encoded (`%40` for `@`).
    public init(url: String, prefix: String) throws(RuntimeError) {
        func fail(_ why: String) -> RuntimeError {
            RuntimeError(
                "--mqtt must be mqtt://[user[:password]@]host[:port] or mqtts://…: \(why) (got \"\(Self.redacted(url))\")"
            )
        }
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            useTLS = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            useTLS = true
            rest = url.dropFirst(8)
        } else {
            throw fail("the scheme is not mqtt:// or mqtts://")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let user = Self.percentDecoded(parts[0]), !user.isEmpty else {
                throw fail("the user name is empty or badly encoded")
            }
            username = user
            if parts.count == 2 {
                guard let secret = Self.percentDecoded(parts[1]) else { throw fail("the password is badly encoded") }
                password = secret
            }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 address lacks its ]") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the host") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        guard !host.isEmpty, !host.contains("/") else { throw fail("no host, or a path after it") }
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw fail("the port must be from 1 to 65535")
            }
            port = number
        } else {
            port = useTLS ? 8883 : 1883
        }
        try Self.checkTopic(prefix, flag: "--mqtt-topic")
        self.prefix = prefix
    }

    /// A topic Marquee subscribes to or publishes under: not empty, no wildcard in a prefix, no NUL.
    static func checkTopic(_ topic: String, flag: String, wildcardsAllowed: Bool = false) throws(RuntimeError) {
        guard !topic.isEmpty, !topic.utf8.contains(0), topic.utf8.count < 60_000 else {
            throw RuntimeError("\(flag) must be a non-empty MQTT topic (got \"\(topic)\")")
        }
        if !wildcardsAllowed && (topic.contains("#") || topic.contains("+")) {
            throw RuntimeError("\(flag) must not contain the wildcards # or + (got \"\(topic)\")")
        }
    }

    /// Adds `--mqtt-group` topics. A group is a subscription, so wildcards are allowed
    /// (`fleet/+/all`), but only as a topic filter has them: `+` alone in its level, `#` alone in
    /// the last level. The groups are subscribed in one call with `PREFIX/command`, and libmosquitto
    /// refuses that whole call for one bad filter (a broker would refuse it too), which left the
    /// kiosk deaf to its own command topic; so a bad group is refused at start, by the same check
    /// libmosquitto applies (`mosquitto_sub_topic_check`).
    public mutating func addGroups(_ topics: [String]) throws(RuntimeError) {
        for topic in topics {
            try Self.checkTopic(topic, flag: "--mqtt-group", wildcardsAllowed: true)
            guard mosquitto_sub_topic_check(topic) == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                throw RuntimeError(
                    "--mqtt-group must be an MQTT topic filter: + alone in its level, # alone in the last level (got \"\(topic)\")"
                )
            }
        }
        groups += topics
    }

    /// The password from `--mqtt-password-file`: its first line (a trailing newline is not part
    /// of it), so the secret need not be on the command line where `ps` shows it.
    public mutating func readPassword(from path: String) throws(RuntimeError) {
        guard password == nil else {
            throw RuntimeError("--mqtt-password-file: the --mqtt URL has a password already; give it in one place")
        }
        guard username != nil else {
            throw RuntimeError("--mqtt-password-file: the --mqtt URL has no user name (mqtt://USER@host)")
        }
        let bytes = try RegularFile.read(path, what: "MQTT password file", maximumBytes: 4096)
        let line =
            bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw RuntimeError("--mqtt-password-file: \(path) is empty") }
        password = text
    }

    /// The URL with its password hidden, for messages.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let scheme = url.firstRange(of: "://") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                    let value = UInt8(
                        String(decoding: utf8[first...utf8.index(after: first)], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
