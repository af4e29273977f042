/// Decoding of the deck's `keyframes` member (docs/deck-format.md, "Keyframes").
extension DeckDecoder {
    private static let bindingFields = ["background", "cards"]
    private static let cardBindingFields = ["input", "tint", "translateX", "opacity", "scale", "rotation"]
    private static let colorKeyframesFields = ["space", "keyframes"]
    private static let colorStopFields = ["at", "color", "hue", "saturation", "brightness", "alpha"]
    private static let scalarStopFields = ["at", "value"]

    mutating func bindings(_ json: JSONValue, path: String) -> Bindings {
        var bindings = Bindings()
        guard let fields = members(json, path: path, allowed: Self.bindingFields) else { return bindings }
        for (key, value) in fields {
            switch key {
            case "background": bindings.background = colorKeyframes(value, path: "\(path).background")
            case "cards": bindings.cards = cardBindings(value, path: "\(path).cards")
            default: break
            }
        }
        return bindings
    }

    private mutating func cardBindings(_ json: JSONValue, path: String) -> CardBindings? {
        var bindings = CardBindings()
        guard let fields = members(json, path: path, allowed: Self.cardBindingFields) else { return nil }
        for (key, value) in fields {
            let memberPath = "\(path).\(key)"
            switch key {
            case "input":
                guard let name = string(value, path: memberPath) else { continue }
                if let input = BindingInput(rawValue: name) {
                    bindings.input = input
                } else {
                    report(memberPath, "unknown input \(MessageText.quoted(name)) (use \"percent\" or \"position\")")
                }
            case "tint": bindings.tint = colorKeyframes(value, path: memberPath)
            case "translateX": bindings.translateX = scalarKeyframes(value, path: memberPath, in: -100_000...100_000)
            case "opacity": bindings.opacity = scalarKeyframes(value, path: memberPath, in: 0...1)
            case "scale": bindings.scale = scalarKeyframes(value, path: memberPath, in: 0...100)
            case "rotation": bindings.rotation = scalarKeyframes(value, path: memberPath, in: -1_000...1_000)
            default: break
            }
        }
        return bindings
    }

    /// `{"space": "hsb", "keyframes": [{"at": 0, "hue": 0, "saturation": 1, "brightness": 1}, ...]}`;
    /// a stop gives either `color` (hex) or, in HSB, `hue`/`saturation`/`brightness` (and `alpha`).
    private mutating func colorKeyframes(_ json: JSONValue, path: String) -> ColorKeyframes? {
        guard let fields = members(json, path: path, allowed: Self.colorKeyframesFields) else { return nil }
        var space = ColorSpace.rgb
        if let spaceJSON = Self.value(fields, "space"), let name = string(spaceJSON, path: "\(path).space") {
            if let parsed = ColorSpace(rawValue: name) {
                space = parsed
            } else {
                report("\(path).space", "unknown color space \(MessageText.quoted(name)) (use \"rgb\" or \"hsb\")")
            }
        }
        guard let stops = stopArray(Self.value(fields, "keyframes"), path: "\(path).keyframes") else { return nil }
        var result: [Keyframes<SIMD4<Double>>.Stop] = []
        for (index, stopJSON) in stops.enumerated() {
            let stopPath = "\(path).keyframes[\(index)]"
            guard let stop = members(stopJSON, path: stopPath, allowed: Self.colorStopFields) else { return nil }
            guard let at = position(Self.value(stop, "at"), path: stopPath) else { return nil }
            if let colorJSON = Self.value(stop, "color") {
                guard let color = color(colorJSON, path: "\(stopPath).color") else { return nil }
                result.append(.init(at: at, value: ColorKeyframes.components(of: color, in: space)))
                continue
            }
            guard space == .hsb else {
                report(
                    stopPath,
                    "missing \"color\" (an rgb stop gives a color; hue/saturation/brightness need \"space\": \"hsb\")")
                return nil
            }
            var components = SIMD4<Double>(0, 1, 1, 1)
            for (index, name) in ["hue", "saturation", "brightness", "alpha"].enumerated() {
                guard let json = Self.value(stop, name) else { continue }
                let range: ClosedRange<Double> = name == "hue" ? -100...100 : 0...1
                guard let value = number(json, path: "\(stopPath).\(name)", in: range) else { return nil }
                components[index] = value
            }
            if Self.value(stop, "hue") == nil {
                report(stopPath, "missing \"color\" or \"hue\"")
                return nil
            }
            result.append(.init(at: at, value: components))
        }
        guard ordered(result.map(\.at), path: "\(path).keyframes") else { return nil }
        return ColorKeyframes(space: space, keyframes: Keyframes(result))
    }

    /// `[{"at": 0, "value": 1}, {"at": 0.5, "value": 0.2}]`
    private mutating func scalarKeyframes(_ json: JSONValue, path: String, in range: ClosedRange<Double>) -> Keyframes<
        Double
    >? {
        guard let stops = stopArray(json, path: path) else { return nil }
        var result: [Keyframes<Double>.Stop] = []
        for (index, stopJSON) in stops.enumerated() {
            let stopPath = "\(path)[\(index)]"
            guard let stop = members(stopJSON, path: stopPath, allowed: Self.scalarStopFields) else { return nil }
            guard let at = position(Self.value(stop, "at"), path: stopPath) else { return nil }
            guard let valueJSON = Self.value(stop, "value") else {
                report(stopPath + ".value", "missing")
                return nil
            }
            guard let value = number(valueJSON, path: stopPath + ".value", in: range) else { return nil }
            result.append(.init(at: at, value: value))
        }
        guard ordered(result.map(\.at), path: path) else { return nil }
        return Keyframes(result)
    }

    private mutating func stopArray(_ json: JSONValue?, path: String) -> [JSONValue]? {
        guard let json else {
            report(path, "missing (a list of keyframes)")
            return nil
        }
        guard case .array(let stops) = json, !stops.isEmpty else {
            report(path, "expected a non-empty array of keyframes, found \(json.typeName)")
            return nil
        }
        return stops
    }

    /// A stop's `at`: where it sits, from 0 to 1 (a percentage as a fraction, or a position).
    private mutating func position(_ json: JSONValue?, path: String) -> Double? {
        guard let json else {
            report(path + ".at", "missing (where the keyframe sits, from 0 to 1)")
            return nil
        }
        return number(json, path: path + ".at", in: -10...10)
    }

    private mutating func ordered(_ positions: [Double], path: String) -> Bool {
        for (index, pair) in zip(positions, positions.dropFirst()).enumerated() where pair.1 < pair.0 {
            report("\(path)[\(index + 1)].at", "keyframes must be in ascending order of \"at\"")
            return false
        }
        return true
    }
}
