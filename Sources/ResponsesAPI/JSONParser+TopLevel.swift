#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON object's top-level members read in place: where each key, member and value is, values skipped
/// rather than built. A text delta event's few fields (`topLevelFields`) and the member `StreamNoise` cuts
/// out are both found this way.
extension JSONParser {
    /// One top-level member: its key's raw bytes, where it starts (its key's opening quote), its value's
    /// bytes, and the position of the `,` or `}` after it.
    struct Member {
        var key: UnsafeBufferPointer<UInt8>
        var start: Int
        var value: Range<Int>
        var separator: Int

        func keyIs(_ name: StaticString) -> Bool {
            key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
        }
    }

    /// Calls `body` with each member in order until it returns false; false when the data is not an
    /// object, as far as it was read.
    static func walkMembers(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (Member) -> Bool) -> Bool {
        var parser = JSONParser(bytes: buffer)
        do throws(JSONParseError) {
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { return false }
            parser.index += 1
            parser.skipWhitespace()
            if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "}") { return true }
            while true {
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") else { return false }
                let start = parser.index
                try parser.skipString()
                let key = UnsafeBufferPointer(rebasing: buffer[(start + 1)..<(parser.index - 1)])
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: ":") else { return false }
                parser.index += 1
                parser.skipWhitespace()
                let valueStart = parser.index
                try parser.skipValue(depth: 1)
                let value = valueStart..<parser.index
                parser.skipWhitespace()
                guard parser.index < buffer.count else { return false }
                let separator = buffer[parser.index]
                guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: "}") else { return false }
                guard body(Member(key: key, start: start, value: value, separator: parser.index)) else { return true }
                if separator == UInt8(ascii: "}") { return true }
                parser.index += 1
            }
        } catch {
            return false
        }
    }

    struct TopLevelFields {
        var type: String?
        var outputIndex: Int?
        var contentIndex: Int?
        var summaryIndex: Int?
        /// The raw bytes of the `delta` string, quotes excluded.
        var delta: Range<Int>?
    }

    /// Where a text delta event's `delta` string's raw bytes are (quotes excluded): `topLevelFields(_:)?.delta`
    /// without parsing the other fields' values (asked of every delta of a stream; the type string alone was
    /// an allocation each).
    static func deltaRange(_ buffer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var delta: Range<Int>?
        let read = walkMembers(buffer) { member in
            if member.keyIs("delta"), buffer[member.value.lowerBound] == UInt8(ascii: "\"") {
                delta = (member.value.lowerBound + 1)..<(member.value.upperBound - 1)
            }
            return true
        }
        return read ? delta : nil
    }

    /// The few top-level fields of a text delta event that say which text it belongs to, and where its
    /// `delta` string's raw bytes are; nil when the data is not a JSON object.
    static func topLevelFields(_ buffer: UnsafeBufferPointer<UInt8>) -> TopLevelFields? {
        var fields = TopLevelFields()
        func value(_ member: Member) -> JSONValue? { try? parse(UnsafeBufferPointer(rebasing: buffer[member.value])) }
        let read = walkMembers(buffer) { member in
            if member.keyIs("delta"), buffer[member.value.lowerBound] == UInt8(ascii: "\"") {
                fields.delta = (member.value.lowerBound + 1)..<(member.value.upperBound - 1)
            } else if member.keyIs("type") {
                fields.type = value(member)?.stringValue
            } else if member.keyIs("output_index") {
                fields.outputIndex = value(member)?.intValue
            } else if member.keyIs("content_index") {
                fields.contentIndex = value(member)?.intValue
            } else if member.keyIs("summary_index") {
                fields.summaryIndex = value(member)?.intValue
            }
            return true
        }
        return read ? fields : nil
    }
}
