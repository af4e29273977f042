import MarqueeCore
import MarqueeDisplay
import MarqueeRender

extension Session {
    /// `draw` on a backend that takes frames in bands (DRM): the renderer draws the rows the back
    /// buffer lacks a band at a time, and each band is copied into it at once.
    static func drawInBands(
        _ list: DisplayList, deck: Deck, with renderer: Renderer, on backend: BandedScanout, size: PixelSize,
        at time: FrameTime, output: String?
    ) throws(RuntimeError) {
        var failure: RenderError?
        do throws(DisplayError) {
            try backend.presentInBands(at: time) { target, onScreen, spans, copy in
                do throws(RenderError) {
                    return try renderer.render(
                        list, deck: deck, bandsFor: target, onScreen: onScreen, size: size, rows: backend.bandRows,
                        phase: backend.bandPhase, spans: spans, sink: copy)
                } catch {
                    failure = error
                    return nil
                }
            }
        } catch {
            let onOutput = output.map { " on \($0)" } ?? ""
            throw RuntimeError("presenting a frame\(onOutput) failed: \(error)", display: error)
        }
        if let failure {
            let forOutput = output.map { " for \($0)" } ?? ""
            throw RuntimeError("rendering\(forOutput) failed: \(failure.message)")
        }
    }

    /// A backend drawn in bands keeps no whole frame: for a snapshot, the frame last drawn is
    /// rendered once more into its frame buffer (which `presentedFrame` turns like the panel).
    func renderForSnapshot() {
        guard backend is BandedScanout else { return }
        _ = try? renderer.render(displayList, deck: scene.deck, into: backend.frameBuffer())
    }
}
