#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The top-level fields of an event that its `kind` reads, by key: decoding fills only these, skipping
/// every other field (log probabilities, padding, fields this client does not know) without building it.
struct EventFields {
    enum Key: Int, CaseIterable {
        case type
        case sequenceNumber
        case itemID
        case outputIndex
        case contentIndex
        case summaryIndex
        case delta
        case text
        case refusal
        case arguments
        case input
        case code
        case name
        case response
        case item
        case part
        case annotation
        case annotationIndex
        case partialImageIndex
        case partialImageBase64
        case outputFormat
        case commandIndex
        case command
        case output
        case error
        case message
        case param

        var name: String { Self.names[rawValue] }
        static let names = [
            "type", "sequence_number", "item_id", "output_index", "content_index", "summary_index", "delta", "text",
            "refusal", "arguments", "input", "code", "name", "response", "item", "part", "annotation",
            "annotation_index", "partial_image_index", "partial_image_b64", "output_format", "command_index", "command",
            "output", "error", "message", "param",
        ]
    }

    /// Inline storage, one slot per key (a homogeneous tuple is laid out as an array): an event's fields
    /// cost no heap allocation of their own.
    private var values:
        (
            JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?,
            JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?,
            JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?, JSONValue?
        ) = (
            nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
            nil, nil, nil, nil, nil, nil
        )

    init() {}

    /// The fields of an already parsed event.
    init(json: JSONValue) {
        for (key, value) in json.objectValue ?? JSONObject() {
            if let field = Self.keysByName[key] { self[field] = value }
        }
    }

    subscript(key: Key) -> JSONValue? {
        get {
            withUnsafePointer(to: values) { tuple in
                tuple.withMemoryRebound(to: Optional<JSONValue>.self, capacity: Key.allCases.count) { $0[key.rawValue] }
            }
        }
        set {
            withUnsafeMutablePointer(to: &values) { tuple in
                tuple.withMemoryRebound(to: Optional<JSONValue>.self, capacity: Key.allCases.count) {
                    $0[key.rawValue] = newValue
                }
            }
        }
    }

    /// The event type as a shared string when it is one this client knows (no allocation per event).
    static func internedType(_ key: Key, _ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard key == .type, raw.count < typesByLength.count, let base = raw.baseAddress else { return nil }
        for (bytes, name) in typesByLength[raw.count] {
            if bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, raw.count) == 0 }) { return name }
        }
        return nil
    }

    static let typesByLength: [[([UInt8], String)]] = {
        let names = ResponseStreamEvent.knownTypes
        var table = [[([UInt8], String)]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for name in names { table[name.utf8.count].append((Array(name.utf8), name)) }
        return table
    }()

    static let keysByName: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.name, $0) })

    /// The key whose name is these bytes, or nil; keys are grouped by length so a lookup makes no String.
    static func key(named raw: UnsafeBufferPointer<UInt8>) -> Key? {
        guard raw.count < keysByLength.count, let base = raw.baseAddress else { return nil }
        for (bytes, key) in keysByLength[raw.count] {
            if bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, raw.count) == 0 }) { return key }
        }
        return nil
    }

    static let keysByLength: [[([UInt8], Key)]] = {
        var table = [[([UInt8], Key)]](repeating: [], count: (Key.names.map(\.utf8.count).max() ?? 0) + 1)
        for key in Key.allCases { table[key.name.utf8.count].append((Array(key.name.utf8), key)) }
        return table
    }()
}
