/// A rectangle in layout points (1 point = 1 pixel before rotation), y growing downward.
public struct Rect: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// True when the two rectangles share an area (touching edges do not count, and a rectangle
    /// of no width or height shares none: a card the layout leaves 0 pixels wide is not drawn).
    public func intersects(_ other: Rect) -> Bool {
        width > 0 && height > 0 && other.width > 0 && other.height > 0
            && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    public func offsetBy(dx: Double = 0, dy: Double = 0) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// A size in pixels.
public struct PixelSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` (for example `1280x720`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
            width <= 16384, height <= 16384
        else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
}
