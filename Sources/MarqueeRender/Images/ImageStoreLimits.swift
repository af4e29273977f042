/// The bounds an `ImageStore` keeps, whatever the deck asks for.
public struct ImageStoreLimits: Sendable, Equatable {
    /// The scaled images kept ready to draw, in bytes (`--image-cache MB`).
    public var cacheBytes: Int
    /// The largest picture decoded, in pixels, checked from the file's header
    /// (`--image-max-pixels`).
    public var maximumPixels: Int
    /// The largest file read.
    public var maximumFileBytes: Int
    /// Decoding threads.
    public var threads: Int
    /// Prefetched requests waiting at most; older ones are forgotten (asked for again when they
    /// come closer).
    public var maximumPrefetches: Int
    /// How often failed files are looked at again (one `stat` each on a worker); a file that
    /// changed (fixed, or copied in late) is then decoded again.
    public var recheckSeconds: Double
    /// With `--restrict-paths`, the folders a picture may be read from (resolved); nil for any.
    /// Paths are checked when they are resolved; this checks the file actually opened, so a
    /// folder swapped for a symlink after the check cannot lead a read outside.
    public var readableFolders: [String]? = nil

    public static let defaultCacheMegabytes = 64
    public static let defaultMaximumPixels = 40_000_000

    public init(
        cacheBytes: Int = defaultCacheMegabytes << 20, maximumPixels: Int = defaultMaximumPixels,
        maximumFileBytes: Int = 64 << 20, threads: Int = 2, maximumPrefetches: Int = 256, recheckSeconds: Double = 10
    ) {
        self.cacheBytes = cacheBytes
        self.maximumPixels = maximumPixels
        self.maximumFileBytes = maximumFileBytes
        self.threads = max(1, threads)
        self.maximumPrefetches = maximumPrefetches
        self.recheckSeconds = recheckSeconds
    }
}

/// A file that cannot be shown, reported once (`{"event":"image-failed","path":...,"error":...}`).
public struct ImageFailure: Sendable, Equatable {
    public var path: String
    public var error: String

    public init(path: String, error: String) {
        self.path = path
        self.error = error
    }
}

/// What has changed since the last `ImageStore.takeChanges()`.
public struct ImageChanges: Sendable, Equatable {
    /// Requests whose image became ready: the cards showing them need a redraw.
    public var ready: Set<ImageRequest>
    /// Files that failed and were not reported before, one entry per file.
    public var failures: [ImageFailure]

    public var isEmpty: Bool { ready.isEmpty && failures.isEmpty }
}

/// Counters for tests and the bench.
public struct ImageStoreStatistics: Sendable, Equatable {
    /// Bytes of the scaled images in the cache (at most `ImageStoreLimits.cacheBytes`).
    public var cachedBytes: Int
    public var cachedImages: Int
    /// Files decoded (one decode serves every size of that file queued at the time).
    public var decodes: Int
    /// Scaled images made.
    public var scales: Int
    /// Scaled images dropped to stay within the cache's bound.
    public var evictions: Int
    /// Requests put off for want of room beside the pictures the last two frames showed: at
    /// look-up (not decoded), or their scaled image dropped after decoding.
    public var deferrals: Int
}
