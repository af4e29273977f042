import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeRender

/// One band scan-out path of `marquee bench --scanout --band-rows N`: the frame rendered in
/// windows of N rows into a band buffer, each window copied at once (turned, converted) into
/// the back scan-out buffer, as the DRM backend would present without a shadow frame.
final class BenchBandPath {
    let scanout: BandScanout
    let band: BandBuffer

    /// True for the path the DRM backend takes (its band height): reported under the plain path
    /// name ("rotate 90 XRGB8888"), the others as "bands N rotate 90 XRGB8888".
    let isDisplayPath: Bool
    /// Whether the renderer leaves the plain fills to the copy where it can (`ConstantSpans`), as
    /// the DRM backend does; off for `MARQUEE_BENCH_SPANS=off`, to compare.
    let usesSpans = getenv("MARQUEE_BENCH_SPANS").map { String(cString: $0) != "off" } ?? true

    init(frameSize: PixelSize, rows: Int, rotation: Rotation, format: ScanoutFormat, isDisplayPath: Bool = false) {
        // The copies skip the fills each buffer already holds (`HeldSpans`), as DRM's do; not
        // for `MARQUEE_BENCH_HELD=off`, to compare.
        let skipsHeldFills = getenv("MARQUEE_BENCH_HELD").map { String(cString: $0) != "off" } ?? true
        scanout = BandScanout(
            frameSize: frameSize, rotation: rotation, format: format, skipsHeldFills: skipsHeldFills)
        band = BandBuffer(
            frameWidth: frameSize.width, frameHeight: frameSize.height, rows: rows,
            phase: FrameCopier.bandPhase(frameHeight: frameSize.height, rows: rows, rotation: rotation))
        self.isDisplayPath = isDisplayPath
    }

    var name: String {
        let path = "rotate \(scanout.rotation.rawValue) \(scanout.format)"
        return isDisplayPath ? path : "bands \(band.rows) \(path)"
    }

    /// Renders `list` into the back buffer in bands and flips it, as DRM's present would; a frame
    /// equal to the one on screen draws and flips nothing. Returns the rows that differ from it.
    func render(_ list: DisplayList, deck: Deck, with renderer: Renderer) throws(RenderError) -> RowBands {
        scanout.resetCopyTime()
        let scanout = self.scanout
        let spans = usesSpans ? scanout.spans(bandRows: band.rows) : nil
        let changed = try renderer.render(
            list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: band, spans: spans
        ) { frame, window in scanout.copy(frame, rows: window, spans: spans) }
        // The flip finishes the copies (timed with them); a frame with no changed rows copied none.
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
    /// The display's band paths (the DRM backend's band height, under the plain path names), then
    /// those `bandRows` asks for: each rotation in XRGB8888, then RGB565 unturned and turned.
    func bandPaths() -> [BenchBandPath] {
        func paths(_ rows: Int, display: Bool) -> [BenchBandPath] {
            Rotation.allCases.map {
                BenchBandPath(frameSize: size, rows: rows, rotation: $0, format: .xrgb8888, isDisplayPath: display)
            } + [
                BenchBandPath(frameSize: size, rows: rows, rotation: .none, format: .rgb565, isDisplayPath: display),
                BenchBandPath(frameSize: size, rows: rows, rotation: .quarter, format: .rgb565, isDisplayPath: display),
            ]
        }
        return paths(DRMBackend.rowsPerBand, display: true) + bandRows.flatMap { paths($0, display: false) }
    }
}
