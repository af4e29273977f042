import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// `SolidFill` writes what `pixman_image_fill_boxes` with `PIXMAN_OP_SRC` writes: every width from
/// 0 to 40 (the in-place stores of rows up to 16 pixels, overlapping where the width is not a
/// multiple of four, and wmemset beyond), at every start within a 16-byte line, boxes partly off
/// the image and outside its clip rows, over a target of random pixels whose neighbours must
/// stay as they were.
final class SolidFillTests: XCTestCase {
    func testBoxesOfEveryWidthMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 19)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let (width, height) = (67, 23)
        let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let got = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
        let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
        var differing = 0
        for boxWidth in 0...40 {
            for left in -3..<(width - boxWidth + 3) {
                let clip = below(4) == 0 ? below(8)..<(10 + below(12)) : nil
                expected.clip(toRows: clip)
                got.clip(toRows: clip)
                for index in 0..<(expected.stride / 4 * height) {
                    let pixel = UInt32(truncatingIfNeeded: random.next())
                    a[index] = pixel
                    b[index] = pixel
                }
                var color = pixman_color_t(
                    red: UInt16(below(0x10000)), green: UInt16(below(0x10000)), blue: UInt16(below(0x10000)),
                    alpha: 0xFFFF)
                let top = below(height + 4) - 2
                let box = pixman_box32_t(
                    x1: Int32(left), y1: Int32(top), x2: Int32(left + boxWidth), y2: Int32(top + below(height)))
                // pixman does not clip a filled box to the image (SolidFill does): give it the part inside.
                var inside = pixman_box32_t(
                    x1: max(box.x1, 0), y1: max(box.y1, 0), x2: min(box.x2, Int32(width)),
                    y2: min(box.y2, Int32(height)))
                if inside.x2 > inside.x1, inside.y2 > inside.y1 {
                    pixman_image_fill_boxes(PIXMAN_OP_SRC, expected.handle, &color, 1, &inside)
                }
                SolidFill.fill(box, with: color, of: got)
                for index in 0..<(expected.stride / 4 * height) where a[index] != b[index] {
                    if differing < 5 {
                        XCTFail(
                            "box \(box) width \(boxWidth): pixel \(index) pixman \(String(a[index], radix: 16)), "
                                + "SolidFill \(String(b[index], radix: 16))")
                    }
                    differing += 1
                }
            }
        }
        XCTAssertEqual(differing, 0)
    }
}
