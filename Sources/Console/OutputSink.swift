#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the console's text goes. The terminal in the program; a recording sink in tests.
public protocol OutputSink: Sendable {
    func write(_ text: String)
}

/// Writes straight to a file descriptor (1 or 2), retrying short writes and EINTR.
public struct FileDescriptorOutput: OutputSink {
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    public static let standardOutput = FileDescriptorOutput(fd: 1)
    public static let standardError = FileDescriptorOutput(fd: 2)

    var isTerminal: Bool { isatty(fd) == 1 }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let written = Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // the reader went away (EPIPE): nothing sensible left to do with the text
                }
                offset += written
            }
        }
    }
}

/// Keeps everything written, for tests.
final class RecordingOutput: OutputSink {
    private let storage = Mutex("")

    init() {}

    func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    var text: String { storage.withLock { $0 } }
}
