#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few top-level fields of a text delta event that say which text it belongs to, and where its
/// `delta` string's raw bytes are: one pass that builds nothing but the type (the delta is skipped).
extension JSONParser {
    struct TopLevelFields {
        var type: String?
        var outputIndex: Int?
        var contentIndex: Int?
        var summaryIndex: Int?
        /// The raw bytes of the `delta` string, quotes excluded.
        var delta: Range<Int>?
    }

    /// The fields, or nil when the data is not a JSON object.
    static func topLevelFields(_ buffer: UnsafeBufferPointer<UInt8>) -> TopLevelFields? {
        var parser = JSONParser(bytes: buffer)
        var fields = TopLevelFields()
        func keyIs(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
        }
        do throws(JSONParseError) {
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { return nil }
            parser.index += 1
            parser.skipWhitespace()
            if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "}") { return fields }
            while true {
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") else { return nil }
                let keyStart = parser.index + 1
                try parser.skipString()
                let key = UnsafeBufferPointer(rebasing: buffer[keyStart..<(parser.index - 1)])
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: ":") else { return nil }
                parser.index += 1
                parser.skipWhitespace()
                let valueStart = parser.index
                if key.count > 0, keyIs(key, "delta"), parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") {
                    try parser.skipString()
                    fields.delta = (valueStart + 1)..<(parser.index - 1)
                } else if key.count > 0, keyIs(key, "type") {
                    fields.type = try parser.parseValue(depth: 1).stringValue
                } else if key.count > 0, keyIs(key, "output_index") {
                    fields.outputIndex = try parser.parseValue(depth: 1).intValue
                } else if key.count > 0, keyIs(key, "content_index") {
                    fields.contentIndex = try parser.parseValue(depth: 1).intValue
                } else if key.count > 0, keyIs(key, "summary_index") {
                    fields.summaryIndex = try parser.parseValue(depth: 1).intValue
                } else {
                    try parser.skipValue(depth: 1)
                }
                parser.skipWhitespace()
                guard parser.index < buffer.count else { return nil }
                switch buffer[parser.index] {
                case UInt8(ascii: ","): parser.index += 1
                case UInt8(ascii: "}"): return fields
                default: return nil
                }
            }
        } catch {
            return nil
        }
    }
}
