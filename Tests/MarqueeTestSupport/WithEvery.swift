/// Runs `body` once for every value, naming the value in a failure (swift-collections' habit of
/// exhaustive small-case tests).
public func withEvery<S: Sequence>(
    _ label: String, in values: S, file: StaticString = #filePath, line: UInt = #line,
    _ body: (S.Element) throws -> Void
) rethrows {
    for value in values {
        do {
            try body(value)
        } catch {
            print("withEvery: failed with \(label) = \(value)")
            throw error
        }
    }
}
