/// Overlay bands and the alert: drawn over the content, fixed to the screen, after everything the
/// scroll places. The content scrolls in the space the bands leave (`viewport`), so scrolling,
/// `percent`, `scroll-to` and paging count only that space.
extension Scene {
    /// The screen less the deck's bands: the space the content scrolls in (at least a pixel high,
    /// so a deck whose bands cover the screen still has a layout).
    public static func scrollViewport(screen: PixelSize, deck: Deck) -> PixelSize {
        let extent = deck.overlayExtent
        let height = Int((Double(screen.height) - extent.top - extent.bottom).rounded(.down))
        return PixelSize(width: screen.width, height: max(1, height))
    }

    /// Where the scroll space starts on the screen: below the top bands.
    public var scrollSpaceTop: Double {
        min(deck.overlayExtent.top, Double(max(0, screenSize.height - layout.viewport.height)))
    }

    /// The screen frame of each band, in the order of the deck's `overlays`: top bands stack down
    /// from the top edge, bottom bands up from the bottom edge, the first nearest its edge.
    public var overlayFrames: [Rect] {
        var top = 0.0
        var bottom = Double(screenSize.height)
        return deck.overlays.map { band in
            switch band.edge {
            case .top:
                defer { top += band.height }
                return Rect(x: 0, y: top, width: Double(screenSize.width), height: band.height)
            case .bottom:
                bottom -= band.height
                return Rect(x: 0, y: bottom, width: Double(screenSize.width), height: band.height)
            }
        }
    }

    /// Appends the bands, then the alert, to the frame's list (they are drawn last, over the
    /// content, and are never moved by the scroll or the keyframes).
    mutating func appendOverlays(to list: inout DisplayList, at target: Double) {
        // As `overlayFrames`, without building an array each frame.
        var top = 0.0
        var bottom = Double(screenSize.height)
        let width = Double(screenSize.width)
        for (slot, band) in deck.overlays.enumerated() {
            let y: Double
            switch band.edge {
            case .top:
                y = top
                top += band.height
            case .bottom:
                bottom -= band.height
                y = bottom
            }
            list.items.append(
                DisplayList.Item(
                    content: .band(band.card, slot: slot), frame: Rect(x: 0, y: y, width: width, height: band.height)))
        }
        guard var shown = alert else { return }
        if shown.start == nil { shown.start = target }
        let alpha = shown.alpha(at: target, duration: transitionDuration)
        shown.settled = alpha == shown.to
        if shown.settled && shown.to == 0 {
            alert = nil
            return
        }
        alert = shown
        var item = DisplayList.Item(content: .alert(shown.card, template: shown.template), frame: alertFrame(shown))
        item.alpha = alpha
        list.items.append(item)
    }

    /// The alert's box: the layout's side insets, the template's height (a quarter of the
    /// screen without one), centered on the screen.
    func alertFrame(_ alert: Alert) -> Rect {
        let insets = deck.layout.insets
        let screenHeight = Double(screenSize.height)
        let height = min(alert.template.height ?? (screenHeight / 4).rounded(), screenHeight)
        let width = max(1, Double(screenSize.width) - insets.left - insets.right)
        return Rect(x: insets.left, y: ((screenHeight - height) / 2).rounded(), width: width, height: height)
    }

    /// The next frame draws the scene again (after the display was off).
    public mutating func needsRedraw() { isDirty = true }

    var alertIsFading: Bool { alert.map { !$0.settled } ?? false }
}
