import MarqueeCore

/// Scan-out buffers in ordinary memory, laid out as a display's (for the bench and the tests):
/// XRGB8888 rows in whole 64-byte lines as DRM's dumb buffers are made (`DumbBuffer`), the 16-bit
/// formats at the panel's width as fbdev's are; zeroed, so that no page is first touched while a
/// frame is timed.
final class ScanoutMemory {
    let surfaces: [ScanoutSurface]
    private let memory: [UnsafeMutableRawPointer]
    private let byteCount: Int

    init(frameSize: PixelSize, rotation: Rotation, format: ScanoutFormat, buffers: Int) {
        let panel = rotation.panelSize(ofLogical: frameSize)
        let bytesPerRow =
            format.bytesPerPixel == 4
            ? DumbBuffer.lineAlignedWidth(panel.width) * 4 : panel.width * format.bytesPerPixel
        let byteCount = bytesPerRow * panel.height
        self.byteCount = byteCount
        memory = (0..<buffers).map { _ in
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            return bytes
        }
        surfaces = memory.map {
            ScanoutSurface(base: $0, bytesPerRow: bytesPerRow, width: panel.width, height: panel.height, format: format)
        }
    }

    deinit { for bytes in memory { bytes.deallocate() } }

    /// Every byte of buffer `index`, padding included.
    func bytes(of index: Int) -> [UInt8] { Array(UnsafeRawBufferPointer(start: memory[index], count: byteCount)) }
}
