import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The compositor's counts of steps within a distance (`steps(within:perStep:)`, in integers):
/// never more than the steps that fit, which would blend a pixel whose sample has left the run,
/// and at most one fewer.
final class TurnedCardStepsTests: XCTestCase {
    func testStepCountsAreExactOrOneShortNeverLong() {
        var random = SplitMix64(seed: 7)
        var short = 0
        for round in 0..<200_000 {
            let step = UInt64(1 + random.next() % (round % 2 == 0 ? 0x30000 : 0x7FFF_FFFF))
            let distance = Int32(1 + random.next() % UInt64(Int32.max))
            let fits = (Int(distance) - 1) / Int(step) + 1
            let counted = TurnedCardCompositor.steps(within: distance, perStep: UInt64(1 << 32) / step)
            XCTAssertTrue(counted == fits || counted == fits - 1, "\(distance) by \(step): \(counted), not \(fits)")
            if counted != fits { short += 1 }
        }
        // Exact steps and distances at the edges: a step of one, a distance of one.
        XCTAssertEqual(TurnedCardCompositor.steps(within: 1, perStep: UInt64(1 << 32) / 0x10000), 1)
        XCTAssertEqual(TurnedCardCompositor.steps(within: 0x10001, perStep: UInt64(1 << 32) / 0x10000), 2)
        XCTAssertEqual(TurnedCardCompositor.steps(within: 0x10000, perStep: UInt64(1 << 32) / 0x10000), 1)
        XCTAssertEqual(TurnedCardCompositor.steps(within: Int32.max, perStep: UInt64(1 << 32)), Int(Int32.max))
        XCTAssertLessThan(short, 200_000 / 4, "mostly exact")
    }
}
