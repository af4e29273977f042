import CJPEG
import Glibc
import MarqueeCore

/// `marquee bench --images`: what a photo costs. Decoding and scaling one 600x400 JPEG (the
/// size of `menu-1080p-images`' photos) to the sizes a card shows it at, timed on this thread,
/// and a store fed 200 distinct files at one size, timed until all are ready, with the cache's
/// memory at the end. The pictures are made here (libjpeg's encoder), so the figures need no
/// files.
public enum ImageBenchmark {
    public struct Timing: Sendable {
        public var width: Int
        public var height: Int
        /// Median and worst of the repetitions, in milliseconds.
        public var medianMilliseconds: Double
        public var worstMilliseconds: Double
    }

    public struct Result: Sendable {
        public var fileBytes: Int
        public var timings: [Timing]
        /// The store: files decoded, wall time until all were ready, and the cache after.
        public var storeFiles: Int
        public var storeSeconds: Double
        public var statistics: ImageStoreStatistics
        public var cacheLimitBytes: Int
    }

    public static func run(limits: ImageStoreLimits, repetitions: Int = 30, files: Int = 200) throws(ImageError)
        -> Result
    {
        let jpeg = try photo(width: 600, height: 400)
        var timings: [Timing] = []
        for (width, height) in [(600, 400), (300, 200), (150, 100)] {
            var times: [Double] = []
            let request = ImageRequest(path: "", width: width, height: height, fit: .cover, radius: 12)
            for _ in 0..<repetitions {
                let start = now()
                let fit = ImageScaler.drawnSize(source: (600, 400), box: (width, height), fit: .cover)
                let image = try ImageDecoder.decode(jpeg, maximumPixels: limits.maximumPixels, drawnAt: [fit])
                _ = try ImageScaler.scale(image, to: request)
                times.append((now() - start) * 1000)
            }
            times.sort()
            timings.append(
                Timing(
                    width: width, height: height, medianMilliseconds: times[times.count / 2],
                    worstMilliseconds: times.last!))
        }
        var template = Array("/tmp/marquee-image-bench-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw ImageError("cannot make a folder for the bench's pictures") }
        let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer {
            for index in 0..<files { unlink("\(folder)/\(index).jpg") }
            rmdir(folder)
        }
        var requests: [ImageRequest] = []
        for index in 0..<files {
            let path = "\(folder)/\(index).jpg"
            // Distinct files of the same cost: a comment segment with the number after the start.
            let comment = Array("\(index)".utf8)
            let copy = Array(jpeg[0..<2]) + [0xFF, 0xFE, 0, UInt8(comment.count + 2)] + comment + Array(jpeg[2...])
            guard let file = fopen(path, "wb") else { throw ImageError("cannot write \(path)") }
            fwrite(copy, 1, copy.count, file)
            fclose(file)
            requests.append(ImageRequest(path: path, width: 600, height: 400, fit: .cover, radius: 12))
        }
        let store = try ImageStore(limits: limits)
        let start = now()
        store.prefetch(requests)
        // Counted by scaled images made, not by ready requests: with a small cache, pictures
        // made early are evicted before this loop sees them.
        while store.statistics.scales < files {
            var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            if let failure = store.takeChanges().failures.first {
                throw ImageError("\(failure.path): \(failure.error)")
            }
        }
        return Result(
            fileBytes: jpeg.count, timings: timings, storeFiles: files, storeSeconds: now() - start,
            statistics: store.statistics, cacheLimitBytes: limits.cacheBytes)
    }

    /// A photo-like picture: smooth gradients, a disc and fine noise, JPEG quality 85. Each
    /// `variant` moves the disc, shifts the colours and draws other noise, so that no two
    /// variants have the same pixels (the `menu-1080p-images` scene needs 200 distinct photos);
    /// variant 0 is the picture `--images` has always timed.
    public static func photo(width: Int, height: Int, variant: Int = 0) throws(ImageError) -> [UInt8] {
        let buffer = PixelBuffer(width: width, height: height)
        var seed: UInt32 = 12345 &+ UInt32(truncatingIfNeeded: variant) &* 2_654_435_761
        let centerX = (width / 2 + variant * 53 % max(1, width / 2)) % width
        let centerY = (height / 2 + variant * 29 % max(1, height / 2)) % height
        let discRed = 200 - variant * 7 % 120
        let blue = (160 + variant * 11) % 200
        buffer.withPixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    seed = seed &* 1_103_515_245 &+ 12345
                    let noise = Int(seed >> 28)
                    let dx = x - centerX
                    let dy = y - centerY
                    let disc = dx * dx + dy * dy < (height / 3) * (height / 3)
                    let r = min(255, (disc ? discRed : x * 255 / width) + noise)
                    let g = min(255, y * 255 / height + noise)
                    let b = min(255, (disc ? 60 : blue) + noise)
                    pixels[y * buffer.stride + x] = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                }
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = marquee_jpeg_encode(
            UnsafeRawPointer(buffer.baseAddress).assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height),
            buffer.stride * 4, 85, &out, &size)
        guard status == 0, let out else { throw ImageError("libjpeg could not encode the bench's picture") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
