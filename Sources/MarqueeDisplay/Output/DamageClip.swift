import MarqueeCore

/// A rectangle of the panel, in panel pixels (x1, y1 inclusive; x2, y2 exclusive), as the kernel's
/// `struct drm_mode_rect` in an `FB_DAMAGE_CLIPS` blob and `drmModeDirtyFB`'s clips take it.
struct DamageClip: Equatable {
    var x1: Int32
    var y1: Int32
    var x2: Int32
    var y2: Int32

    /// The panel rectangle that logical frame rows `rows` (all columns) cover once turned by
    /// `rotation`: panel rows for 0 and 180, panel columns for 90 and 270. Nil for no rows.
    init?(frameRows rows: Range<Int>, frame: PixelSize, rotation: Rotation) {
        let rows = rows.clamped(to: 0..<frame.height)
        guard !rows.isEmpty else { return nil }
        let panel = rotation.panelSize(ofLogical: frame)
        let top = Int32(rows.lowerBound), bottom = Int32(rows.upperBound), height = Int32(frame.height)
        let panelWidth = Int32(panel.width), panelHeight = Int32(panel.height)
        switch rotation {
        case .none: (x1, y1, x2, y2) = (0, top, panelWidth, bottom)
        case .half: (x1, y1, x2, y2) = (0, height - bottom, panelWidth, height - top)
        // Clockwise, frame row y is panel column height - 1 - y; counter-clockwise, column y.
        case .quarter: (x1, y1, x2, y2) = (height - bottom, 0, height - top, panelHeight)
        case .threeQuarters: (x1, y1, x2, y2) = (top, 0, bottom, panelHeight)
        }
    }

    init(x1: Int32, y1: Int32, x2: Int32, y2: Int32) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
    }
}

/// The panel rectangles of a few bands of frame rows (one `DamageClip` a band), in panel order:
/// what one atomic commit carries as `FB_DAMAGE_CLIPS`. Stored inline like the bands, so building
/// them costs no allocation.
struct DamageClips: RandomAccessCollection, Equatable {
    /// Room for one clip a band: `RowBands.capacity` (4) of them.
    private var storage = InlineArray<4, DamageClip>(repeating: DamageClip(x1: 0, y1: 0, x2: 0, y2: 0))
    private(set) var count = 0

    /// The clips of `bands` turned by `rotation` (the bands' order reversed where the turn mirrors
    /// frame rows: 180 and clockwise 90, so the clips run down or across the panel in order).
    init(frameRows bands: RowBands, frame: PixelSize, rotation: Rotation) {
        let mirrors = rotation == .half || rotation == .quarter
        for index in bands.indices {
            let band = bands[mirrors ? bands.count - 1 - index : index]
            guard let clip = DamageClip(frameRows: band, frame: frame, rotation: rotation) else { continue }
            storage[count] = clip
            count += 1
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(position: Int) -> DamageClip {
        precondition(position >= 0 && position < count, "DamageClips: index out of range")
        return storage[position]
    }

    static func == (left: DamageClips, right: DamageClips) -> Bool { left.elementsEqual(right) }
}
