import Glibc
import MarqueeCore
import MarqueeRender

/// The pictures of the bench scenes that show images, written by the bench itself into a
/// temporary folder (removed when this goes away), and the real `ImageStore` that decodes them on
/// its worker threads while the frames render, as in a session.
final class BenchPictures {
    let folder: String
    let store: ImageStore
    private var files: [String] = []
    private var folders: [String] = []

    init(for scene: BenchScene, cards: Int, limits: ImageStoreLimits) throws(RuntimeError) {
        var template = Array("/tmp/marquee-bench-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw RuntimeError("bench: cannot make a folder for its pictures") }
        folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            store = try ImageStore(limits: limits)
        } catch {
            rmdir(folder)
            throw RuntimeError("bench: \(error.message)")
        }
        switch scene {
        case .menu1080pImages:
            // 600x400 JPEGs, each with its own pixels, so no two decode alike.
            try makeFolder("photos")
            for index in 0..<min(cards, BenchRunner.menuPhotos) {
                let jpeg: [UInt8]
                do throws(ImageError) {
                    jpeg = try ImageBenchmark.photo(width: 600, height: 400, variant: index)
                } catch {
                    throw RuntimeError("bench: \(error.message)")
                }
                try write(jpeg, to: "photos/\(index).jpg")
            }
        case .departures1080p:
            try makeFolder("logos")
            for (index, name) in BenchRunner.departureLogos.enumerated() {
                try writeLogo(index: index, to: "logos/\(name).png")
            }
        default: break
        }
    }

    deinit {
        for file in files { unlink(file) }
        for folder in folders.reversed() { rmdir(folder) }
        rmdir(folder)
    }

    /// Picture files written.
    var fileCount: Int { files.count }

    /// An image field's value as the renderer asks for it: relative to the pictures' folder.
    func path(for value: String) -> String? { value.hasPrefix("/") ? value : "\(folder)/\(value)" }

    /// Waits for the store to tell of a finished file (or 0.1 s), and fails on a file it could not
    /// show: the bench's own pictures must all decode.
    func waitForDecodes() throws(RuntimeError) {
        var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 100)
        try takeChanges()
    }

    /// Empties the store's wake-up pipe, as the session's run loop does after each frame.
    func takeChanges() throws(RuntimeError) {
        if let failure = store.takeChanges().failures.first {
            throw RuntimeError("bench: \(failure.path): \(failure.error)")
        }
    }

    private func makeFolder(_ name: String) throws(RuntimeError) {
        let path = "\(folder)/\(name)"
        guard mkdir(path, 0o700) == 0 else { throw RuntimeError("bench: cannot make \(path)") }
        folders.append(path)
    }

    private func write(_ bytes: [UInt8], to name: String) throws(RuntimeError) {
        let path = "\(folder)/\(name)"
        guard let file = fopen(path, "wb") else { throw RuntimeError("bench: cannot write \(path)") }
        files.append(path)
        let written = fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        guard written == bytes.count else { throw RuntimeError("bench: cannot write \(path)") }
    }

    /// A 128x128 operator logo: a disc of the operator's colour with a white band across it, on
    /// white, written as a PNG.
    private func writeLogo(index: Int, to name: String) throws(RuntimeError) {
        let colors: [UInt32] = [0x1F5F_A8, 0x2E_A05A, 0x8E44_AD, 0xD645_45]
        let side = 128
        let buffer = PixelBuffer(width: side, height: side)
        buffer.withPixels { pixels in
            for y in 0..<side {
                for x in 0..<side {
                    let dx = x - side / 2
                    let dy = y - side / 2
                    let inDisc = dx * dx + dy * dy < (side / 2 - 4) * (side / 2 - 4)
                    let inBand = abs(dy + dx / (index + 2)) < 10
                    let color = inDisc && !inBand ? colors[index % colors.count] : 0xFF_FFFF
                    pixels[y * buffer.stride + x] = 0xFF00_0000 | color
                }
            }
        }
        let path = "\(folder)/\(name)"
        files.append(path)
        do {
            try PNGFile.write(buffer, to: path)
        } catch {
            throw RuntimeError("bench: cannot write \(path): \(error.message)")
        }
    }
}
