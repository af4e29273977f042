import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

@testable import MarqueeDisplay

/// fbdev's scan-out fed the renderer's bands, as `FbdevBackend.present` does: on a 480x320 board
/// with a seconds clock in a top band and a marquee in a bottom band (what an SPI panel shows all
/// day), every frame's RGB565 page equals the whole frame converted, the clock and the marquee
/// come as two bands, and hashing within the bands writes far fewer rows than the bands hold (the
/// reason fbdev keeps the hash for small bands: docs/architecture.md).
final class FbdevBandsTests: XCTestCase {
    static let size = PixelSize(width: 480, height: 320)

    override func setUp() {
        setenv("TZ", "UTC", 1)
        tzset()
    }

    static func deck() throws -> Deck {
        let cards = (0..<12).map { "{\"id\": \"c\($0)\", \"title\": \"Card \($0)\", \"body\": \"Under the bands\"}" }
            .joined(separator: ",")
        return try DeckDecoder.decode(
            """
            {"layout": {"insets": 10, "spacing": 8, "cardHeight": 70},
             "style": {"background": "#203048", "cornerRadius": 10, "bodySize": 14, "titleSize": 20, "padding": 10,
                       "cardColor": "#f4f1ea"},
             "templates": {
               "bar": {"elements": [
                 {"box": "#0d1a2b", "left": 0, "right": 0, "top": 0, "bottom": 0},
                 {"text": "title", "left": 16, "top": 14, "right": 140, "size": 26, "weight": "bold", "color": "#ffffff"},
                 {"clock": "%H:%M:%S", "right": 16, "top": 14, "width": 120, "size": 26, "align": "end", "color": "#ffd54f"}
               ]},
               "strip": {"elements": [
                 {"box": "#8b1e1e", "left": 0, "right": 0, "top": 0, "bottom": 0},
                 {"text": "note", "left": 16, "right": 16, "top": 6, "size": 16, "overflow": "marquee",
                  "speed": 60, "pause": 0.5, "color": "#ffffff"}
               ]}
             },
             "overlays": [
               {"edge": "top", "height": 60, "template": "bar", "fields": {"title": "Departures"}},
               {"edge": "bottom", "height": 32, "template": "strip",
                "fields": {"note": "Platform 4 is closed today; trains to the coast leave from platform 6 until further notice"}}
             ],
             "sections": [{"cards": [\(cards)]}]}
            """)
    }

    func testAClockAndAMarqueeReachTheRGB565PageAsTwoHashedBands() throws {
        let deck = try Self.deck()
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        scene.clockOffset = 1_699_920_000 + 45_296 - 10  // 12:34:56 UTC at time 10
        var list = DisplayList()
        let frame = PixelBuffer(width: Self.size.width, height: Self.size.height)
        let bytesPerRow = Self.size.width * 2
        let page = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * Self.size.height, alignment: 64)
        let whole = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * Self.size.height, alignment: 64)
        defer {
            page.deallocate()
            whole.deallocate()
        }
        func surface(_ base: UnsafeMutableRawPointer) -> ScanoutSurface {
            ScanoutSurface(
                base: base, bytesPerRow: bytesPerRow, width: Self.size.width, height: Self.size.height, format: .rgb565)
        }
        let damage = ScanoutDamage(rows: Self.size.height, buffers: 1)
        var bandRows = 0
        var writtenRows = 0
        var framesWithTwoBands = 0
        // 2.5 s at 60 Hz from 10.5 s (the note moving): the clock changes at 11, 12 and 13 s.
        for k in 0...150 {
            let time = 10.5 + Double(k) / 60
            _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
            let changed = try renderer.render(list, deck: scene.deck, into: frame)
            damage.measure(frame, bands: changed)
            var written = 0
            damage.forEachChangedRun(inBuffer: 0) { written += $0.count }
            damage.copyChangedRows(of: frame, into: surface(page), buffer: 0, rotation: .none)
            FrameCopier.copy(frame, rows: 0..<Self.size.height, to: surface(whole), rotation: .none)
            XCTAssertEqual(
                memcmp(page, whole, bytesPerRow * Self.size.height), 0, "frame \(k): the page differs from the frame")
            guard k > 0 else { continue }
            XCTAssertLessThanOrEqual(changed.rowCount * 2, Self.size.height, "frame \(k): \(changed)")
            if changed.count == 2 { framesWithTwoBands += 1 }
            bandRows += changed.rowCount
            writtenRows += written
        }
        XCTAssertGreaterThanOrEqual(framesWithTwoBands, 3, "the clock's changes come with the marquee's, as two bands")
        XCTAssertLessThan(
            writtenRows * 4, bandRows * 3,
            "hashing within the bands writes \(writtenRows) rows of their \(bandRows): the hash no longer pays")
    }
}
