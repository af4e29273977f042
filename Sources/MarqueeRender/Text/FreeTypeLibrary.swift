import CFreeType

/// Owns the FreeType library handle (`FT_Init_FreeType` / `FT_Done_FreeType`). Faces keep a
/// reference to it so it outlives them.
public final class FreeTypeLibrary {
    let handle: FT_Library

    public init() throws(RenderError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw RenderError(.fontUnreadable, "FreeType could not start")
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
