import CPack565

/// What a quarter turn into 16-bit rows that do not start on cache lines holds back between
/// bands: the last line each panel row was given, so that the cache line it shares with the next
/// band's line is written whole, once, from both (`marquee_turn565_store_carried` says why). A
/// copier keeps one for the buffers it writes, passes it to every `FrameCopier.copy` of a frame,
/// and calls `finish()` before the buffer is shown: a band that starts at the row after the last
/// one's, in the same buffer, with its lines right beside the held ones, goes on from them;
/// anything else finishes them first.
public final class TurnCarry {
    /// 64 bytes a frame column, grown to the widest frame seen (never on a steady frame).
    private var slots: UnsafeMutableRawPointer?
    private var slotCount = 0
    /// The run whose last lines the slots hold, if any.
    private var held: Held?

    struct Held {
        let base: UnsafeMutableRawPointer
        let bytesPerRow: Int
        let clockwise: Bool
        let frameWidth: Int
        /// Frame columns 0..<lineColumns took lines (the last few, short of four, went pixel by
        /// pixel).
        let lineColumns: Int
        /// Byte offset of the last lines in their panel rows.
        let lineOffset: Int
        /// The frame row after the last lines: where a band must start to go on from them.
        let endRow: Int
    }

    public init() {}

    deinit { slots?.deallocate() }

    /// Slots for `columns` frame columns.
    func slots(columns: Int) -> UnsafeMutableRawPointer {
        if let slots, slotCount >= columns { return slots }
        slots?.deallocate()
        let grown = UnsafeMutableRawPointer.allocate(byteCount: max(columns, 1) * 64, alignment: 64)
        slots = grown
        slotCount = columns
        return grown
    }

    /// Whether a copy into `base` from frame row `row`, starting with a line there, goes on from
    /// the run held.
    func continues(
        base: UnsafeMutableRawPointer, bytesPerRow: Int, clockwise: Bool, frameWidth: Int, row: Int, lineOffset: Int
    ) -> Bool {
        guard let held else { return false }
        // The new line must lie right next to the held one in its panel row (clockwise its panel
        // offset depends on the frame height, which a different layout changes).
        return held.base == base && held.bytesPerRow == bytesPerRow && held.clockwise == clockwise
            && held.frameWidth == frameWidth && held.endRow == row
            && lineOffset == held.lineOffset + (clockwise ? -64 : 64)
    }

    /// The run a copy left held.
    func hold(_ run: Held) { held = run }

    /// Stores what the run held still lacks (the part of each last line the next band would have
    /// completed); afterwards nothing is held.
    public func finish() {
        guard let held, let slots else { return }
        self.held = nil
        for x in 0..<held.lineColumns {
            let row = held.base + (held.clockwise ? x : held.frameWidth &- 1 &- x) &* held.bytesPerRow
            marquee_turn565_flush_line(
                (row + held.lineOffset).assumingMemoryBound(to: CChar.self),
                (slots + x &* 64).assumingMemoryBound(to: CChar.self), held.clockwise ? 1 : 0)
        }
    }
}
