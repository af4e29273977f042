import MarqueeCore
import MarqueeTestSupport
import XCTest

final class LayoutTests: XCTestCase {
    let viewport = PixelSize(width: 700, height: 500)

    /// Every way to split 0...12 cards over 1...3 sections, titled or not, in a list and in grids
    /// of 2 and 3 columns (and a list with per-card heights).
    func testInvariantsForEverySmallDeck() {
        withEvery("cards", in: 0...12) { total in
            for counts in splits(total) {
                for titled in [true, false] {
                    check(SmallDecks.deck(sectionCounts: counts, titled: titled))
                    check(SmallDecks.deck(sectionCounts: counts, titled: titled, heights: { $0 % 3 == 1 ? 90 : nil }))
                    check(SmallDecks.deck(sectionCounts: counts, titled: titled, kind: .grid, columns: 2))
                    check(SmallDecks.deck(sectionCounts: counts, titled: titled, kind: .grid, columns: 3))
                }
            }
        }
    }

    func splits(_ total: Int) -> [[Int]] {
        var result = [[total]]
        for first in 0...total {
            result.append([first, total - first])
            for second in 0...(total - first) { result.append([first, second, total - first - second]) }
        }
        return result
    }

    func check(_ deck: Deck, file: StaticString = #filePath, line: UInt = #line) {
        let layout = CollectionLayout(deck: deck, viewport: viewport)
        let config = deck.layout
        XCTAssertEqual(layout.cardCount, deck.cardCount, file: file, line: line)
        // Every card's frame, its location, and the reading order.
        var frames: [Rect] = []
        var index = 0
        for (sectionIndex, section) in deck.sections.enumerated() {
            for (item, card) in section.cards.enumerated() {
                guard let frame = layout.frame(ofCard: index) else {
                    return XCTFail("no frame for \(index)", file: file, line: line)
                }
                let location = layout.location(ofCard: index)
                XCTAssertEqual(location?.section, sectionIndex, file: file, line: line)
                XCTAssertEqual(location?.item, item, file: file, line: line)
                let expectedHeight = config.kind == .list ? (card.height ?? config.cardHeight) : config.cardHeight
                XCTAssertEqual(frame.height, expectedHeight, file: file, line: line)
                XCTAssertGreaterThanOrEqual(frame.x, config.insets.left - 1e-9, file: file, line: line)
                XCTAssertLessThanOrEqual(
                    frame.maxX, Double(viewport.width) - config.insets.right + 1e-9, file: file, line: line)
                XCTAssertGreaterThanOrEqual(frame.y, config.insets.top, file: file, line: line)
                XCTAssertLessThanOrEqual(
                    frame.maxY, layout.contentHeight - config.insets.bottom + 1e-9, file: file, line: line)
                if config.kind == .grid {
                    XCTAssertEqual(
                        frame.x,
                        config.insets.left + Double(item % config.columns) * (layout.cardWidth + config.spacing),
                        accuracy: 1e-9, file: file, line: line)
                }
                if let previous = frames.last, index > 0 {
                    let sameRow = config.kind == .grid && item % config.columns != 0
                    if sameRow {
                        XCTAssertEqual(frame.y, previous.y, file: file, line: line)
                        XCTAssertEqual(frame.x, previous.maxX + config.spacing, accuracy: 1e-9, file: file, line: line)
                    } else {
                        XCTAssertGreaterThanOrEqual(
                            frame.y, previous.maxY + config.spacing - 1e-9, file: file, line: line)
                    }
                }
                frames.append(frame)
                index += 1
            }
        }
        XCTAssertNil(layout.frame(ofCard: index), file: file, line: line)
        var headers: [(Int, Rect)] = []
        for section in deck.sections.indices {
            if let frame = layout.headerFrame(ofSection: section) { headers.append((section, frame)) }
            XCTAssertEqual(
                layout.headerFrame(ofSection: section) != nil, deck.sections[section].title != nil, file: file,
                line: line)
        }
        // No two things overlap.
        let all = frames + headers.map(\.1)
        for i in all.indices {
            for j in all.indices where j > i {
                XCTAssertFalse(all[i].intersects(all[j]), "\(all[i]) overlaps \(all[j])", file: file, line: line)
            }
        }
        // Content height: the last thing's bottom plus the bottom inset (or both insets when empty).
        let bottom = all.map(\.maxY).max() ?? config.insets.top
        XCTAssertEqual(layout.contentHeight, bottom + config.insets.bottom, accuracy: 1e-9, file: file, line: line)
        // The visible set at many offsets is exactly what intersects the viewport, in order.
        for offset in stride(from: -10.0, through: layout.maxOffset + 10, by: 37.5) {
            var items: [LayoutItem] = []
            layout.visibleItems(atOffset: offset, into: &items)
            let top = offset
            let bottomEdge = offset + Double(viewport.height)
            let expectedCards = frames.indices.filter { frames[$0].y < bottomEdge && frames[$0].maxY > top }
            let visibleCards = items.compactMap { item -> Int? in
                if case .card(let index, _, _, let frame) = item {
                    XCTAssertEqual(frame, frames[index], file: file, line: line)
                    return index
                }
                return nil
            }
            XCTAssertEqual(visibleCards, expectedCards, "offset \(offset)", file: file, line: line)
            let expectedHeaders = headers.filter { $0.1.y < bottomEdge && $0.1.maxY > top }.map(\.0)
            let visibleHeaders = items.compactMap { item -> Int? in
                if case .header(let section, _) = item { return section }
                return nil
            }
            XCTAssertEqual(visibleHeaders, expectedHeaders, "offset \(offset)", file: file, line: line)
        }
    }

    func testMillionCardDeckVisibleSets() {
        var deck = Deck()
        var section = Section(title: nil)
        section.cards = CardList((0..<1_000_000).map { Card(id: "c\($0)") })
        deck.sections = [section]
        let layout = CollectionLayout(deck: deck, viewport: PixelSize(width: 1920, height: 1080))
        let pitch = 160 + 24.0
        XCTAssertEqual(layout.contentHeight, 40 + 1_000_000 * pitch - 24 + 40)
        for offset in [0, 1234.5, 92_000_000, 183_999_000.25, layout.maxOffset] {
            var items: [LayoutItem] = []
            layout.visibleItems(atOffset: offset, into: &items)
            // Card k spans [40 + k·pitch, 40 + k·pitch + 160); check a window around the first
            // candidate by brute force.
            let first = Int(((offset - 40 - 160) / pitch).rounded(.down)) + 1
            let expectedIndices = (max(0, first - 1)...min(999_999, first + 8)).filter {
                let top = 40 + Double($0) * pitch
                return top < offset + 1080 && top + 160 > offset
            }
            let visible = items.compactMap { item -> Int? in
                if case .card(let index, _, _, _) = item { return index }
                return nil
            }
            XCTAssertEqual(visible, expectedIndices, "offset \(offset)")
            XCTAssertFalse(visible.isEmpty)
        }
        XCTAssertEqual(layout.frame(ofCard: 999_999)?.y, 40 + 999_999 * pitch)
    }
}
