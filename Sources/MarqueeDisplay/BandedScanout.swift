import MarqueeCore

/// A backend whose frames are drawn in bands straight into its scan-out buffers, without a whole
/// frame in ordinary memory (DRM: docs/architecture.md, "Bands straight into the scan-out buffer").
/// The runtime draws through `presentInBands` instead of `frameBuffer()` and `present`.
public protocol BandedScanout: AnyObject {
    /// Rows per band: the band buffer's height (the renderer draws that many rows at a time).
    var bandRows: Int { get }
    /// Rows the band grid is moved up by, so that band edges fall on the copy's own grid
    /// (`FrameCopier.bandPhase`): the first band has `bandRows - bandPhase` rows.
    var bandPhase: Int { get }
    /// Presents the next frame, to be seen at `time.targetTimestamp`. Unless the display shows
    /// nothing now, `draw` is called once with the back buffer (by identity: the renderer keeps a
    /// record of the frame each buffer holds), the buffer on screen (nil when its content does not
    /// count: nothing shown yet, or a frame to be committed whole), the table of fills the copy
    /// writes itself (`ConstantSpans`, nil when it writes none: the renderer then writes every
    /// fill into the band) and `copy`, which writes the given rows of a frame (a band's frame
    /// view) into the back buffer, turned and converted, with the table's spans of those rows.
    /// `draw` returns the bands of rows that differ from the frame on screen (empty: nothing to
    /// show, and nothing is committed), or nil when it failed (nothing is committed either).
    func presentInBands(
        at time: FrameTime,
        draw: (
            _ target: AnyObject, _ onScreen: AnyObject?, _ spans: ConstantSpans?,
            _ copy: (_ frame: PixelBuffer, _ rows: Range<Int>) -> Void
        ) -> RowBands?
    ) throws(DisplayError)
}
