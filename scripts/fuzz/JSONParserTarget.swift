// libFuzzer target: the JSON parser. Built by scripts/fuzz.sh together with ResponsesAPI's wire-format
// sources (not a package target). Any input either fails with a JSONParseError or parses; a parsed value
// serialises to JSON that parses back to the same value (numbers by value) and serialises to the same bytes. An input shaped
// like a stream event also goes through the event decoder, whose fast path for output_text deltas must
// agree with the general one, and decoding it with a stream's long strings (twice) must change nothing.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let serialized = value.serialized()
    guard let again = try? JSONValue.parse(serialized) else {
        preconditionFailure("serialized JSON does not parse back: \(String(decoding: serialized, as: UTF8.self))")
    }
    precondition(again.serialized() == serialized, "serialising the parsed value again changed it")
    precondition(again.isSameJSON(as: value), "the round trip changed the value")
    if case .object = value {
        let event = ServerSentEvent(data: Array(bytes))
        if let decoded = try? ResponseStreamEvent(event) {
            precondition(decoded == (try? ResponseStreamEvent(general: event)), "fast and general paths disagree")
            // With a stream's long strings (kept from 8 bytes here), decoding it twice gives the same event.
            let longStrings = LongStrings(threshold: 8)
            precondition(
                decoded == (try? ResponseStreamEvent(event, longStrings: longStrings)), "long strings changed an event")
            precondition(
                decoded == (try? ResponseStreamEvent(event, longStrings: longStrings)),
                "a long string found again differs")
        }
    }
    return 0
}

extension JSONValue {
    /// Equal as JSON: numbers compare by value, since JSON does not tell 1.0 from 1 (the serialiser
    /// writes a whole double as an integer, and the parser reads it back as one).
    func isSameJSON(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): a == b
        case (.number(let a), .integer(let b)), (.integer(let b), .number(let a)): a == Double(b)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isSameJSON(as: $1) }
        case (.object(let a), .object(let b)):
            Array(a.map(\.key)) == Array(b.map(\.key)) && zip(a, b).allSatisfy { $0.value.isSameJSON(as: $1.value) }
        default: self == other
        }
    }
}
