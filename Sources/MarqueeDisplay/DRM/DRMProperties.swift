import CDRM
import Glibc

/// The property ids of one KMS object (connector, CRTC or plane), by name, for atomic commits.
struct DRMProperties {
    private var ids: [String: UInt32] = [:]
    private var values: [String: UInt64] = [:]

    init(fd: Int32, object: UInt32, type: UInt32) {
        guard let properties = drmModeObjectGetProperties(fd, object, type) else { return }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            ids[name] = property.pointee.prop_id
            values[name] = properties.pointee.prop_values[index]
            drmModeFreeProperty(property)
        }
    }

    func id(_ name: String) -> UInt32? { ids[name] }
    func value(_ name: String) -> UInt64? { values[name] }
}

/// An atomic request under construction; each property is looked up by name so that a driver
/// lacking one is reported by that name.
struct AtomicRequest: ~Copyable {
    let request: OpaquePointer
    private(set) var missing: [String] = []

    init() {
        guard let request = drmModeAtomicAlloc() else { fatalError("drmModeAtomicAlloc: out of memory") }
        self.request = request
    }

    deinit { drmModeAtomicFree(request) }

    mutating func set(_ object: UInt32, _ properties: DRMProperties, _ name: String, _ value: UInt64) {
        guard let id = properties.id(name), drmModeAtomicAddProperty(request, object, id, value) >= 0 else {
            missing.append(name)
            return
        }
    }

    /// Commits; returns 0 or the errno.
    func commit(fd: Int32, flags: UInt32, userData: UnsafeMutableRawPointer? = nil) -> Int32 {
        drmModeAtomicCommit(fd, request, flags, userData) == 0 ? 0 : errno
    }
}
