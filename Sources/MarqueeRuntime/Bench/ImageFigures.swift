import MarqueeCore
import MarqueeRender

extension BenchRunner {
    /// What a scene with pictures adds to its line: what was drawn while pictures were pending,
    /// the second pass of `menu-1080p-images`, and the image store's work and memory.
    public struct ImageFigures {
        /// Image elements drawn as their placeholder during the timed frames (the first pass).
        public var placeholdersDrawn: Int
        /// The second pass's frame times (empty for a scene with one pass).
        public var secondPassMilliseconds: [Double] = []
        public var secondPassPlaceholdersDrawn = 0
        /// The store at the end of the run.
        public var statistics: ImageStoreStatistics?
        public var cacheLimitBytes = 0
        /// Picture files the bench wrote, and the temporary folder they were in (gone once the
        /// run has returned).
        public var files = 0
        public var folder = ""

        public init(placeholdersDrawn: Int) { self.placeholdersDrawn = placeholdersDrawn }

        /// The slowest frame of the first pass: milliseconds and its number (1...N).
        static func worst(_ times: [Double]) -> (milliseconds: Double, frame: Int) {
            let index = times.indices.max { times[$0] < times[$1] } ?? 0
            return (times.isEmpty ? 0 : times[index], index + 1)
        }

        func write(into json: inout JSONWriter, firstPass: [Double]) {
            let rounded = Result.rounded
            let worst = Self.worst(firstPass)
            json.member("worst_ms", rounded(worst.milliseconds))
            json.member("worst_frame", worst.frame)
            json.member("placeholders_drawn", placeholdersDrawn)
            if !secondPassMilliseconds.isEmpty {
                let p50 = Result.percentile(0.5, of: secondPassMilliseconds)
                let p99 = Result.percentile(0.99, of: secondPassMilliseconds)
                json.member("second_pass_p50_ms", rounded(p50))
                json.member("second_pass_p99_ms", rounded(p99))
                json.member("second_pass_p99_over_p50", rounded(p99 / p50))
                json.member("second_pass_worst_ms", rounded(secondPassMilliseconds.max()!))
                json.member("second_pass_placeholders_drawn", secondPassPlaceholdersDrawn)
            }
            json.member("image_files", files)
            json.member("image_decodes", statistics?.decodes ?? 0)
            json.member("image_cache_bytes", statistics?.cachedBytes ?? 0)
            json.member("image_cache_images", statistics?.cachedImages ?? 0)
            json.member("image_cache_limit_bytes", cacheLimitBytes)
            json.member("image_evictions", statistics?.evictions ?? 0)
        }

        func table(firstPass: [Double]) -> String {
            let rounded = Result.rounded
            let worst = Self.worst(firstPass)
            var lines = [
                "worst frame    \(rounded(worst.milliseconds)) ms (frame \(worst.frame))",
                "placeholders   \(placeholdersDrawn) image elements drawn while their picture was pending",
            ]
            if !secondPassMilliseconds.isEmpty {
                let p50 = Result.percentile(0.5, of: secondPassMilliseconds)
                let p99 = Result.percentile(0.99, of: secondPassMilliseconds)
                lines.append(
                    "second pass    p50 \(rounded(p50)) ms, p99 \(rounded(p99)) ms (p99 / p50 \(rounded(p99 / p50))), worst \(rounded(secondPassMilliseconds.max()!)) ms, \(secondPassPlaceholdersDrawn) placeholders"
                )
            }
            lines.append(
                "image store    \(files) files, \(statistics?.decodes ?? 0) decodes, cache \(statistics?.cachedBytes ?? 0) bytes (\(statistics?.cachedImages ?? 0) images) of \(cacheLimitBytes), \(statistics?.evictions ?? 0) evicted"
            )
            return lines.joined(separator: "\n")
        }
    }
}
