/// DRM frames are drawn in bands straight into the back dumb buffer (`presentInBands`): no shadow
/// frame is written and read again on every frame. 64 rows: on `bench --scanout --band-rows
/// 16,32,64,128` at 1080p, 64 was the height at least as fast as the shadow path unrotated and
/// turned in every run, 16 and 32 paid too much per band and 128 (983 KB) no longer fits a
/// Raspberry Pi 4's 1 MB L2 beside the card images (docs/performance.md).
extension DRMBackend: BandedScanout {
    /// The band height of every DRM output (and of `bench --scanout`'s display paths).
    public static let rowsPerBand = 64
    public var bandRows: Int { Self.rowsPerBand }
    public var bandPhase: Int { FrameCopier.bandPhase(frameHeight: size.height, rows: bandRows, rotation: copyRotation) }
}
