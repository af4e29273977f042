/// The deck's `templates` and the cards' `template` and `fields` (docs/deck-format.md,
/// "Templates"), checked key by key with JSON paths like the rest of the deck.
extension DeckDecoder {
    static let placementKeys = ["left", "right", "width", "top", "bottom", "height"]
    static let textKeys = [
        "font", "weight", "size", "color", "align", "direction", "lines", "overflow", "speed", "pause",
    ]
    static let imageKeys = ["fit", "radius", "placeholder"]
    static let kindKeys = ["text", "image", "box", "clock"]
    /// The largest text size and line count an element may ask for (a hostile deck must not
    /// make the renderer open a font at a million pixels).
    static let maximumTextSize = 2_000.0
    static let maximumLines = 1_000.0

    mutating func templates(_ json: JSONValue, path: String) -> [String: CardTemplate] {
        guard case .object(let members) = json else {
            report(path, "expected an object (template names to templates), found \(json.typeName)")
            return [:]
        }
        var templates: [String: CardTemplate] = [:]
        for (name, value) in members {
            let templatePath = "\(path).\(MessageText.clipped(name))"
            if name == CardTemplate.defaultName {
                report(templatePath, "\"default\" is the built-in template's name; give yours another")
                continue
            }
            if name.isEmpty {
                report(templatePath, "a template needs a name")
                continue
            }
            if let template = template(value, path: templatePath) { templates[name] = template }
        }
        return templates
    }

    private mutating func template(_ json: JSONValue, path: String) -> CardTemplate? {
        guard let members = members(json, path: path, allowed: ["height", "elements"]) else { return nil }
        var template = CardTemplate()
        if let height = Self.value(members, "height") {
            template.height = number(height, path: path + ".height", in: 1...Self.maximumCardHeight)
        }
        guard let elementsJSON = Self.value(members, "elements") else {
            report(path + ".elements", "missing (a template needs an \"elements\" array)")
            return nil
        }
        guard case .array(let elements) = elementsJSON else {
            report(path + ".elements", "expected an array, found \(elementsJSON.typeName)")
            return nil
        }
        for (index, element) in elements.enumerated() {
            if let element = self.element(element, path: "\(path).elements[\(index)]") {
                template.elements.append(element)
            }
        }
        return template
    }

    private mutating func element(_ json: JSONValue, path: String) -> TemplateElement? {
        guard case .object(let members) = json else {
            report(path, "expected an object, found \(json.typeName)")
            return nil
        }
        let kinds = members.filter { Self.kindKeys.contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            report(
                path,
                kinds.isEmpty
                    ? "an element needs one of \"text\", \"image\", \"box\" or \"clock\""
                    : "an element is one of \"text\", \"image\", \"box\" or \"clock\", not several")
            return nil
        }
        let isText = kind.key == "text" || kind.key == "clock"
        let allowed =
            [kind.key] + Self.placementKeys
            + (isText ? Self.textKeys : kind.key == "image" ? Self.imageKeys : ["radius"])
        guard self.members(json, path: path, allowed: allowed) != nil else { return nil }
        let problemsBefore = problemCount
        let elementKind: TemplateElement.Kind
        switch kind.key {
        case "text":
            guard let field = fieldName(kind.value, path: path + ".text") else { return nil }
            elementKind = .text(field: field)
        case "image":
            guard let field = fieldName(kind.value, path: path + ".image") else { return nil }
            var fit = TemplateImageFit.contain
            if let json = Self.value(members, "fit"),
                let value = choice(json, path: path + ".fit", of: TemplateImageFit.self)
            {
                fit = value
            }
            var placeholder = Color(red: 0x80, green: 0x80, blue: 0x80, alpha: 0x40)
            if let json = Self.value(members, "placeholder"), let value = color(json, path: path + ".placeholder") {
                placeholder = value
            }
            elementKind = .image(field: field, fit: fit, radius: radius(members, path: path), placeholder: placeholder)
        case "box":
            guard let text = string(kind.value, path: path + ".box") else { return nil }
            if text.hasPrefix("#") {
                guard let color = color(kind.value, path: path + ".box") else { return nil }
                elementKind = .box(.constant(color), radius: radius(members, path: path))
            } else {
                guard let field = fieldName(kind.value, path: path + ".box") else { return nil }
                elementKind = .box(.field(field), radius: radius(members, path: path))
            }
        default:
            guard let format = string(kind.value, path: path + ".clock") else { return nil }
            if format.isEmpty || format.utf8.count > 200 {
                report(path + ".clock", "a clock needs a strftime format of 1 to 200 bytes, such as \"%H:%M\"")
                return nil
            }
            elementKind = .clock(format: format)
        }
        let horizontal = span(members, path: path, keys: ("left", "right", "width"))
        let vertical = span(members, path: path, keys: ("top", "bottom", "height"))
        var element = TemplateElement(kind: elementKind, horizontal: horizontal, vertical: vertical)
        if isText { element.text = textStyle(members, path: path) }
        return problemCount == problemsBefore ? element : nil
    }

