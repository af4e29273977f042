/// A band fixed to the top or bottom edge of the screen (a deck's `overlays`): a template's card
/// drawn over the content, which scrolls in the space the bands leave between them.
public struct Overlay: Equatable, Sendable {
    public enum Edge: String, CaseIterable, Equatable, Sendable {
        case top
        case bottom
    }

    public var edge: Edge
    /// The band's height in pixels; bands on the same edge stack, the first nearest the edge.
    public var height: Double
    /// The card the band shows: the template's elements with the band's fields. Its id is
    /// `overlay:N` (N the band's place in `overlays`), which no deck card can take.
    public var card: Card

    public init(edge: Edge, height: Double, template: String, fields: [String: String] = [:], slot: Int) {
        self.edge = edge
        self.height = height
        self.card = Card(id: "overlay:\(slot)", template: template, fields: fields)
    }
}

extension Deck {
    /// The pixels the top bands take, and the bottom ones.
    public var overlayExtent: (top: Double, bottom: Double) {
        overlays.reduce(into: (top: 0.0, bottom: 0.0)) { sum, band in
            switch band.edge {
            case .top: sum.top += band.height
            case .bottom: sum.bottom += band.height
            }
        }
    }
}
