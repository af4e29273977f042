/// What each element adds to the sums a treap keeps for every subtree.
public protocol TreapSummary: Sendable {
    /// The empty sum.
    init()
    mutating func add(_ other: Self)
}

/// An element of an `ImplicitTreap`, with what it adds to the sums.
public protocol TreapElement: Sendable {
    associatedtype Summary: TreapSummary
    var summary: Summary { get }
}

/// For elements that need positions only.
public struct NoSummary: TreapSummary {
    public init() {}
    public mutating func add(_ other: NoSummary) {}
}

/// The one balanced tree behind `HeightIndex` and `CardList`: a sequence ordered by position with
/// O(log n) access, insert and remove at any position, sums over any prefix, and descent by those
/// sums ("which element holds offset y"). An implicit treap: nodes live in one array (one
/// allocation for a million elements, not a million), are ordered by position, and are balanced
/// by random choices when trees are joined, with probability proportional to subtree size, so no
/// priorities are stored. Nodes know their parent, so a node's position can be found from the node
/// (an id map keeps node handles). A sequence is built perfectly balanced in O(n).
/// See docs/architecture.md, "Height index".
struct ImplicitTreap<Element: TreapElement>: Sendable {
    /// A node's place in the node array: stable while the element is in the tree.
    typealias Handle = Int32

    private struct Node: Sendable {
        var element: Element
        var subtree: Element.Summary
        var left: Handle
        var right: Handle
        var parent: Handle
        var count: Int32
    }

