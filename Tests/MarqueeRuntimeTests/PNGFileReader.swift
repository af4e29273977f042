import MarqueeCore
import MarqueeRender

/// The runtime tests read snapshots back through the renderer's PNG reader.
enum PNGFileReader {
    static func read(_ path: String) throws -> PixelBuffer { try PNGFile.read(path) }
}
