import Foundation
import ResponsesAPI
import TestSupport
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test func keepsKeyOrderAndRoundTrips() throws {
        let text = #"{"z":1,"a":[true,false,null],"m":{"y":"é👋","b":-0.5,"e":1e3},"n":-12}"#
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == ["z", "a", "m", "n"])
        #expect(value["m"]?.objectValue?.keys == ["y", "b", "e"])
        #expect(value.compactString == #"{"z":1,"a":[true,false,null],"m":{"y":"é👋","b":-0.5,"e":1000},"n":-12}"#)
        #expect(value["n"] == .integer(-12))
        #expect(value["m"]?["b"] == .number(-0.5))
    }

    @Test func escapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\udc4b", "\udc4b lone"]"#)
        #expect(value[0] == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(value[1] == .string("é中"))
        #expect(value[2] == .string("👋"))
        #expect(value[3] == .string("\u{FFFD} lone"))
        // Serialising escapes what must be escaped and nothing else.
        #expect(JSONValue.string("a\"b\\\n\u{1}é").compactString == #""a\"b\\\n\u0001é""#)
        // A long string is copied in runs between escapes: each run and each escape lands where it belongs.
        let long = String(repeating: "abc\u{1F}é\"", count: 30_000) + String(repeating: "x", count: 100_000)
        #expect(
            try JSONValue.parse(JSONValue.array([.string(long), "after"]).serialized()) == [.string(long), "after"])
    }

    /// `parse(_:stringPrefix:)` keeps each long string's first bytes, cut before a scalar or an escape the
    /// limit falls in, and reads every other value as `parse` does.
    @Test func longStringsAreCutAtAScalarOrAnEscape() throws {
        func cut(_ text: String, _ limit: Int) throws -> String? {
            try JSONValue.parse(Array(#"{"a":"\#(text)","b":[1,"ok"]}"#.utf8), stringPrefix: limit)["a"]?.stringValue
        }
        #expect(try cut("abcdef", 6) == "abcdef")
        #expect(try cut("abcdef", 4) == "abcd")
        #expect(try cut("abé", 3) == "ab", "é's two bytes are not split")
        #expect(try cut(#"ab\ncd"#, 3) == "ab", "an escape is not split")
        #expect(try cut(#"ab\ncd"#, 4) == "ab\n")
        #expect(try cut(#"a\\\\b"#, 2) == "a", "the second backslash of an escaped one is not a new escape")
        #expect(try cut(#"a\u00e9bc"#, 5) == "a", "a \\u escape is whole or left out")
        #expect(try cut(#"a\u00e9bc"#, 7) == "aé")
        #expect(try JSONValue.parse(Array(#"{"a":"xyz","b":[1,"ok"]}"#.utf8), stringPrefix: 1)["b"] == [1, "o"])
    }

    @Test func bigIntegersBecomeDoublesAndStayNumbers() throws {
        let value = try JSONValue.parse("[9223372036854775807, 92233720368547758070, 0, -0, 1.0]")
        #expect(value[0] == .integer(Int.max))
        #expect(value[1]?.doubleValue == 92233720368547758070.0)
        #expect(value[2] == .integer(0))
        #expect(value[4]?.intValue == 1)
    }

    @Test(
        "errors say where",
        arguments: [
            ("{\"a\":1,}", "line 1, column 8: expected a string key, found '}'"),
            ("{\"a\" 1}", "line 1, column 6: expected ':' after key \"a\""),
            ("[1,\n 2,\n x]", "line 3, column 2: unexpected character 'x', expected a value"),
            ("\"open", "line 1, column 1: unterminated string"),
            ("{\"a\":01}", "line 1, column 7: expected ',' or '}' in an object, found '1'"),
            ("[1] 2", "line 1, column 5: unexpected data after the JSON value"),
            ("tru", "line 1, column 1: unexpected end of input in a literal"),
            ("\"tab\there\"", "line 1, column 5: control character byte 0x9 in a string"),
            ("\"\\q\"", "line 1, column 2: invalid escape '\\'q'' in a string"),
            ("", "line 1, column 1: unexpected end of input, expected a value"),
        ])
    func errorsSayWhere(_ text: String, _ message: String) {
        #expect {
            _ = try JSONValue.parse(text)
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? JSONValue.parse(fine)) != nil)
    }

    @Test func stringsOfEveryLengthAndEscapePositionRoundTrip() throws {
        // Escapes and multi-byte characters land at every offset from the eight-byte steps the scan takes.
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "a", "plain text ", "\"", "\\", "\n", "\t", "\u{1}", "/", "é", "中文", "👋", "0123456789abcdef", "\u{7F}",
        ]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let encoded = JSONValue.array([.string(text), .string(text + text)]).compactString
            let value = try JSONValue.parse(encoded)
            #expect(value[0] == .string(text), "\(encoded)")
            #expect(value[1] == .string(text + text), "\(encoded)")
        }
    }

    @Test func aControlCharacterIsFoundWhereverItIs() {
        for position in 0..<40 {
            let plain =
                "\"" + String(repeating: "x", count: position) + "\u{1}" + String(repeating: "y", count: 20) + "\""
            #expect { _ = try JSONValue.parse(plain) } throws: {
                "\($0)" == "line 1, column \(position + 2): control character byte 0x1 in a string"
            }
            // After an escape, where the string is decoded into its storage.
            let escaped =
                "\"\\n" + String(repeating: "x", count: position) + "\u{1}" + String(repeating: "y", count: 20) + "\""
            #expect { _ = try JSONValue.parse(escaped) } throws: {
                "\($0)" == "line 1, column \(position + 4): control character byte 0x1 in a string"
            }
        }
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        let bytes: [UInt8] = Array(#"{"t":""#.utf8) + [0xFF, 0x41] + Array(#""}"#.utf8)
        #expect(try JSONValue.parse(bytes)["t"] == .string("\u{FFFD}A"))
    }

    @Test(.enabled(if: TestSupportPaths.conformanceJSON != nil, "../shared/conformance is absent"))
    func agreesWithFoundationOnTheRecordedBodies() throws {
        let directory = try #require(TestSupportPaths.conformanceJSON)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        try #require(!names.isEmpty, "no recorded bodies in \(directory.path)")
        var compared = 0
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let foundation = try #require(
                try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                "Foundation cannot read \(name)")
            let ours = try JSONValue.parse(Array(data))
            let back = try JSONSerialization.jsonObject(with: Data(ours.serialized()), options: [.fragmentsAllowed])
            #expect(NSDictionary(dictionary: ["v": foundation]).isEqual(to: ["v": back]), "\(name)")
            compared += 1
        }
        #expect(compared == names.count)
    }
}

enum TestSupportPaths {
    static var conformanceJSON: URL? { Fixtures.conformanceDirectory?.appendingPathComponent("json") }
}
