/// The EXIF orientation of a JPEG (tag 0x0112 in the APP1 "Exif" segment's first IFD): how the
/// stored pixels must be turned to show the picture upright. Cameras store the sensor's rows as
/// they came and only record how the camera was held.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case normal = 1
    case mirrorHorizontal = 2
    case rotate180 = 3
    case mirrorVertical = 4
    /// Mirrored along the main diagonal: stored rows become columns.
    case transpose = 5
    /// Shown turned 90 degrees clockwise.
    case rotate90 = 6
    /// Mirrored along the other diagonal.
    case transverse = 7
    /// Shown turned 90 degrees counter-clockwise.
    case rotate270 = 8

    /// Whether the shown picture's width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel shown at (`x`, `y`) of the upright picture, for a stored picture `width`
    /// x `height`.
    func storedPixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .normal: (x, y)
        case .mirrorHorizontal: (width - 1 - x, y)
        case .rotate180: (width - 1 - x, height - 1 - y)
        case .mirrorVertical: (x, height - 1 - y)
        case .transpose: (y, x)
        case .rotate90: (y, height - 1 - x)
        case .transverse: (width - 1 - y, height - 1 - x)
        case .rotate270: (width - 1 - y, x)
        }
    }

    /// The orientation recorded in a JPEG file, `.normal` when there is none or it cannot be
    /// read. Every offset comes from the file, so every read is checked against its bounds; the
    /// scan stops at the first start-of-scan marker (EXIF comes before the picture data).
    public static func of(jpeg bytes: [UInt8]) -> ExifOrientation {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .normal }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return .normal }
            let marker = bytes[at + 1]
            if marker == 0xFF {  // fill byte before a marker
                at += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // markers without a length
                at += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return .normal }  // start of scan, end of image
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return .normal }
            if marker == 0xE1, let found = fromExif(bytes[(at + 4)..<(at + 2 + length)]) { return found }
            at += 2 + length
        }
        return .normal
    }

    /// The orientation in one APP1 segment's payload, nil if it is not EXIF or has none.
    static func fromExif(_ payload: ArraySlice<UInt8>) -> ExifOrientation? {
        let exif = Array(payload)
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard exif.count >= 6 + 8, Array(exif[0..<6]) == header else { return nil }
        let tiff = 6
        let littleEndian: Bool
        switch (exif[tiff], exif[tiff + 1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= exif.count else { return nil }
            let a = Int(exif[offset])
            let b = Int(exif[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(offset + (littleEndian ? 0 : 2)), let high = u16(offset + (littleEndian ? 2 : 0))
            else { return nil }
            return low | high << 16
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4) else { return nil }
        let directory = tiff + ifd
        guard let count = u16(directory) else { return nil }
        for index in 0..<count {
            let entry = directory + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // type SHORT (3), one value, stored in the first two bytes of the value field
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
