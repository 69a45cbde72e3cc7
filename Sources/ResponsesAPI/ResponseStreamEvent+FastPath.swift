#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ResponseStreamEvent {
    /// The fast path for `response.output_text.delta`, most of a long stream's events: read straight from
    /// the bytes, without the general field parser, when the event has the plain shape servers send
    /// (`type` first; then `sequence_number`, `item_id`, `output_index`, `content_index`, `delta`,
    /// `logprobs: []` and `obfuscation`, in any order; integers; strings without escapes). Anything else —
    /// another key, an escape, non-empty log probabilities, odd spacing — returns nil and the general path
    /// decodes the event, so the two always agree (the tests hold them to it).
    /// `rawDelta`: where the delta string's bytes are in `data` (quotes excluded), nil when it has none.
    static func fastOutputTextDelta(_ data: UnsafeBufferPointer<UInt8>) -> (
        sequenceNumber: Int?, delta: TextDelta, rawDelta: Range<Int>?
    )? {
        fastOutputTextDelta(data, previousItemID: "")
    }

    /// The same, giving back `previousItemID` itself when the delta's item id has the same bytes: a
    /// message's deltas all name one item, and the API's ids are some 50 bytes, a new string each time (an
    /// allocation and a UTF-8 check) otherwise.
    static func fastOutputTextDelta(
        _ data: UnsafeBufferPointer<UInt8>, previousItemID: String
    ) -> (sequenceNumber: Int?, delta: TextDelta, rawDelta: Range<Int>?)? {
        let prefix: StaticString = #"{"type":"response.output_text.delta""#
        guard data.count > prefix.utf8CodeUnitCount, let base = data.baseAddress,
            FastDeltaKey.matches(base, prefix)
        else { return nil }
        var index = prefix.utf8CodeUnitCount
        let end = data.count
        var sequenceNumber: Int?
        var itemID = ""
        var outputIndex = 0
        var contentIndex = 0
        var delta = ""
        var rawDelta: Range<Int>?

        /// An unsigned or negative integer of up to 18 digits, ending at ',' or '}'.
        func integer() -> Int? {
            var position = index
            let negative = position < end && base[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let digitsStart = position
            var value = 0
            while position < end, base[position] &- UInt8(ascii: "0") < 10 {
                value = value &* 10 &+ Int(base[position] &- UInt8(ascii: "0"))
                position += 1
            }
            let digits = position - digitsStart
            // JSON allows no leading zero.
            guard digits > 0, digits <= 18, digits == 1 || base[digitsStart] != UInt8(ascii: "0") else { return nil }
            index = position
            return negative ? -value : value
        }
        /// The bytes of a string without escapes or control characters, the quotes excluded.
        func rawString() -> UnsafeBufferPointer<UInt8>? {
            guard index < end, base[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            let position = JSONParser.firstSpecial(base, from: start, to: end)
            guard position < end, base[position] == UInt8(ascii: "\"") else { return nil }
            index = position + 1
            return UnsafeBufferPointer(start: base + start, count: position - start)
        }

        /// The key servers send next (they keep one order): its `,"key":` compared whole, at once.
        var predicted = FastDeltaKey.sequenceNumber
        while true {
            guard index < end else { return nil }
            if base[index] == UInt8(ascii: "}") {
                return index + 1 == end
                    ? (
                        sequenceNumber,
                        TextDelta(itemID: itemID, outputIndex: outputIndex, partIndex: contentIndex, delta: delta),
                        rawDelta
                    )
                    : nil
            }
            let found: FastDeltaKey?
            let introducer = predicted.introducer
            if end - index > introducer.utf8CodeUnitCount, FastDeltaKey.matches(base + index, introducer) {
                found = predicted
                index += introducer.utf8CodeUnitCount
            } else {
                guard base[index] == UInt8(ascii: ","), index + 1 < end else { return nil }
                index += 1
                guard let key = rawString(), index < end, base[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                found = FastDeltaKey(key)
            }
            if let found { predicted = found.next }
            switch found {
            case .sequenceNumber?:
                guard let value = integer() else { return nil }
                sequenceNumber = value
            case .outputIndex?:
                guard let value = integer() else { return nil }
                outputIndex = value
            case .contentIndex?:
                guard let value = integer() else { return nil }
                contentIndex = value
            case .itemID?:
                guard let value = rawString() else { return nil }
                itemID = previousItemID.hasUTF8(value) ? previousItemID : String(decoding: value, as: UTF8.self)
            case .delta?:
                guard let value = rawString() else { return nil }
                delta = String(decoding: value, as: UTF8.self)
                let start = base.distance(to: value.baseAddress!)
                rawDelta = start..<(start + value.count)
            case .obfuscation?:
                guard rawString() != nil else { return nil }
            case .logprobs?:
                guard index + 1 < end, base[index] == UInt8(ascii: "["), base[index + 1] == UInt8(ascii: "]") else {
                    return nil
                }
                index += 2
            case nil:
                return nil
            }
        }
    }
}

/// The keys the delta fast path reads, told apart by length and a byte or two.
private enum FastDeltaKey {
    // In the order the API sends them.
    case sequenceNumber, itemID, outputIndex, contentIndex, delta, logprobs, obfuscation

    /// The key after this one in that order. (A switch, not raw values and `CaseIterable`: each conformance
    /// is one more record that every failed conformance lookup at start-up scans.)
    var next: FastDeltaKey {
        switch self {
        case .sequenceNumber: .itemID
        case .itemID: .outputIndex
        case .outputIndex: .contentIndex
        case .contentIndex: .delta
        case .delta: .logprobs
        case .logprobs: .obfuscation
        case .obfuscation: .sequenceNumber
        }
    }

    /// The bytes that bring the key in after the member before it.
    var introducer: StaticString {
        switch self {
        case .sequenceNumber: #","sequence_number":"#
        case .itemID: #","item_id":"#
        case .outputIndex: #","output_index":"#
        case .contentIndex: #","content_index":"#
        case .delta: #","delta":"#
        case .logprobs: #","logprobs":"#
        case .obfuscation: #","obfuscation":"#
        }
    }

    /// Whether the bytes at `base` begin with `literal` (eight or more bytes long, as every key's introducer
    /// and the type prefix are), compared a word at a time in place: a call to `memcmp` per key cost some
    /// twenty instructions more, seven times a delta.
    @inline(__always)
    static func matches(_ base: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        let bytes = UnsafeRawPointer(base)
        let expected = UnsafeRawPointer(literal.utf8Start)
        guard count >= 8 else { return memcmp(bytes, expected, count) == 0 }
        var offset = 0
        while offset + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        // The last word, overlapping the one before: the bytes left over.
        return offset == count
            || bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == expected.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    init?(_ key: UnsafeBufferPointer<UInt8>) {
        func equals(_ literal: StaticString) -> Bool {
            literal.utf8CodeUnitCount == key.count && memcmp(literal.utf8Start, key.baseAddress!, key.count) == 0
        }
        switch key.count {
        case 5 where equals("delta"): self = .delta
        case 7 where equals("item_id"): self = .itemID
        case 8 where equals("logprobs"): self = .logprobs
        case 11 where equals("obfuscation"): self = .obfuscation
        case 12 where equals("output_index"): self = .outputIndex
        case 13 where equals("content_index"): self = .contentIndex
        case 15 where equals("sequence_number"): self = .sequenceNumber
        default: return nil
        }
    }
}
