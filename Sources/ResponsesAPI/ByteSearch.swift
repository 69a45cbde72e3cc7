#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding a short needle (a secret) in a long haystack (an event, a batch of events): memchr for the
/// needle's rarest-looking byte, so ordinary text gives few false starts, and memcmp for the whole (memmem
/// is not in every libc's default headers). The inspector's `Redactor` and the stream's cut of repeated
/// texts look for the API key the same way.
public enum ByteSearch {
    /// Offset of the first occurrence of `needle` in `haystack` at or after `start`.
    public static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0)
        -> Int?
    {
        guard needle.count > 0, haystack.count - start >= needle.count else { return nil }
        return find(needle, anchor: anchor(of: needle), in: haystack, from: start)
    }

    /// `find` with the needle's anchor (`anchor(of:)`) worked out once, for a needle looked for many times.
    static func find(
        _ needle: UnsafeRawBufferPointer, anchor: Int, in haystack: UnsafeRawBufferPointer, from start: Int = 0
    ) -> Int? {
        guard needle.count > 0, haystack.count - start >= needle.count else { return nil }
        let target = Int32(needle[anchor])
        var position = start + anchor
        let last = haystack.count - needle.count + anchor
        while position <= last {
            guard let hit = memchr(haystack.baseAddress! + position, target, last - position + 1) else { return nil }
            let offset = UnsafeRawPointer(hit) - haystack.baseAddress! - anchor
            if memcmp(haystack.baseAddress! + offset, needle.baseAddress!, needle.count) == 0 { return offset }
            position = offset + anchor + 1
        }
        return nil
    }

    /// The secrets worth looking for, as bytes, each once (a request names its key in the configuration and
    /// again in its `Authorization` header), longest first (so a secret containing another is replaced whole);
    /// values shorter than 8 bytes are not secrets worth hunting (and would shred ordinary text).
    public static func secrets(_ values: [String]) -> [[UInt8]] {
        var seen = Set<String>()
        return values.filter { $0.utf8.count >= 8 && seen.insert($0).inserted }.map { Array($0.utf8) }
            .sorted { $0.count > $1.count }
    }

    /// Needles looked for in many haystacks (every delta event of a stream), each with its anchor.
    struct Needles {
        private let needles: [(bytes: [UInt8], anchor: Int)]

        init(_ needles: [[UInt8]]) {
            self.needles = needles.map { needle in (needle, needle.withUnsafeBytes { ByteSearch.anchor(of: $0) }) }
        }

        var isEmpty: Bool { needles.isEmpty }

        /// Overwrites every occurrence with `*` (same length, so offsets into the bytes still hold); true
        /// when there was any.
        func mask(_ bytes: inout [UInt8]) -> Bool {
            var found = false
            for needle in needles {
                var from = 0
                while let at = needle.bytes.withUnsafeBytes({ n in
                    bytes.withUnsafeBytes { find(n, anchor: needle.anchor, in: $0, from: from) }
                }) {
                    for index in at..<(at + needle.bytes.count) { bytes[index] = UInt8(ascii: "*") }
                    from = at + needle.bytes.count
                    found = true
                }
            }
            return found
        }

        func occur(in haystack: UnsafeRawBufferPointer) -> Bool {
            needles.contains { needle in
                needle.bytes.withUnsafeBytes { find($0, anchor: needle.anchor, in: haystack) != nil }
            }
        }
    }

    /// The position in `needle` of the byte least likely in JSON and prose: an upper-case letter, then
    /// anything but a digit, a lower-case letter, a space, `_` or common punctuation, then a digit (every
    /// event of a stream has digits, its sequence number and indices, and underscores in their keys; a key
    /// like `sk-test-1234` anchored on a digit stopped the scan two or three times an event).
    static func anchor(of needle: UnsafeRawBufferPointer) -> Int {
        func rank(_ byte: UInt8) -> Int {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: ","),
                UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "_"):
                3
            case UInt8(ascii: "0")...UInt8(ascii: "9"): 2
            default: 1
            }
        }
        var best = 0
        for index in needle.indices where rank(needle[index]) < rank(needle[best]) { best = index }
        return best
    }
}