    static var none: Handle { -1 }
    private var nodes: [Node] = []
    private var freeNodes: [Handle] = []
    private var root: Handle = -1
    /// A fixed seed: the tree's shape, and so its speed, is the same on every run.
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    init<S: Sequence>(_ elements: S, seed: UInt64) where S.Element == Element {
        random = SplitMix64(seed: seed)
        nodes.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            nodes.append(Node(element: element, subtree: element.summary, left: -1, right: -1, parent: -1, count: 1))
        }
        setRoot(buildBalanced(0, nodes.count))
    }

    private mutating func buildBalanced(_ lower: Int, _ upper: Int) -> Handle {
        guard lower < upper else { return Self.none }
        let middle = (lower + upper) / 2
        setLeft(Handle(middle), buildBalanced(lower, middle))
        setRight(Handle(middle), buildBalanced(middle + 1, upper))
        update(Handle(middle))
        return Handle(middle)
    }

    // MARK: Node bookkeeping

    private func count(_ node: Handle) -> Int { node == Self.none ? 0 : Int(nodes[Int(node)].count) }

    private func summary(_ node: Handle) -> Element.Summary { node == Self.none ? .init() : nodes[Int(node)].subtree }

    private mutating func update(_ node: Handle) {
        let index = Int(node)
        var sum = summary(nodes[index].left)
        sum.add(nodes[index].element.summary)
        sum.add(summary(nodes[index].right))
        nodes[index].subtree = sum
        nodes[index].count = Int32(1 + count(nodes[index].left) + count(nodes[index].right))
    }

    private mutating func setLeft(_ node: Handle, _ child: Handle) {
        nodes[Int(node)].left = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func setRight(_ node: Handle, _ child: Handle) {
        nodes[Int(node)].right = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func setRoot(_ node: Handle) {
        root = node
        if node != Self.none { nodes[Int(node)].parent = Self.none }
    }

    // MARK: Queries

    var count: Int { count(root) }

    /// Every handle in use is below this (for tables indexed by handle).
    var handleBound: Int { nodes.count }
    var isEmpty: Bool { root == Self.none }
    /// Sums over every element.
    var totals: Element.Summary { summary(root) }

    /// The node at `position` (0..<count).
    func handle(at position: Int) -> Handle {
        precondition(position >= 0 && position < count, "ImplicitTreap: position \(position) out of 0..<\(count)")
        var node = root
        var remaining = position
        while true {
            let leftCount = count(nodes[Int(node)].left)
            if remaining < leftCount {
                node = nodes[Int(node)].left
            } else if remaining == leftCount {
                return node
            } else {
                remaining -= leftCount + 1
                node = nodes[Int(node)].right
            }
        }
    }

    func element(_ handle: Handle) -> Element { nodes[Int(handle)].element }

    subscript(position: Int) -> Element { nodes[Int(handle(at: position))].element }

    /// Replaces the element at `position`, updating the sums above it.
    mutating func replace(at position: Int, with element: Element) {
        var node = handle(at: position)
        nodes[Int(node)].element = element
        while node != Self.none {
            update(node)
            node = nodes[Int(node)].parent
        }
    }

    /// The position of a node: O(log n) through its parents.
    func position(of handle: Handle) -> Int {
        var node = handle
        var position = count(nodes[Int(node)].left)
        while nodes[Int(node)].parent != Self.none {
            let parent = nodes[Int(node)].parent
            if nodes[Int(parent)].right == node { position += count(nodes[Int(parent)].left) + 1 }
            node = parent
        }
        return position
    }

    /// Sums over the elements before `position` (0...count).
    func summary(before position: Int) -> Element.Summary {
        precondition(position >= 0 && position <= count, "ImplicitTreap: position \(position) out of 0...\(count)")
        var result = Element.Summary()
        var node = root
        var remaining = position
        while node != Self.none, remaining > 0 {
            let leftCount = count(nodes[Int(node)].left)
            if remaining <= leftCount {
                node = nodes[Int(node)].left
            } else {
                result.add(summary(nodes[Int(node)].left))
                result.add(nodes[Int(node)].element.summary)
                remaining -= leftCount + 1
                node = nodes[Int(node)].right
            }
        }
        return result
    }

    enum Direction { case left, here, right }

    /// Walks down from the root. `choose` sees the sums of everything before the node (what was
    /// passed plus the node's left subtree) and the node's element. Returns the position chosen
    /// (`count` if the walk fell off the right) and the sums before it.
    func descend(_ choose: (_ before: Element.Summary, _ element: Element) -> Direction) -> (
        position: Int, before: Element.Summary
    ) {
        var passed = Element.Summary()
        var passedCount = 0
        var node = root
        while node != Self.none {
            var before = passed
            before.add(summary(nodes[Int(node)].left))
            let beforeCount = passedCount + count(nodes[Int(node)].left)
            switch choose(before, nodes[Int(node)].element) {
            case .left:
                node = nodes[Int(node)].left
            case .here:
                return (beforeCount, before)
            case .right:
                passed = before
                passed.add(nodes[Int(node)].element.summary)
                passedCount = beforeCount + 1
                node = nodes[Int(node)].right
            }
        }
        return (passedCount, passed)
    }

    // MARK: Changes

    /// Inserts `element` so that it becomes element `position` (0...count); returns its node.
    @discardableResult
    mutating func insert(_ element: Element, at position: Int) -> Handle {
        precondition(position >= 0 && position <= count, "ImplicitTreap.insert: \(position) out of 0...\(count)")
        let node = Node(element: element, subtree: element.summary, left: -1, right: -1, parent: -1, count: 1)
        let handle: Handle
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = node
            handle = reused
        } else {
            nodes.append(node)
            handle = Handle(nodes.count - 1)
        }
        let (left, right) = split(root, position)
        setRoot(merge(merge(left, handle), right))
        return handle
    }

    /// Removes element `position`; `placeholder` takes its slot so that what it held (strings) is
    /// released now, not when the slot is reused.
    @discardableResult
    mutating func remove(at position: Int, placeholder: Element) -> (element: Element, handle: Handle) {
        precondition(position >= 0 && position < count, "ImplicitTreap.remove: \(position) out of 0..<\(count)")
        let (left, rest) = split(root, position)
        let (single, right) = split(rest, 1)
        let element = nodes[Int(single)].element
        nodes[Int(single)].element = placeholder
        freeNodes.append(single)
        setRoot(merge(left, right))
        return (element, single)
    }

    mutating func reserveCapacity(_ capacity: Int) { nodes.reserveCapacity(capacity) }

    /// Splits the tree under `node` into its first `position` elements and the rest (two roots).
    private mutating func split(_ node: Handle, _ position: Int) -> (Handle, Handle) {
        guard node != Self.none else { return (Self.none, Self.none) }
        let leftCount = count(nodes[Int(node)].left)
        if position <= leftCount {
            let (first, second) = split(nodes[Int(node)].left, position)
            setLeft(node, second)
            if first != Self.none { nodes[Int(first)].parent = Self.none }
            update(node)
            return (first, node)
        } else {
            let (first, second) = split(nodes[Int(node)].right, position - leftCount - 1)
            setRight(node, first)
            if second != Self.none { nodes[Int(second)].parent = Self.none }
            update(node)
            return (node, second)
        }
    }

    /// Joins two trees, all of `left` before all of `right`; the root is chosen with probability
    /// proportional to subtree size (a "randomized meldable" treap).
    private mutating func merge(_ left: Handle, _ right: Handle) -> Handle {
        if left == Self.none { return right }
        if right == Self.none { return left }
        let leftCount = UInt64(count(left))
        let rightCount = UInt64(count(right))
        if random.next() % (leftCount + rightCount) < leftCount {
            setRight(left, merge(nodes[Int(left)].right, right))
            update(left)
            return left
        } else {
            setLeft(right, merge(left, nodes[Int(right)].left))
            update(right)
            return right
        }
    }

    // MARK: Building one element at a time

    /// Appends `element` without linking it into the tree, for building a tree from elements that
    /// arrive one at a time (decoding a deck) in O(n) instead of O(n log n). Only for a tree made
    /// this way; `finishAppending()` links them, balanced, before any other use.
    mutating func appendUnlinked(_ element: Element) -> Handle {
        precondition(root == Self.none && freeNodes.isEmpty, "ImplicitTreap.appendUnlinked: the tree is in use")
        nodes.append(Node(element: element, subtree: element.summary, left: -1, right: -1, parent: -1, count: 1))
        return Handle(nodes.count - 1)
    }

    /// Links the elements given to `appendUnlinked`, in their order, into a balanced tree.
    mutating func finishAppending() {
        guard root == Self.none else { return }
        setRoot(buildBalanced(0, nodes.count))
    }

    /// Changes every element in place (in order), for changes that leave the sums as they are
    /// (moving an element's data elsewhere).
    mutating func rewriteElements(_ body: (inout Element) -> Void) {
        for handle in handlesInOrder() { body(&nodes[Int(handle)].element) }
    }

    /// Calls `body` with every node's handle and element, in order (walking the tree, without an
    /// array of every handle first: `apply`'s difference walks two trees of 100,000 cards).
    func forEachInOrder(_ body: (Handle, Element) -> Void) {
        var stack: [Handle] = []
        stack.reserveCapacity(64)
        var pending = root
        while true {
            while pending != Self.none {
                stack.append(pending)
                pending = nodes[Int(pending)].left
            }
            guard let top = stack.popLast() else { return }
            body(top, nodes[Int(top)].element)
            pending = nodes[Int(top)].right
        }
    }

    /// Every node's handle, in order (O(n), one array).
    private func handlesInOrder() -> [Handle] {
        var handles: [Handle] = []
        handles.reserveCapacity(count)
        var stack: [Handle] = []
        var pending = root
        while true {
            while pending != Self.none {
                stack.append(pending)
                pending = nodes[Int(pending)].left
            }
            guard let top = stack.popLast() else { return handles }
            handles.append(top)
            pending = nodes[Int(top)].right
        }
    }

    // MARK: Whole-tree views

    /// Elements in order, O(n).
    struct Iterator: IteratorProtocol {
        fileprivate let tree: ImplicitTreap
        fileprivate var stack: [Handle] = []
        fileprivate var pending: Handle

        mutating func next() -> Element? {
            while pending != ImplicitTreap.none {
                stack.append(pending)
                pending = tree.nodes[Int(pending)].left
            }
            guard let top = stack.popLast() else { return nil }
            pending = tree.nodes[Int(top)].right
            return tree.nodes[Int(top)].element
        }
    }

    func makeIterator() -> Iterator { Iterator(tree: self, pending: root) }

    /// The tree's height (for tests that check it stays logarithmic).
    var depth: Int {
        func depth(_ node: Handle) -> Int {
            node == Self.none ? 0 : 1 + max(depth(nodes[Int(node)].left), depth(nodes[Int(node)].right))
        }
        return depth(root)
    }
}
