import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `LineReader`: a file a line at a time across the reads' edges, a last line with no end, CRLF, and a line
/// too long named by its number instead of read whole.
@Suite("Line reader")
struct LineReaderTests {
    let home = TestHome("lines")

    func lines(_ bytes: [UInt8], maximumLine: Int = 64 << 20) throws -> [String] {
        try home.write("f.jsonl", "")
        let path = home.appendingPathComponent("f.jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try LineReader(path: path, maximumLine: maximumLine)
        var result: [String] = []
        while let line = try reader.next() { result.append(String(decoding: line, as: UTF8.self)) }
        #expect(reader.offset == bytes.count)
        return result
    }

    @Test func linesAcrossChunksAndEnds() throws {
        defer { home.remove() }
        let long = String(repeating: "x", count: LineReader.chunkSize + 10)
        #expect(try lines(Array("a\r\nb\n\n\(long)\nlast".utf8)) == ["a", "b", "", long, "last"])
        #expect(try lines([]) == [])
        #expect(try lines(Array("one\n".utf8)) == ["one"])
    }

    @Test func aLineTooLongIsNamed() throws {
        defer { home.remove() }
        #expect {
            _ = try lines(Array(("ok\n" + String(repeating: "y", count: 3 << 20)).utf8), maximumLine: 1 << 20)
        } throws: { error in
            "\(error)".hasSuffix("f.jsonl:2: the line is longer than 1.0 MB; a line is one request")
        }
    }
}
