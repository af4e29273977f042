import MarqueeRender

/// An image provider for tests: pictures set by path, no decoding and no threads. Records what
/// the renderer asked for and what it asked to prefetch.
public final class MemoryImageProvider: ImageProviding {
    public var states: [String: ImageState] = [:]
    public private(set) var asked: [ImageRequest] = []
    public private(set) var prefetched: [ImageRequest] = []

    public init() {}

    public func image(for request: ImageRequest, now: Double) -> ImageState {
        asked.append(request)
        return states[request.path] ?? .pending
    }

    public func prefetch(_ requests: [ImageRequest]) { prefetched += requests }
}
