import Glibc
import MarqueeCore

/// A non-blocking pipe the decoding threads write a byte to when something finished; the run
/// loop polls its read end. Closed when the last owner (the store or a worker) lets go.
final class ReadinessPipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(ImageError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ImageError("cannot make a pipe: \(Errno.current)") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)  // a full pipe already wakes the loop: nothing lost
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
