/// An 8-bit sRGB color with straight (not premultiplied) alpha.
public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (case-insensitive).
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#") else { return nil }
        var values: [UInt8] = []
        for byte in digits.dropFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): values.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): values.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        switch values.count {
        case 3: self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6, 8:
            func pair(_ index: Int) -> UInt8 { values[index] << 4 | values[index + 1] }
            self.init(red: pair(0), green: pair(2), blue: pair(4), alpha: values.count == 8 ? pair(6) : 255)
        default: return nil
        }
    }

    /// From hue, saturation and brightness, each in [0, 1] (hue wraps around).
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6
        let s = min(max(saturation, 0), 1)
        let v = min(max(brightness, 0), 1)
        let sector = Int(h) % 6
        let fraction = h - h.rounded(.down)
        let p = v * (1 - s)
        let q = v * (1 - s * fraction)
        let t = v * (1 - s * (1 - fraction))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: Color.byte(r), green: Color.byte(g), blue: Color.byte(b), alpha: Color.byte(alpha))
    }

    static func byte(_ unit: Double) -> UInt8 { UInt8((min(max(unit, 0), 1) * 255).rounded()) }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: the form the trace writes.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for component in alpha == 255 ? [red, green, blue] : [red, green, blue, alpha] {
            bytes.append(digits[Int(component >> 4)])
            bytes.append(digits[Int(component & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { hexString }
}
