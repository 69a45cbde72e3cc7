import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a fast stream's chunks wait for the recording when more than the memory backlog is waiting: a
/// file of the proxy's own, made with `mkstemp` (mode 0600, close-on-exec) and unlinked at once, so it is
/// gone with its descriptor whatever happens to the process. Chunks are written at the positions
/// `RecordingQueue` hands out and read back once, in order; positions are reused from the start whenever
/// the recording has read everything written.
final class Spool: Sendable {
    let descriptor: Int32

    /// A new spool in `directory` (the inspector's, so it lands on the user's disk rather than a RAM-backed
    /// `/tmp`).
    init(directory: String) throws(SpoolError) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array(".proxy-spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpoolError(operation: "create a spool file in \(directory)", errno: errno) }
        // Close-on-exec at once (`mkostemp` is not in Glibc's module; the proxy starts no programs anyway).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes `chunk` at `position`.
    func write(_ chunk: ByteBuffer, at position: Int64) throws(SpoolError) {
        let result: Int32 = chunk.withUnsafeReadableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = pwrite(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(position) + off_t(done))
                if count > 0 {
                    done += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return count == 0 ? ENOSPC : errno
                }
            }
            return 0
        }
        if result != 0 { throw SpoolError(operation: "write \(chunk.readableBytes) bytes to the spool", errno: result) }
    }

    /// The `count` bytes written at `position`.
    func read(at position: Int64, count: Int) throws(SpoolError) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        var failure: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            var done = 0
            while done < count {
                let got = pread(descriptor, bytes.baseAddress! + done, count - done, off_t(position) + off_t(done))
                if got > 0 {
                    done += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    failure = got == 0 ? EIO : errno
                    return 0
                }
            }
            return done
        }
        if failure != 0 { throw SpoolError(operation: "read \(count) bytes back from the spool", errno: failure) }
        return buffer
    }
}

/// A spool that could not be made, written or read, with the system's reason.
struct SpoolError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var errno: Int32

    var description: String { "could not \(operation): \(String(cString: strerror(errno)))" }
}
