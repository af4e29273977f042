import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol
import MarqueeRender

/// The preview window's keys, and `--watch`'s reloads.
extension Session {
    /// Acts on what was typed into (or done to) the preview window since the last wake-up.
    func handleWindowInput() {
        guard let display = backend as? InteractiveDisplay else { return }
        for input in display.takeInput() {
            switch input {
            case .scrollRows(let rows): scrollFromWindow(to: scene.target(byRows: rows))
            case .scrollPages(let pages):
                let offset = scene.animator.destination + Double(pages) * Double(scene.viewport.height)
                scrollFromWindow(to: .offset(max(0, offset)))
            case .scrollToStart: scrollFromWindow(to: .start)
            case .scrollToEnd: scrollFromWindow(to: .end)
            case .snapshot: writeWindowSnapshot()
            case .quit:
                Log.info("window: closed")
                quitting = true
            }
        }
    }

    /// A scroll asked for with a key: the same animation as `scroll-to`, answered to no one.
    private func scrollFromWindow(to target: ScrollTarget) {
        endPlayback(reason: "scroll")
        let tag = nextTag  // owned by no source, so its end is reported to no one
        nextTag += 1
        switch scene.scroll(to: target, duration: ScrollOptions.defaultDuration, curve: .default, tag: tag) {
        case .failure(let error): Log.error("window: \(error.message)")
        case .success(let replaced): if let replaced { emit(replaced) }
        }
    }

    /// `s`: the frame on screen to `marquee-snapshot-N.png` in the current directory, N the first
    /// number not taken, so earlier snapshots are never overwritten.
    private func writeWindowSnapshot() {
        guard let frame = backend.presentedFrame() else { return }
        var number = 1
        while access("marquee-snapshot-\(number).png", F_OK) == 0 { number += 1 }
        let path = "marquee-snapshot-\(number).png"
        do {
            try PNGFile.write(frame, to: path)
            Log.info("window: wrote \(path)")
        } catch {
            Log.error("window: cannot write \(path): \(error.message)")
        }
    }

    /// `--watch` saw the deck file change: read it again, as SIGHUP does.
    func deckFileChanged() {
        guard let path = options.deckPath else { return }
        pendingReloads.append((loader.queue(path), "watch"))
    }

    /// A reload that failed leaves the deck shown; the reason goes to stderr and the window title.
    func reloadFailed(_ cause: String, _ error: RuntimeError) {
        Log.error("\(cause): kept the current deck: \(error.message)")
        (backend as? InteractiveDisplay)?.showProblem(error.message.replacingNewlines)
    }
}
