import CPixman

/// The parts of a frame that a set of boxes leaves uncovered, as boxes: what the background fill
/// paints around the cards written as constants. Computed band by band (between consecutive box
/// edges) into storage kept across frames, so a steady frame allocates nothing here; pixman's
/// region subtraction, used before, allocated on every frame.
struct UncoveredBoxes {
    /// The uncovered boxes of the last `compute`, top to bottom, left to right.
    private(set) var result: [pixman_box32_t] = []
    private var holes: [pixman_box32_t] = []
    private var edges: [Int32] = []
    private var spans: [(start: Int32, end: Int32)] = []

    mutating func removeAllHoles() { holes.removeAll(keepingCapacity: true) }

    mutating func addHole(_ box: pixman_box32_t) {
        if box.x2 > box.x1 && box.y2 > box.y1 { holes.append(box) }
    }

    mutating func compute(width: Int32, height: Int32) {
        result.removeAll(keepingCapacity: true)
        guard width > 0, height > 0 else { return }
        edges.removeAll(keepingCapacity: true)
        edges.append(0)
        edges.append(height)
        for hole in holes {
            edges.append(min(max(hole.y1, 0), height))
            edges.append(min(max(hole.y2, 0), height))
        }
        Self.insertionSort(&edges) { $0 < $1 }
        var index = 0
        while index + 1 < edges.count {
            let top = edges[index]
            var next = index + 1
            while next < edges.count && edges[next] == top { next += 1 }
            guard next < edges.count else { break }
            let bottom = edges[next]
            index = next
            spans.removeAll(keepingCapacity: true)
            for hole in holes where hole.y1 <= top && hole.y2 >= bottom {
                let start = max(hole.x1, 0)
                let end = min(hole.x2, width)
                if end > start { spans.append((start, end)) }
            }
            Self.insertionSort(&spans) { $0.start < $1.start }
            var x: Int32 = 0
            for span in spans {
                if span.start > x { result.append(pixman_box32_t(x1: x, y1: top, x2: span.start, y2: bottom)) }
                x = max(x, span.end)
            }
            if x < width { result.append(pixman_box32_t(x1: x, y1: top, x2: width, y2: bottom)) }
        }
    }

    /// A few dozen elements: insertion sort, which (unlike the standard library's sort) never
    /// allocates a scratch buffer.
    private static func insertionSort<Element>(_ array: inout [Element], by less: (Element, Element) -> Bool) {
        guard array.count > 1 else { return }
        for index in 1..<array.count {
            let element = array[index]
            var position = index
            while position > 0 && less(element, array[position - 1]) {
                array[position] = array[position - 1]
                position -= 1
            }
            array[position] = element
        }
    }
}