    private mutating func fieldName(_ json: JSONValue, path: String) -> String? {
        guard let name = string(json, path: path) else { return nil }
        if name.isEmpty { report(path, "must name a field") }
        return name.isEmpty ? nil : name
    }

    private mutating func radius(_ members: [(key: String, value: JSONValue)], path: String) -> Double {
        guard let json = Self.value(members, "radius") else { return 0 }
        return number(json, path: path + ".radius", in: 0...10_000) ?? 0
    }

    /// Any two of an axis's three keys (one is allowed too: the element's natural extent).
    private mutating func span(
        _ members: [(key: String, value: JSONValue)], path: String, keys: (String, String, String)
    ) -> TemplateSpan {
        let names = [keys.0, keys.1, keys.2]
        let given = names.filter { Self.value(members, $0) != nil }
        if given.count == 3 {
            report(
                "\(path).\(keys.2)",
                "give at most two of \"\(keys.0)\", \"\(keys.1)\" and \"\(keys.2)\" (the third follows from them)")
        }
        func length(_ name: String) -> TemplateLength? {
            guard let json = Self.value(members, name) else { return nil }
            return self.length(json, path: "\(path).\(name)", isExtent: name == keys.2)
        }
        return TemplateSpan(start: length(keys.0), end: length(keys.1), extent: length(keys.2))
    }

    /// Pixels (a number) or a percentage of the card ("25%").
    private mutating func length(_ json: JSONValue, path: String, isExtent: Bool) -> TemplateLength? {
        let range = isExtent ? 0...Self.maximumCardHeight : -Self.maximumCardHeight...Self.maximumCardHeight
        switch json {
        case .number: return number(json, path: path, in: range).map { .pixels($0) }
        case .string(let text):
            guard text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite,
                (isExtent ? 0...1_000 : -1_000...1_000).contains(value)
            else {
                report(path, "\(MessageText.quoted(text)) is not a length (use pixels, 24, or a percentage, \"25%\")")
                return nil
            }
            return .percent(value)
        default:
            report(path, "expected pixels (a number) or a percentage (\"25%\"), found \(json.typeName)")
            return nil
        }
    }

