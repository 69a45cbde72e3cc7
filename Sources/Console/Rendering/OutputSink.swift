import Synchronization
import Untrusted

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the console's text goes. The terminal in the program; a recording sink in tests.
///
/// A `String` may hold anything, bytes from a server included: a terminal shows its control characters as
/// pictures (`TerminalText.clean`), a pipe or a file gets it exactly. Only a `TerminalText` (a literal of the
/// console's own, or text a renderer composed from cleaned parts) reaches a terminal with its escape
/// sequences, so that printing a server's text raw cannot be written by accident. Docs/security.md.
public protocol OutputSink: Sendable {
    /// Text from anywhere: cleaned on a terminal, exact elsewhere.
    func write(_ text: String)
    /// The console's own text for a terminal (styles, the progress line's erase): written as it is.
    func write(_ text: TerminalText)
}

/// Writes straight to a file descriptor (1 or 2), retrying short writes and EINTR.
public struct FileDescriptorOutput: OutputSink {
    let fd: Int32
    /// Whether `fd` was a terminal when this was made: text written as `String` is cleaned then.
    let isTerminal: Bool

    init(fd: Int32) {
        self.fd = fd
        self.isTerminal = isatty(fd) == 1
    }

    public static let standardOutput = FileDescriptorOutput(fd: 1)
    public static let standardError = FileDescriptorOutput(fd: 2)

    public func write(_ text: String) {
        writeBytes(isTerminal ? TerminalText.clean(text) : text)
    }

    public func write(_ text: TerminalText) {
        writeBytes(text.text)
    }

    func writeBytes(_ text: String) {
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

/// Keeps everything written, for tests; as a terminal keeps it when `terminal` (plain text cleaned).
final class RecordingOutput: OutputSink {
    private let storage = Mutex("")
    let terminal: Bool

    init(terminal: Bool = false) {
        self.terminal = terminal
    }

    func write(_ text: String) {
        let shown = terminal ? TerminalText.clean(text) : text
        storage.withLock { $0 += shown }
    }

    func write(_ text: TerminalText) {
        storage.withLock { $0 += text.text }
    }

    var text: String { storage.withLock { $0 } }
}
