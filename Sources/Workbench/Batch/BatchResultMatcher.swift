import Foundation
import ResponsesAPI

/// A batch's results matched to its requests by `custom_id`: the composed input (the Batch API's JSONL, as
/// uploaded) is indexed once, each request's place in the file and not its bytes, so that a result finds its
/// request body (read from the disk when asked) and the input line it came from. What no result took is
/// `remaining`: requests an expired or cancelled batch never ran.
public struct BatchResultMatcher: ~Copyable {
    struct Entry {
        var offset: UInt64
        var length: Int
        var line: Int
        var taken = false
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let handle: FileHandle?

    /// Indexes `composedPath` (absent: nothing to match, every result stands alone). `lines` are the input's
    /// line numbers by id as `submit` kept them; without them, a request's line is its place in the file.
    public init(composedPath: String, lines: [(id: String, line: Int)]?) throws {
        guard FileManager.default.fileExists(atPath: composedPath) else {
            handle = nil
            return
        }
        let numbers = Dictionary((lines ?? []).map { ($0.id, $0.line) }, uniquingKeysWith: { first, _ in first })
        var reader = try LineReader(path: composedPath)
        var start = 0
        // No more requests than a batch holds: a server's file cannot grow the index without bound.
        while entries.count < BatchComposer.requestLimit, let bytes = try reader.next() {
            defer { start = reader.offset }
            guard let id = Self.customID(bytes), entries[id] == nil else { continue }
            entries[id] = Entry(
                offset: UInt64(start), length: bytes.count, line: numbers[id] ?? reader.lineNumber)
            order.append(id)
        }
        handle = FileHandle(forReadingAtPath: composedPath)
    }

    deinit { try? handle?.close() }

    /// The request of result `id`: its input line and its body's bytes; nil for an id the input does not have.
    public mutating func take(_ id: String) throws -> (line: Int, body: [UInt8])? {
        guard var entry = entries[id], let handle else { return nil }
        entry.taken = true
        entries[id] = entry
        try handle.seek(toOffset: entry.offset)
        let bytes = try handle.read(upToCount: entry.length) ?? Data()
        let body = (try? JSONValue.parse(Array(bytes)))?["body"].map { $0.serialized() } ?? []
        return (entry.line, body)
    }

    /// The requests no result took, in the input's order.
    public var remaining: [(id: String, line: Int)] {
        order.compactMap { id in entries[id].flatMap { $0.taken ? nil : (id, $0.line) } }
    }

    /// The `custom_id` of a composed line.
    static func customID(_ bytes: ArraySlice<UInt8>) -> String? {
        (try? JSONValue.parse(Array(bytes)))?["custom_id"]?.stringValue
    }
}
