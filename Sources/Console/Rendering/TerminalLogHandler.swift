import Foundation
import Logging
import Untrusted

/// swift-log's lines on stderr, as `StreamLogHandler` writes them (`TIME LEVEL LABEL: METADATA [SOURCE]
/// MESSAGE`), but through `FileDescriptorOutput`: on a terminal, what a message or its metadata quotes of a
/// server (an HTML error body, a proxied client's path) shows its control characters as pictures.
/// The executable bootstraps it for every command (`TerminalLogHandler.bootstrap()`).
public struct TerminalLogHandler: LogHandler {
    let label: String
    let output: any OutputSink
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String, output: any OutputSink = FileDescriptorOutput.standardError) {
        self.label = label
        self.output = output
    }

    /// Makes it swift-log's handler for the process.
    public static func bootstrap() {
        LoggingSystem.bootstrap { TerminalLogHandler(label: $0) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        output.write(
            "\(Self.timestamp()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(event.message)\n"
        )
    }

    static func timestamp() -> String {
        var buffer = [Int8](repeating: 0, count: 64)
        var now = time(nil)
        guard let local = localtime(&now) else { return "<unknown>" }
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", local)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
