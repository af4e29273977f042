import Glibc
import MarqueeCore

/// What edits cost on big decks, for `marquee bench --edits`: a one-edit batch, and an `apply`
/// of a state with 10 changes, split into the parts that run on the loader thread (decoding the
/// state, finding the difference) and the part on the frame path (replaying the difference in
/// the scene). Timed in this process, on the cards-1080p deck, in CPU time of this thread (what
/// the work costs; a shared machine's waits for a core are not counted).
public enum EditBench {
    public struct Figures {
        public var cards: Int
        /// Median over 21 one-edit batches (an insert each, `performAll`).
        public var batchInsertMilliseconds: Double
        /// The same insert outside a batch.
        public var plainInsertMilliseconds: Double
        public var applyChanges: Int
        public var applyDecodeMilliseconds: Double
        public var applyDiffMilliseconds: Double
        public var applyFramePathMilliseconds: Double

        public var jsonLine: String {
            var json = JSONWriter()
            json.beginObject()
            json.member("bench", "edits")
            json.member("cards", cards)
            json.member("batch_insert_ms", BenchRunner.Result.rounded(batchInsertMilliseconds))
            json.member("plain_insert_ms", BenchRunner.Result.rounded(plainInsertMilliseconds))
            json.member("apply_changes", applyChanges)
            json.member("apply_decode_ms", BenchRunner.Result.rounded(applyDecodeMilliseconds))
            json.member("apply_diff_ms", BenchRunner.Result.rounded(applyDiffMilliseconds))
            json.member("apply_frame_path_ms", BenchRunner.Result.rounded(applyFramePathMilliseconds))
            json.endObject()
            return json.string
        }
    }

    public static func run(cards: Int) throws -> Figures {
        let deck = BenchRunner.deck(cards: cards)
        var scene = Scene(deck: deck, viewport: PixelSize(width: 1920, height: 1080))
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)

        var batch: [Double] = []
        var plain: [Double] = []
        for round in 0..<21 {
            let card = Card(id: "bench-\(round)", title: "Inserted")
            var start = cpuNow()
            try scene.performAll([.insert(.index(cards / 2), card)], tag: nil)
            batch.append((cpuNow() - start) * 1000)
            try scene.perform(.delete(.id(card.id)))
            start = cpuNow()
            try scene.perform(.insert(.index(cards / 2), card))
            plain.append((cpuNow() - start) * 1000)
            try scene.perform(.delete(.id(card.id)))
        }

        // The new state: 3 cards gone, 3 new, 2 moved, 2 changed, spread over the deck.
        var new = scene.deck
        var cardsNow = Array(new.sections[0].cards)
        for position in [cards / 5, cards / 2, cards - 10] { cardsNow.remove(at: position) }
        for (number, position) in [cards / 7, cards / 3, cards / 2].enumerated() {
            cardsNow.insert(Card(id: "new-\(number)", title: "New \(number)", body: "Just in"), at: position)
        }
        cardsNow.swapAt(10, cards / 4)
        cardsNow[cards / 6].body = "Delayed"
        cardsNow[cards / 8].title = "Platform changed"
        let text = stateJSON(cardsNow)

        var start = cpuNow()
        var decoded = try DeckDecoder.decode(text: text)
        let decodeTime = (cpuNow() - start) * 1000
        decoded.style = new.style
        decoded.layout = new.layout
        decoded.bindings = new.bindings
        new = decoded

        start = cpuNow()
        let diff = DeckDiff(from: scene.deck, to: new)
        let diffTime = (cpuNow() - start) * 1000

        start = cpuNow()
        let applied = scene.apply(new, precomputed: (diff, scene.deckVersion), tag: nil)
        let replayTime = (cpuNow() - start) * 1000
        let changes = applied.diff.inserted + applied.diff.deleted + applied.diff.moved + applied.diff.updated

        return Figures(
            cards: cards, batchInsertMilliseconds: median(batch), plainInsertMilliseconds: median(plain),
            applyChanges: changes, applyDecodeMilliseconds: decodeTime, applyDiffMilliseconds: diffTime,
            applyFramePathMilliseconds: replayTime)
    }

    /// A deck file of one section with these cards.
    static func stateJSON(_ cards: [Card]) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("sections")
        json.beginArray()
        json.beginObject()
        json.key("cards")
        json.beginArray()
        for card in cards {
            json.beginObject()
            json.member("id", card.id)
            json.member("title", card.title)
            json.member("body", card.body)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        return json.string
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Seconds of CPU this thread has used.
    static func cpuNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
