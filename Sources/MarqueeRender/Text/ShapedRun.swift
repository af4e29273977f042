import MarqueeCore

/// One run of a shaped paragraph as HarfBuzz returned it, for tests and tools that compare shaping
/// with `hb-shape`: the scalars it covers, its direction, the face that shaped it and its glyphs
/// (visual order within the run; clusters are scalar offsets in the whole text).
public struct ShapedRun {
    public var scalars: Range<Int>
    public var isRightToLeft: Bool
    public var face: FontFace
    public var glyphs: [ShapedGlyph]
}

extension TextLayout {
    /// The runs one paragraph of `text` is shaped in, in logical order.
    public static func shapedRuns(_ text: String, face: FontFace, direction: TextDirection = .auto) -> [ShapedRun] {
        let paragraph = ShapedParagraph(text, face: face, direction: direction)
        return paragraph.runs.map { run in
            let glyphs = Array(paragraph.glyphs[run.glyphs])
            return ShapedRun(
                scalars: run.scalars, isRightToLeft: run.level & 1 == 1,
                face: face.face(numbered: glyphs.first?.font ?? 0), glyphs: glyphs)
        }
    }
}
