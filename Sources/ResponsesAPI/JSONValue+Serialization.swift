import Foundation

extension JSONValue {
    /// Parses JSON bytes, keeping object keys in order. Throws `JSONParseError` (with line and column)
    /// when the bytes are not JSON.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }.get()
    }

    /// Parses JSON bytes keeping only the first `stringPrefix` bytes (as written) of each longer string: what a
    /// reader of a request's fields needs (its model, the start of its input), without a copy of a document
    /// of tens of megabytes it carries.
    public static func parse(_ bytes: [UInt8], stringPrefix: Int) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, stringPrefix: stringPrefix)
            }
        }.get()
    }

    /// Parses a JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }.get()
    }

    /// Serializes to compact JSON, keeping object keys in insertion order.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, indent: nil, level: 0)
        return out
    }

    /// Serializes to indented JSON (two spaces), keeping object keys in insertion order.
    public func prettyPrinted() -> String {
        var out: [UInt8] = []
        write(into: &out, indent: 2, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    public var compactString: String { String(decoding: serialized(), as: UTF8.self) }

    private func write(into out: inout [UInt8], indent: Int?, level: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .number(let value): out.append(contentsOf: Self.format(value).utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            if values.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(into: &out, indent: indent, level: level + 1)
                value.write(into: &out, indent: indent, level: level + 1)
            }
            Self.newline(into: &out, indent: indent, level: level)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Self.newline(into: &out, indent: indent, level: level + 1)
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                value.write(into: &out, indent: indent, level: level + 1)
            }
            Self.newline(into: &out, indent: indent, level: level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into out: inout [UInt8], indent: Int?, level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    /// A number as JSON. A literal too large for a double parses as an infinity; it is written back as
    /// `1e999` (or `-1e999`), which parses to the same value, where `null` would change it (found by
    /// fuzzing). NaN, which no JSON text gives, is `null`.
    static func format(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// A string as JSON: runs that need no escape are copied whole (a piped document of tens of megabytes
    /// is one string), and room for a long one is made once.
    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            if bytes.count > 65536 { out.reserveCapacity(out.count + bytes.count + 64) }
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
