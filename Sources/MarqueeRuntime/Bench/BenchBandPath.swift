import MarqueeCore
import MarqueeDisplay
import MarqueeRender

/// One band scan-out path of `marquee bench --scanout --band-rows N`: the frame rendered in
/// windows of N rows into a band buffer, each window copied at once (turned, converted) into
/// the back scan-out buffer, as the DRM backend would present without a shadow frame.
final class BenchBandPath {
    let scanout: BandScanout
    let band: BandBuffer

    init(frameSize: PixelSize, rows: Int, rotation: Rotation, format: ScanoutFormat) {
        scanout = BandScanout(frameSize: frameSize, rotation: rotation, format: format)
        band = BandBuffer(frameWidth: frameSize.width, frameHeight: frameSize.height, rows: rows)
    }

    var name: String { "bands \(band.rows) rotate \(scanout.rotation.rawValue) \(scanout.format)" }

    /// Renders `list` into the back buffer in bands and flips it, as DRM's present would; a frame
    /// equal to the one on screen draws and flips nothing. Returns the rows that differ from it.
    func render(_ list: DisplayList, deck: Deck, with renderer: Renderer) throws(RenderError) -> RowBands {
        scanout.resetCopyTime()
        let scanout = self.scanout
        let changed = try renderer.render(
            list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: band
        ) { frame, window in scanout.copy(frame, rows: window) }
        if !changed.isEmpty { scanout.flip() }
        return changed
    }

    /// Milliseconds to present `list` again, the frame on screen (nothing is drawn or copied).
    func timeUnchanged(_ list: DisplayList, deck: Deck, with renderer: Renderer) throws(RuntimeError) -> Double {
        let start = MonotonicClock.now()
        do {
            _ = try renderer.render(list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: band) {
                _, _ in
            }
        } catch {
            throw RuntimeError(error.message)
        }
        return (MonotonicClock.now() - start) * 1000
    }
}

extension BenchRunner {
    /// The band paths `bandRows` asks for: each rotation in XRGB8888, then RGB565 unturned and
    /// turned, per band height.
    func bandPaths() -> [BenchBandPath] {
        bandRows.flatMap { rows in
            Rotation.allCases.map { BenchBandPath(frameSize: size, rows: rows, rotation: $0, format: .xrgb8888) } + [
                BenchBandPath(frameSize: size, rows: rows, rotation: .none, format: .rgb565),
                BenchBandPath(frameSize: size, rows: rows, rotation: .quarter, format: .rgb565),
            ]
        }
    }
}
