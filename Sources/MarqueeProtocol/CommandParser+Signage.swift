import MarqueeCore

/// `alert`, `alert-clear` and `display`: the signage commands of the overlays part.
extension CommandParser {
    /// nil when the line is none of them. `alert`'s JSON is the rest of the line as it is (a `#`
    /// in a field is no comment).
    static func parseSignage(_ text: String) -> Result<Command, CommandError>? {
        let words = text.split(maxSplits: 1, omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
        guard let name = words.first, ["alert", "alert-clear", "display"].contains(name) else { return nil }
        let rest = words.count > 1 ? String(words[1].drop { $0 == " " || $0 == "\t" }) : ""
        switch name {
        case "alert":
            guard rest.first == "{" else {
                return .failure(CommandError("alert: missing the message JSON (usage: \(usage["alert"]!))"))
            }
            do {
                return .success(.alert(try DeckDecoder.decodeAlert(try JSONParser.parse(rest), path: "alert")))
            } catch let error as DeckError {
                return .failure(CommandError("alert: \(error.summary)"))
            } catch {
                return .failure(CommandError("alert: the message is not valid JSON: \(error)"))
            }
        case "alert-clear":
            guard tokenize(rest).isEmpty else {
                return .failure(CommandError("alert-clear: wrong number of arguments (usage: alert-clear)"))
            }
            return .success(.alertClear)
        default:
            switch tokenize(rest).map(String.init) {
            case ["on"]: return .success(.display(on: true))
            case ["off"]: return .success(.display(on: false))
            default: return .failure(CommandError("display: expected on or off (usage: \(usage["display"]!))"))
            }
        }
    }
}
