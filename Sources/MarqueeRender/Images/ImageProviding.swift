import MarqueeCore

/// How an image is fitted into its element's box.
public enum ImageFit: String, Sendable, CaseIterable {
    /// The whole image, scaled to fit inside the box; the margins stay transparent.
    case contain
    /// The box filled, the image scaled to cover it and cut at the centre.
    case cover
    /// Stretched to the box's width and height.
    case fill
}

/// One picture as an element shows it: the file, the box it fills (in pixels) and how. Two cards
/// showing the same file in the same box share one decoded and scaled image.
public struct ImageRequest: Hashable, Sendable {
    /// An absolute path, already resolved against the deck's folder and checked against
    /// `--restrict-paths` by whoever built the request.
    public var path: String
    public var width: Int
    public var height: Int
    public var fit: ImageFit
    /// Corner radius in pixels, baked into the image's alpha.
    public var radius: Int

    public init(path: String, width: Int, height: Int, fit: ImageFit, radius: Int = 0) {
        self.path = path
        self.width = width
        self.height = height
        self.fit = fit
        self.radius = radius
    }
}

/// Where an image stands.
public enum ImageState {
    /// Being read or decoded (or waiting its turn): draw the placeholder.
    case pending
    /// Ready to draw: premultiplied ARGB (pixman's a8r8g8b8), exactly `width` x `height` of the
    /// request, with the fit and the corner radius applied (transparent where nothing is drawn),
    /// to be composited OVER at the element's top-left corner. `readyAt` is the monotonic time
    /// (seconds, the display link's clock) at which it became ready, for the fade-in.
    case ready(PixmanImage, readyAt: Double)
    /// Cannot be shown (missing, unreadable, not a regular file, corrupt, too large): draw the
    /// placeholder for good. The message is one line, for the `image-failed` event. Also a picture
    /// with no room in the cache beside the other pictures on screen: a placeholder until a frame
    /// that asks for it finds room (`ImageStore`).
    case failed(String)
}

/// What the renderer asks for pictures. Lookups happen on the frame path, so they never read or
/// decode: an image not yet decoded is `pending` and its decoding is queued.
public protocol ImageProviding: AnyObject {
    /// The image for this request, queueing its decoding when it is not known yet.
    func image(for request: ImageRequest, now: Double) -> ImageState
    /// Queue decodings of images about to be shown (the cards just ahead in the scroll's
    /// direction), behind the ones a frame is waiting for.
    func prefetch(_ requests: [ImageRequest])
    /// A frame starts looking its pictures up: what it and the frame before look up is pinned
    /// (`ImageStore`).
    func beginFrame()
    /// Every picture of the frame begun has been looked up at least once.
    func endFrame()
}

extension ImageProviding {
    public func beginFrame() {}
    public func endFrame() {}
}
