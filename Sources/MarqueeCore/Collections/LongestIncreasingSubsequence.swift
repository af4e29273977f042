/// The positions of one longest strictly increasing subsequence of `values`, in order: the
/// elements that may stay where they are while the others move (patience sorting, O(n log n)).
public func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    // tails[k]: the position of the smallest value ending an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
        // A value above every tail extends the longest run: for the nearly sorted values of an
        // `apply` (the kept cards of 100,000 in their old order) that is nearly every value, and
        // needs no search.
        if let last = tails.last, values[last] < value {
            previous[position] = last
            tails.append(position)
            continue
        }
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[position] = tails[low - 1] }
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var result: [Int] = []
    result.reserveCapacity(tails.count)
    var position = tails.last ?? -1
    while position >= 0 {
        result.append(position)
        position = previous[position]
    }
    return result.reversed()
}

/// The positions of a strictly increasing subsequence of `values` with the largest total weight,
/// in order. Quadratic: for short lists (a deck's sections), where a section with many cards that
/// can stay outweighs several near-empty ones.
public func heaviestIncreasingSubsequence(_ values: [Int], weights: [Int]) -> [Int] {
    precondition(values.count == weights.count, "heaviestIncreasingSubsequence: one weight per value")
    var best = weights
    var previous = [Int](repeating: -1, count: values.count)
    for position in values.indices {
        for earlier in 0..<position where values[earlier] < values[position] {
            if best[earlier] + weights[position] > best[position] {
                best[position] = best[earlier] + weights[position]
                previous[position] = earlier
            }
        }
    }
    guard var position = best.indices.max(by: { best[$0] < best[$1] }) else { return [] }
    var result: [Int] = []
    while position >= 0 {
        result.append(position)
        position = previous[position]
    }
    return result.reversed()
}
