/// What a stream carries that differs every time and means nothing: the random `obfuscation` padding the
/// API adds to delta events (unless `stream_options.include_obfuscation` is false). Dumps and diffs leave it
/// out so that two runs of one request compare; the inspector keeps it, with every other byte.
public enum StreamNoise {
    /// An event's data without its top-level `obfuscation` string (and the comma that went with it), every
    /// other byte as it was; the data unchanged when it has none (or is not a JSON object).
    public static func withoutObfuscation(_ data: [UInt8]) -> [UInt8] {
        guard data.count > 16,
            let cut = data.withUnsafeBufferPointer({ JSONParser.memberRange(of: "obfuscation", in: $0) })
        else {
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
        var found: Range<Int>?
        var previousEnd: Int?  // where the previous member's value ended
        _ = walkMembers(buffer) { member in
            guard member.keyIs(key), buffer[member.value.lowerBound] == UInt8(ascii: "\"") else {
                previousEnd = member.value.upperBound
                return true
            }
            if buffer[member.separator] == UInt8(ascii: ",") {
                found = member.start..<(member.separator + 1)
            } else {
                // The last member: the comma before it goes instead.
                found = (previousEnd ?? member.start)..<member.value.upperBound
            }
            return false
        }
        return found
    }
}
