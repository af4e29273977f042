import CFreeType

/// Owns the FreeType library handle (`FT_Init_FreeType` / `FT_Done_FreeType`) and the byte budget
/// of the glyphs its faces keep (`GlyphBudget`). Faces keep a reference to it so it outlives them.
public final class FreeTypeLibrary {
    let handle: FT_Library
    let glyphCache: GlyphBudget

    public convenience init() throws(RenderError) { try self.init(glyphBudgetBytes: GlyphBudget.defaultBudgetBytes) }

    init(glyphBudgetBytes: Int) throws(RenderError) {
        glyphCache = GlyphBudget(budgetBytes: glyphBudgetBytes)
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw RenderError(.fontUnreadable, "FreeType could not start")
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
