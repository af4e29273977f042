/// What `check-deck` says about one image file: nil when it can be shown, else why not (missing,
/// not a regular file, too large, not a PNG or JPEG, corrupt or truncated). The whole picture is
/// decoded (a JPEG at 1/8 of its size, which still reads every coded block), since corruption can
/// hide anywhere in it.
public enum ImageCheck {
    public static func problem(
        path: String, maximumPixels: Int = ImageStoreLimits.defaultMaximumPixels,
        maximumFileBytes: Int = ImageStoreLimits().maximumFileBytes
    ) -> String? {
        let (read, _) = ImageFile.read(path, maximumBytes: maximumFileBytes)
        do throws(ImageError) {
            let bytes = try read.get()
            _ = try ImageDecoder.decode(bytes, maximumPixels: maximumPixels, drawnAt: [(1, 1)])
            return nil
        } catch {
            return error.message
        }
    }
}
