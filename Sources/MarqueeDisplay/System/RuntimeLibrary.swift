import Glibc

/// A shared library opened with `dlopen` when a feature that needs it is asked for (SDL2 for the
/// preview window, libseat for `--seat`), so the binary and its package do not depend on it.
/// Each caller names the Debian package that provides it, so a missing library or a missing
/// function is one line saying what to install.
struct RuntimeLibrary {
    /// The soname or path opened (the test hook's value when it is set).
    let name: String
    /// Never closed: the library's callbacks, and what it loads in turn, live until the exit.
    private let handle: UnsafeMutableRawPointer

    /// Opens `soname`, or the library the environment variable `override` names (a test hook: a
    /// system library cannot be hidden from the loader any other way). `missing` is the start of
    /// the error when it cannot be opened; `dlopen`'s reason follows it.
    init(soname: String, override: String, missing: String) throws(DisplayError) {
        name = getenv(override).map { String(cString: $0) } ?? soname
        // RTLD_NOW: a library missing a function fails here, not at the first call mid-session.
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "\(name) not found"
            throw DisplayError(.backendUnavailable, "\(missing); \(reason)")
        }
        self.handle = handle
    }

    /// The function `symbol` as `T` (a `@convention(c)` type matching its declaration in the
    /// library's header). `tooOld` ends the error when the library lacks it.
    func function<T>(_ symbol: String, tooOld: String) throws(DisplayError) -> T {
        guard let address = dlsym(handle, symbol) else {
            throw DisplayError(.backendUnavailable, "\(name) has no \(symbol); \(tooOld)")
        }
        return unsafeBitCast(address, to: T.self)
    }
}
