/// Where a scroll goes (SPEC §3).
public enum ScrollTarget: Equatable, Sendable {
    /// A global card index: that card's top edge goes where the first card rests (`insets.top`).
    case card(Int)
    /// Section S, item I.
    case sectionItem(section: Int, item: Int)
    case cardID(String)
    case start
    case end
    /// A percentage of the maximum offset.
    case percent(Double)
    /// An offset in pixels.
    case offset(Double)

    /// The offset this target means in `layout`, clamped to `[0, maxOffset]`, or a message saying
    /// why it means nothing.
    public func resolve(in layout: CollectionLayout, deck: Deck) -> Result<Double, ScrollTargetError> {
        let maximum = layout.maxOffset
        func clamped(_ offset: Double) -> Double { min(max(offset, 0), maximum) }
        func cardOffset(_ index: Int) -> Result<Double, ScrollTargetError> {
            guard let frame = layout.frame(ofCard: index) else {
                return .failure(.init("card index \(index) is out of range (the deck has \(layout.cardCount) cards)"))
            }
            return .success(clamped(frame.y - layout.configuration.insets.top))
        }
        switch self {
        case .card(let index):
            return cardOffset(index)
        case .sectionItem(let section, let item):
            guard section >= 0, section < deck.sections.count else {
                return .failure(
                    .init("section \(section) is out of range (the deck has \(deck.sections.count) sections)"))
            }
            guard let index = deck.globalIndex(section: section, item: item) else {
                return .failure(
                    .init(
                        "item \(item) is out of range (section \(section) has \(deck.sections[section].cards.count) cards)"
                    ))
            }
            return cardOffset(index)
        case .cardID(let id):
            guard let index = deck.globalIndex(ofCardWithID: id) else {
                return .failure(.init("no card has id \"\(id)\""))
            }
            return cardOffset(index)
        case .start: return .success(0)
        case .end: return .success(maximum)
        case .percent(let percent): return .success(clamped(percent / 100 * maximum))
        case .offset(let offset): return .success(clamped(offset))
        }
    }
}

public struct ScrollTargetError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
