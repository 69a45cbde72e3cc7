/// What a stream carries that differs every time and means nothing: the random `obfuscation` padding the
/// API adds to delta events (unless `stream_options.include_obfuscation` is false). Dumps and diffs leave it
/// out so that two runs of one request compare; the inspector keeps it, with every other byte.
public enum StreamNoise {
    /// An event's data without its top-level `obfuscation` string (and the comma that went with it), every
    /// other byte as it was; the data unchanged when it has none (or is not a JSON object).
    public static func withoutObfuscation(_ data: [UInt8]) -> [UInt8] {
        guard data.count > 16, let cut = data.withUnsafeBufferPointer({ JSONParser.memberRange(of: "obfuscation", in: $0) }) else {
            return data
        }
        var out = data
        out.removeSubrange(cut)
        return out
    }
}

extension JSONParser {
    /// The bytes of a top-level string member `"key": "..."` with the comma that separates it from its
    /// neighbour (the one after it, or before it when it is last), or nil.
    static func memberRange(of key: StaticString, in buffer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var parser = JSONParser(bytes: buffer)
        do throws(JSONParseError) {
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { return nil }
            parser.index += 1
            var previousEnd: Int?  // where the previous member's value ended
            while true {
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "\"") else { return nil }
                let memberStart = parser.index
                try parser.skipString()
                let name = UnsafeBufferPointer(rebasing: buffer[(memberStart + 1)..<(parser.index - 1)])
                parser.skipWhitespace()
                guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: ":") else { return nil }
                parser.index += 1
                parser.skipWhitespace()
                let isKey = name.count == key.utf8CodeUnitCount && name.elementsEqual(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
                let isString = parser.index < buffer.count && buffer[parser.index] == UInt8(ascii: "\"")
                try parser.skipValue(depth: 1)
                let valueEnd = parser.index
                parser.skipWhitespace()
                guard parser.index < buffer.count else { return nil }
                let separator = buffer[parser.index]
                if isKey, isString {
                    if separator == UInt8(ascii: ",") { return memberStart..<(parser.index + 1) }
                    // The last member: the comma before it goes instead.
                    guard separator == UInt8(ascii: "}") else { return nil }
                    guard let previousEnd else { return memberStart..<valueEnd }
                    return previousEnd..<valueEnd
                }
                switch separator {
                case UInt8(ascii: ","):
                    previousEnd = valueEnd
                    parser.index += 1
                case UInt8(ascii: "}"): return nil
                default: return nil
                }
            }
        } catch {
            return nil
        }
    }
}