    private mutating func textStyle(_ members: [(key: String, value: JSONValue)], path: String) -> TemplateTextStyle {
        var style = TemplateTextStyle()
        if let json = Self.value(members, "font"), let font = string(json, path: path + ".font") {
            if font.isEmpty { report(path + ".font", "must name a font family") } else { style.font = font }
        }
        if let json = Self.value(members, "weight") { style.weight = weight(json, path: path + ".weight") ?? 400 }
        if let json = Self.value(members, "size") {
            style.size = number(json, path: path + ".size", in: 1...Self.maximumTextSize) ?? style.size
        }
        if let json = Self.value(members, "color") { style.color = textColor(json, path: path + ".color") }
        if let json = Self.value(members, "align"), let align = choice(json, path: path + ".align", of: TextAlign.self)
        {
            style.align = align
        }
        if let json = Self.value(members, "direction") {
            style.direction = choice(json, path: path + ".direction", of: TextDirection.self)
        }
        if let json = Self.value(members, "lines"),
            let lines = number(json, path: path + ".lines", in: 1...Self.maximumLines)
        {
            if lines != lines.rounded() {
                report(path + ".lines", "must be a whole number")
            } else {
                style.lines = Int(lines)
            }
        }
        var speed = TextOverflow.defaultMarqueeSpeed
        var pause = TextOverflow.defaultMarqueePause
        if let json = Self.value(members, "speed") {
            speed = number(json, path: path + ".speed", in: 1...10_000) ?? speed
        }
        if let json = Self.value(members, "pause") {
            pause = number(json, path: path + ".pause", in: 0...3_600) ?? pause
        }
        if let json = Self.value(members, "overflow"), let name = string(json, path: path + ".overflow") {
            switch name {
            case "ellipsis": style.overflow = .ellipsis
            case "clip": style.overflow = .clip
            case "marquee": style.overflow = .marquee(speed: speed, pause: pause)
            default:
                report(
                    path + ".overflow",
                    "\"\(MessageText.clipped(name))\" is not one of \"ellipsis\", \"clip\", \"marquee\"")
            }
        }
        if case .marquee = style.overflow {
            if style.lines != 1 { report(path + ".lines", "a marquee is one line") }
        } else {
            for key in ["speed", "pause"] where Self.value(members, key) != nil {
                report("\(path).\(key)", "only a marquee (\"overflow\": \"marquee\") has a \(key)")
            }
        }
        return style
    }

    /// `regular`, `bold`, or 100...900 in hundreds.
    private mutating func weight(_ json: JSONValue, path: String) -> Int? {
        switch json {
        case .string("regular"): return 400
        case .string("bold"): return 700
        case .number(let number)
        where (100...900).contains(number.value) && number.value.truncatingRemainder(dividingBy: 100) == 0:
            let value = number.value
            return Int(value)
        default:
            report(path, "a weight is \"regular\", \"bold\" or 100, 200, ... 900")
            return nil
        }
    }

    /// A colour, or `{"field": NAME, "map": {VALUE: COLOUR, ...}, "default": COLOUR}`.
    private mutating func textColor(_ json: JSONValue, path: String) -> TemplateColor? {
        if case .string = json { return color(json, path: path).map { .constant($0) } }
        guard let members = members(json, path: path, allowed: ["field", "map", "default"]) else { return nil }
        guard let fieldJSON = Self.value(members, "field"), let field = fieldName(fieldJSON, path: path + ".field")
        else {
            if Self.value(members, "field") == nil {
                report(path + ".field", "missing (the field whose value picks the colour)")
            }
            return nil
        }
        var map: [String: Color] = [:]
        if let mapJSON = Self.value(members, "map") {
            if case .object(let entries) = mapJSON {
                for (value, colorJSON) in entries {
                    if let color = color(colorJSON, path: "\(path).map.\(MessageText.clipped(value))") {
                        map[value] = color
                    }
                }
            } else {
                report(path + ".map", "expected an object (field values to colours), found \(mapJSON.typeName)")
            }
        } else {
            report(path + ".map", "missing (field values to colours)")
        }
        var fallback: Color?
        if let json = Self.value(members, "default") { fallback = color(json, path: path + ".default") }
        return .mapped(field: field, map: map, fallback: fallback)
    }

    /// A card's `fields`: names to strings (numbers are taken as they are written: their text in
    /// the JSON, digit for digit).
    mutating func fields(_ json: JSONValue, path: String) -> [String: String] {
        guard case .object(let members) = json else {
            report(path, "expected an object (field names to values), found \(json.typeName)")
            return [:]
        }
        var fields: [String: String] = [:]
        for (name, value) in members {
            let fieldPath = "\(path).\(MessageText.clipped(name))"
            switch value {
            case .string(let text): fields[name] = text
            case .number(let number): fields[name] = number.text
            default: report(fieldPath, "expected a string, found \(value.typeName)")
            }
        }
        return fields
    }
}
