/// Where a scroll goes (SPEC §3).
public enum ScrollTarget: Equatable, Sendable {
    /// A global card index: that card's top edge goes where the first card rests (`insets.top`).
    case card(Int)
    /// Section S, item I.
    case sectionItem(section: Int, item: Int)
    case cardID(String)
    /// Section S's start (its header, or its first card when it has none), placed like a card.
    case section(Int)
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
        // Whatever is named goes where the first card rests: `insets.top` below the viewport's top.
        func placed(_ top: Double) -> Double { min(max(top - layout.configuration.insets.top, 0), maximum) }
        func cardOffset(_ reference: CardReference) -> Result<Double, ScrollTargetError> {
            do throws(DeckEditError) {
                let index = try deck.globalIndex(of: reference)
                guard let frame = layout.frame(ofCard: index) else {
                    return .failure(
                        .init("card index \(index) is out of range (the layout has \(MessageText.count(layout.cardCount, "card")))"))
                }
                return .success(placed(frame.y))
            } catch {
                return .failure(.init(error.message))
            }
        }
        switch self {
        case .card(let index): return cardOffset(.index(index))
        case .sectionItem(let section, let item): return cardOffset(.sectionItem(section: section, item: item))
        case .cardID(let id): return cardOffset(.id(id))
        case .section(let section):
            guard let top = layout.top(ofSection: section) else {
                return .failure(
                    .init(
                        "section \(section) is out of range (the deck has \(MessageText.count(layout.sectionCount, "section")))"
                    ))
            }
            return .success(placed(top))
        case .start: return .success(0)
        case .end: return .success(maximum)
        case .percent(let percent): return .success(min(max(percent / 100 * maximum, 0), maximum))
        case .offset(let offset): return .success(min(max(offset, 0), maximum))
        }
    }
}

public struct ScrollTargetError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
