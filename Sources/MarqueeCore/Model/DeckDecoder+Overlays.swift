/// The deck's `overlays` (docs/deck-format.md, "Overlays"): bands fixed to the top or bottom edge,
/// each a template's card. Checked with JSON paths like the rest of the deck.
extension DeckDecoder {
    static let overlayKeys = ["edge", "height", "template", "fields"]
    /// More bands than this is a mistake (each is drawn every frame that touches its rows).
    static let maximumOverlays = 16

    /// `templates` are the deck's own (decoded before): a band must name one of them.
    mutating func overlays(_ json: JSONValue, path: String, templates: [String: CardTemplate]) -> [Overlay] {
        guard case .array(let items) = json else {
            report(
                path,
                "expected an array of bands ({\"edge\":\"top\",\"height\":96,\"template\":...}), found \(json.typeName)"
            )
            return []
        }
        if items.count > Self.maximumOverlays {
            report(path, "at most \(Self.maximumOverlays) bands, found \(items.count)")
            return []
        }
        var overlays: [Overlay] = []
        for (slot, item) in items.enumerated() {
            if let overlay = overlay(item, path: "\(path)[\(slot)]", slot: slot, templates: templates) {
                overlays.append(overlay)
            }
        }
        return overlays
    }

    private mutating func overlay(
        _ json: JSONValue, path: String, slot: Int, templates: [String: CardTemplate]
    ) -> Overlay? {
        guard let members = members(json, path: path, allowed: Self.overlayKeys) else { return nil }
        let before = problemCount
        var edge = Overlay.Edge.top
        if let edgeJSON = Self.value(members, "edge") {
            edge = choice(edgeJSON, path: path + ".edge", of: Overlay.Edge.self) ?? .top
        } else {
            report(path + ".edge", "missing (\"top\" or \"bottom\")")
        }
        var height = 0.0
        if let heightJSON = Self.value(members, "height") {
            height = number(heightJSON, path: path + ".height", in: 1...Self.maximumCardHeight) ?? 0
        } else {
            report(path + ".height", "missing (the band's height in pixels)")
        }
        var template = ""
        if let templateJSON = Self.value(members, "template") {
            template = string(templateJSON, path: path + ".template") ?? ""
            if !template.isEmpty, templates[template] == nil {
                let known = templates.keys.sorted().map { MessageText.quoted($0) }.joined(separator: ", ")
                report(
                    path + ".template",
                    "no template is named \(MessageText.quoted(template)) (templates: \(known.isEmpty ? "none" : known))"
                )
            }
        } else {
            report(path + ".template", "missing (the name of one of the deck's templates)")
        }
        var fields: [String: String] = [:]
        if let fieldsJSON = Self.value(members, "fields") { fields = self.fields(fieldsJSON, path: path + ".fields") }
        guard problemCount == before else { return nil }
        return Overlay(edge: edge, height: height, template: template, fields: fields, slot: slot)
    }
}

/// What `alert` gives: a template's name and the fields it shows.
public struct AlertMessage: Equatable, Sendable {
    public var template: String
    public var fields: [String: String]

    public init(template: String, fields: [String: String] = [:]) {
        self.template = template
        self.fields = fields
    }
}

extension DeckDecoder {
    /// Decodes `alert`'s JSON: `{"template": NAME, "fields": {...}}`, checked as a card's
    /// `template` and `fields` are. Whether the template exists is the session's to say (it
    /// depends on the deck shown).
    public static func decodeAlert(_ json: JSONValue, path: String) throws(DeckError) -> AlertMessage {
        guard case .object(let members) = json else {
            throw DeckError(problems: [DeckProblem(path: path, message: "expected an object, found \(json.typeName)")])
        }
        let problems = members.filter { $0.key != "template" && $0.key != "fields" }.map {
            DeckProblem(
                path: "\(path).\(MessageText.clipped($0.key))",
                message: "unknown field (known fields: fields, template)")
        }
        guard problems.isEmpty else { throw DeckError(problems: problems) }
        let card = try decodeCard(json, path: path, requireID: false)
        guard let template = card.template, !template.isEmpty else {
            throw DeckError(
                problems: [
                    DeckProblem(path: path + ".template", message: "missing (the name of one of the deck's templates)")
                ])
        }
        return AlertMessage(template: template, fields: card.fields)
    }
}
