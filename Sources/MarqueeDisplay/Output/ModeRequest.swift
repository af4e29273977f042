/// `--mode WxH[@HZ]`: the display mode asked for, matched against what the connector offers.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Hz; nil takes the preferred (or fastest) mode of that size.
    public var refresh: Double?

    public init(width: Int, height: Int, refresh: Double? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    /// Parses `1920x1080` or `1920x1080@60` (or `@59.94`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
            (1...16384).contains(width), (1...16384).contains(height)
        else { return nil }
        self.width = width
        self.height = height
        if parts.count == 2 {
            guard let refresh = Double(parts[1]), refresh.isFinite, refresh > 0, refresh <= 1000 else { return nil }
            self.refresh = refresh
        }
    }

    public var description: String {
        guard let refresh else { return "\(width)x\(height)" }
        return "\(width)x\(height)@\(FramePacing.hertz(refresh))"
    }
}
