import Logging
import Synchronization

/// A log handler that keeps every message with its metadata, for a test to read what the proxy said at debug
/// level (which a user sees with OPENRESPONSES_LOG_LEVEL=debug).
struct CollectedLog: LogHandler {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    let collected: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: " ")
        collected.lines.withLock { $0.append("\(event.level) \(event.message) \(fields)") }
    }

    /// A logger whose messages go to `lines`.
    static func logger(into lines: Lines) -> Logger {
        Logger(label: "test") { _ in CollectedLog(collected: lines) }
    }
}
