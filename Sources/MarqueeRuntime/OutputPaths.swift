import Glibc
import MarqueeCore

/// Output files that must not be one of the files a command reads: `compare --diff` over its
/// expected image, `run --trace` over the deck, a `snapshot` over the deck it shows. Writing one
/// would silently destroy an input (a golden image, the only copy of a deck), so such a path is
/// refused before anything is written.
///
/// Two paths name the same file when they lead, after symlinks, to the same device and inode:
/// `./a.png`, `a.png`, a symlink to it and a hard link all count. An output that does not exist yet
/// cannot be an input that exists.
public enum OutputPaths {
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Why `output` (given as `flag`) may not be written: the first of `inputs` it names, as a
    /// message; nil when it names none.
    public static func conflict(output: String, flag: String, inputs: [(what: String, path: String?)]) -> String? {
        guard let (what, same) = input(namedBy: output, among: inputs) else { return nil }
        return "\(flag) \(output) is \(what)\(same): writing it would replace it; name another file"
    }

    /// The first of `inputs` that `output` names: what it is, and its path in parentheses when the
    /// two are spelled differently (empty when not); nil when it names none.
    static func input(namedBy output: String, among inputs: [(what: String, path: String?)]) -> (
        what: String, same: String
    )? {
        for input in inputs {
            guard let path = input.path, sameFile(output, path) else { continue }
            return (input.what, path == output ? "" : " (\(path))")
        }
        return nil
    }

    /// The files `run --trace trace` writes: `trace` itself (the first output's frames, `output`
    /// nil), then one beside it for each further output, named after its connector
    /// (`FurtherOutput.tracePath`: `t.jsonl` gives `t.HDMI-A-2.jsonl`).
    public static func traceFiles(_ trace: String, furtherOutputs: [String]) -> [(output: String?, path: String)] {
        [(nil, trace)] + furtherOutputs.map { ($0, FurtherOutput.tracePath(trace, output: $0)) }
    }

    /// The files `run --trace trace` writes (`traceFiles`), as inputs for `conflict`: "the --trace
    /// file", then "output HDMI-A-2's trace file" for each further output; none when `trace` is nil.
    /// A `snapshot` over any of them would replace it while its writer goes on writing to the
    /// unlinked file.
    public static func namedTraceFiles(_ trace: String?, furtherOutputs: [String]) -> [(what: String, path: String?)] {
        guard let trace else { return [] }
        return traceFiles(trace, furtherOutputs: furtherOutputs).map { file in
            (file.output.map { "output \($0)'s trace file" } ?? "the --trace file", file.path)
        }
    }

    /// Why the trace files of `run --trace trace` (`traceFiles`) may not be written, nil when
    /// they may: each is emptied at start, so none may be one of `inputs` or the file open on
    /// `inputDescriptor` (standard input, when given), and no two may be the same file (the
    /// frames of two outputs would be mixed in one, each writer overwriting the other's lines).
    /// A further output's file is named in the message, with the output it is for.
    public static func traceConflict(
        trace: String, furtherOutputs: [String], inputs: [(what: String, path: String?)],
        inputDescriptor: Int32? = nil
    ) -> String? {
        let files = traceFiles(trace, furtherOutputs: furtherOutputs)
        for (index, file) in files.enumerated() {
            // "--trace t.jsonl is …", or "--trace t.jsonl: output HDMI-A-2 is traced to
            // t.HDMI-A-2.jsonl, which is …".
            let subject =
                file.output.map { "--trace \(trace): output \($0) is traced to \(file.path), which" }
                ?? "--trace \(trace)"
            let remedy = file.output == nil ? "name another file" : "name another --trace file"
            if let inputDescriptor, sameFile(file.path, descriptor: inputDescriptor) {
                return "\(subject) is standard input (the commands): writing it would replace it; \(remedy)"
            }
            if let (what, same) = input(namedBy: file.path, among: inputs) {
                return "\(subject) is \(what)\(same): writing it would replace it; \(remedy)"
            }
            for earlier in files[..<index] where earlier.path == file.path || sameFile(earlier.path, file.path) {
                let other = earlier.output.map { "output \($0)'s trace \(earlier.path)" } ?? "the --trace file itself"
                return
                    "\(subject) is \(other)\(earlier.output == nil ? " (a link to it)" : ""): two outputs' frames would be mixed in one file; \(remedy)"
            }
        }
        return nil
    }

    /// Why `output` (given as `flag`) may not be replaced by a PNG: it exists and is not a regular
    /// file (a device, FIFO, socket or directory, or a symlink to one). The write renames a new file
    /// over the path, so `/dev/null` would become a PNG; nil when the path is missing or a regular
    /// file.
    public static func notReplaceable(output: String, flag: String) -> String? {
        var status = stat()
        guard stat(output, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return nil }
        return
            "\(flag) \(output) is \(RegularFile.describe(type)), not a regular file: writing it would replace it; name a file"
    }

    /// Whether `path` is the file open on `descriptor` (standard input read from a file: a trace
    /// over it would be emptied before its commands are read).
    public static func sameFile(_ path: String, descriptor: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(path, &a) == 0, fstat(descriptor, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// The pictures `deck` shows (the image fields of its cards and overlay bands), as inputs for
    /// `conflict`: each distinct value resolved once, as the renderer resolves it (from the folder
    /// of `deckPath`), so a deck of 100,000 cards naming ten pictures costs ten `stat`s.
    public static func pictures(of deck: Deck, deckPath: String?) -> [(what: String, path: String?)] {
        var values = Set<String>()
        guard !deck.templates.isEmpty else { return [] }
        func collect(_ card: Card) {
            guard let template = deck.template(of: card) else { return }
            for element in template.elements {
                guard case .image(let field, _, _, _) = element.kind, let value = card.fields[field], !value.isEmpty
                else { continue }
                values.insert(value)
            }
        }
        for band in deck.overlays { collect(band.card) }
        for section in deck.sections {
            section.cards.forEachStored { _, stored in stored.card.map(collect) }
        }
        return values.sorted().map { value in
            let path = try? ImagePaths.resolve(value, deckPath: deckPath, policy: .unrestricted).get()
            return ("a picture the deck shows", path)
        }
    }
}
