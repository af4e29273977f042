import XCTest

@testable import MarqueeCore

/// The keyed hash of card ids (`IDTable.hash`): every byte and the length count, equal ids hash
/// alike wherever their bytes lie, and ids that differ only in a counter spread over the table.
final class IDHashTests: XCTestCase {
    private func hash(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBufferPointer { IDTable.hash($0) } }

    func testEveryByteAndTheLengthCount() {
        for length in 1...40 {
            let id = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let base = hash(id)
            XCTAssertNotEqual(base & 1, 0, "never an empty slot's 0")
            for place in 0..<length {
                var changed = id
                changed[place] ^= 0x01
                XCTAssertNotEqual(hash(changed), base, "length \(length), byte \(place)")
            }
            XCTAssertNotEqual(hash(id + [0]), base, "length \(length) and one zero byte more")
        }
        XCTAssertNotEqual(hash([]), hash([0]))
    }

    func testEqualIDsHashAlikeWhereverTheyLie() {
        let id = Array("departure-000123-platform".utf8)
        let expected = hash(id)
        for offset in 0..<8 {
            let buffer = [UInt8](repeating: 0xEE, count: offset) + id + [0xEE]
            buffer.withUnsafeBufferPointer { all in
                XCTAssertEqual(IDTable.hash(UnsafeBufferPointer(rebasing: all[offset..<offset + id.count])), expected)
            }
        }
    }

    /// 100,000 ids "card-N" in a table of 2^18 slots (what a table of that many ids has): the
    /// first slots they take are about as many and as evenly filled as random ones would be
    /// (about 82,000 distinct; a hash that left out the counter's last bytes would give a few).
    func testCountedIDsSpreadOverTheTable() {
        var perSlot = [UInt8](repeating: 0, count: 1 << 18)
        for number in 0..<100_000 {
            let slot = Int(hash(Array("card-\(number)".utf8)) >> 1) & (perSlot.count - 1)
            perSlot[slot] &+= 1
        }
        let used = perSlot.filter { $0 > 0 }.count
        XCTAssertGreaterThan(used, 78_000)
        XCTAssertLessThanOrEqual(perSlot.max()!, 10)
    }
}
