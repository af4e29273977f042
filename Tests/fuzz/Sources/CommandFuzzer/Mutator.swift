import CLibFuzzer

/// Command-aware mutations. libFuzzer's byte-level mutations rarely turn `scroll-by -2` into
/// `scroll-by -9223372036854775808`, so a number that overflows was never tried. Half the time
/// this mutator writes a whole line instead: a command with its number slots filled from
/// `Extremes` (the limits of Int64 and Int32 and their neighbours, ±0, huge and tiny doubles,
/// NaN and the infinities in their spellings, digit strings longer than any integer), or, for an
/// input that starts with a deck, a deck line whose layout, style and keyframe numbers are filled
/// likewise. The other half are libFuzzer's own mutations (with `extremes.dict`).
enum Mutator {
    /// Commands with `N` where a number (or anything typed as one) goes.
    static let commands = [
        "scroll-to N", "scroll-to N:N", "scroll-to section:N", "scroll-to N%", "scroll-to offset:N",
        "scroll-to end duration=N curve=cubic-bezier(N,N,N,N)", "scroll-to id:c0-N duration=N", "scroll-by N",
        "scroll-by Npx", "scroll-by N duration=N curve=linear", "wait N", "wait idle", "delete N", "delete N:N",
        "delete id:cN-N", "move N N", "move N:N N:N", "move id:cN-N N:N", "move N id:cN-N",
        #"insert N {"id": "nN", "height": N}"#, #"insert N:N {"id": "nN"}"#, #"insert id:cN-N {"id": "nN"}"#,
        #"update N {"title": "N", "height": N}"#, #"update N:N {"body": "N"}"#, #"update id:cN-N {"height": N}"#,
        #"insert-section N {"title": "N", "cards": [{"id": "sN", "height": N}]}"#, "delete-section N",
        "appear stagger=N duration=N", "batch", "commit", "play pages dwell=N duration=N",
        "play pages wrap=loop dwell=N",
        "play cards N dwell=N duration=N wrap=loop", "play ticker speed=N", "pause", "resume", "stop",
        #"apply {"sections": [{"id": "s0", "title": "S0", "cards": [{"id": "c0-N"}, {"id": "nN", "height": N}, {"id": "c2-N"}]}, {"cards": [{"id": "c0-N", "title": "N"}]}]}"#,
        #"apply {"sections": [{"title": "S2", "cards": [{"id": "c2-N"}, {"id": "c1-N"}]}], "layout": {"cardHeight": N}}"#,
        #"apply {"templates": {"tN": {"height": N, "elements": [{"text": "f", "left": N, "top": N, "size": N}]}}, "sections": [{"cards": [{"id": "c0-N", "template": "tN", "fields": {"f": "N"}}, {"id": "c1-N", "expires": "2026-11-23T18:30:00Z"}]}]}"#,
    ]

    /// Deck members whose numbers come from outside: `N` is filled, each member kept or left out.
    static let deckMembers = [
        #""layout": {"type": "grid", "columns": N, "spacing": N, "cardHeight": N, "headerHeight": N, "insets": {"top": N, "left": N, "bottom": N, "right": N}}"#,
        #""layout": {"insets": N, "spacing": N, "cardHeight": N}"#,
        #""style": {"cornerRadius": N, "titleSize": N, "bodySize": N, "headerSize": N, "padding": N, "accentWidth": N, "cardAlpha": N, "transitionDuration": N}"#,
        #""keyframes": {"cards": {"input": "position", "translateX": [{"at": N, "value": N}, {"at": N, "value": N}], "scale": [{"at": N, "value": N}], "rotation": [{"at": N, "value": N}], "opacity": [{"at": N, "value": N}]}, "background": {"space": "hsb", "keyframes": [{"at": N, "hue": N, "saturation": N}]}}"#,
    ]

    static func mutate(_ data: UnsafeMutablePointer<UInt8>, size: Int, maxSize: Int, seed: UInt32) -> Int {
        var random = SplitMix(seed: UInt64(seed))
        guard random.next() % 2 == 0 else { return LLVMFuzzerMutate(data, size, maxSize) }
        var lines = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isDeck = lines.first?.hasPrefix("{") == true
        switch random.next() % 8 {
        case 0:
            if isDeck { lines[0] = deckLine(&random) } else { lines.insert(deckLine(&random), at: 0) }
        case 1, 2:
            let at = Int(random.next() % UInt64(lines.count))
            if isDeck && at == 0 { lines[0] = deckLine(&random) } else { lines[at] = commandLine(&random) }
        default:
            lines.insert(
                commandLine(&random),
                at: isDeck ? 1 + Int(random.next() % UInt64(lines.count)) : Int(random.next() % UInt64(lines.count + 1))
            )
        }
        let bytes = Array(lines.joined(separator: "\n").utf8.prefix(maxSize))
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        return bytes.count
    }

    static func commandLine(_ random: inout SplitMix) -> String {
        fill(commands[Int(random.next() % UInt64(commands.count))], from: Extremes.anywhere, &random)
    }

    static func deckLine(_ random: inout SplitMix) -> String {
        var members = deckMembers.filter { _ in random.next() % 2 == 0 }.map { fill($0, from: Extremes.json, &random) }
        members.append(
            fill(
                #""sections": [{"title": "S0", "cards": [{"id": "c0-0", "height": N}, {"id": "c0-1"}, {"id": "c0-2"}]}, {"cards": [{"id": "c1-0"}, {"id": "c1-1", "height": N}]}]"#,
                from: Extremes.json, &random))
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// `template` with each `N` replaced: an extreme two times in three, else a small number.
    static func fill(_ template: String, from extremes: [String], _ random: inout SplitMix) -> String {
        var result = ""
        for character in template {
            guard character == "N" else {
                result.append(character)
                continue
            }
            if random.next() % 3 == 0 {
                result += String(random.next() % 12)
            } else {
                result += extremes[Int(random.next() % UInt64(extremes.count))]
            }
        }
        return result
    }
}

/// Numbers at the edges, as text. Keep `Tests/fuzz/extremes.dict` in step.
enum Extremes {
    /// Valid JSON numbers only (JSON has no NaN or infinity): the decoder's range checks see them.
    static let json = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "0", "-0", "-0.0",
        "1e308", "-1e308", "1.7976931348623157e308", "1e-320", "-1e-320", "5e-324", "1e309",
        "99999999999999999999999999999999999999", "100000", "100001", "10000", "10001", "64", "65", "1", "10", "-10",
        "0.5", "-1",
    ]

    /// Anything typed where a number goes.
    static let anywhere =
        json + [
            "NaN", "nan", "-nan", "inf", "-inf", "+inf", "Infinity", "-Infinity", "+0", "0x7fffffffffffffff", "1_000",
            "", " ", "1e", String(repeating: "9", count: 320), String(repeating: "9", count: 60),
        ]
}

/// A small, fast generator seeded by libFuzzer, so each mutation can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(
    _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
    Mutator.mutate(data, size: size, maxSize: maxSize, seed: seed)
}
