import Glibc
import MarqueeCore

/// Where `snapshot` and `load` may touch files (`--restrict-paths DIR`). Without a directory every
/// path is allowed. With one, a path is allowed only if, after resolving `..` and every symlink
/// (`realpath`), it lies inside the directory: a remote controller cannot read or write outside it.
public struct PathPolicy: Sendable {
    /// The resolved directory, or nil for no restriction.
    public let root: String?
    /// Folders reads may also come from (never writes): the operator's `--deck` folder, for the
    /// images its deck names.
    private var readRoots: [String] = []

    public static let unrestricted = PathPolicy(resolvedRoot: nil)

    private init(resolvedRoot: String?) { root = resolvedRoot }

    /// This policy, also allowing reads inside `folder` (resolved now; a folder that does not
    /// resolve adds nothing). Unrestricted stays unrestricted.
    public func allowingReads(in folder: String) -> PathPolicy {
        guard root != nil, let resolved = Self.realPath(folder) else { return self }
        var policy = self
        policy.readRoots.append(resolved)
        return policy
    }

    /// Checks that `directory` exists and is a directory.
    public init(directory: String) throws(RuntimeError) {
        guard let resolved = Self.realPath(directory) else {
            throw RuntimeError(Errno.current, "--restrict-paths \(directory)")
        }
        var status = stat()
        guard stat(resolved, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw RuntimeError("--restrict-paths \(directory): not a directory")
        }
        root = resolved
    }

    /// The resolved folders reads may come from, nil when unrestricted.
    public var readableFolders: [String]? { root.map { [$0] + readRoots } }

    /// A file to read: it must exist and resolve inside the root.
    public func checkRead(_ path: String) throws(RuntimeError) -> String {
        guard root != nil else { return path }
        guard let resolved = Self.realPath(path) else {
            let failure = Errno.current
            // A missing file outside is "outside" like one that exists: a controller must not
            // learn which files exist outside the root from the two answers.
            guard let found = Self.deepestExistingFolder(of: path), allowsRead(found, orIs: true) else {
                throw outside(path)
            }
            throw RuntimeError(failure, "\(path)")
        }
        guard allowsRead(resolved, orIs: false) else { throw outside(path) }
        return resolved
    }

    /// Whether the resolved `path` lies inside the root or a read root (or is one, with `orIs`).
    private func allowsRead(_ path: String, orIs: Bool) -> Bool {
        guard let root else { return true }
        return ([root] + readRoots).contains { Self.isInside(path, $0) || (orIs && path == $0) }
    }

    /// The resolved folder nearest to `path` that exists: its parent, else the parent's parent...
    static func deepestExistingFolder(of path: String) -> String? {
        var folder = path
        while true {
            guard let slash = folder.lastIndex(of: "/") else { return realPath(".") }
            folder = String(folder[..<slash])
            if folder.isEmpty { return "/" }
            if let resolved = realPath(folder) { return resolved }
        }
    }

    /// A file to write: its folder must resolve inside the root, and the name must be a plain name
    /// (an existing symlink there would be replaced, not followed, by the rename that writes it).
    public func checkWrite(_ path: String) throws(RuntimeError) -> String {
        guard let root else { return path }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else { throw outside(path) }
        guard let resolvedFolder = Self.realPath(folder.isEmpty ? "/" : folder) else {
            throw RuntimeError(Errno.current, "\(path): the folder \(folder)")
        }
        let resolved = resolvedFolder == "/" ? "/" + name : resolvedFolder + "/" + name
        guard Self.isInside(resolved, root) else { throw outside(path) }
        return resolved
    }

    private func outside(_ path: String) -> RuntimeError {
        RuntimeError("\(path) is outside \(root ?? "/") (--restrict-paths)")
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" ? path.hasPrefix("/") : path.hasPrefix(root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
