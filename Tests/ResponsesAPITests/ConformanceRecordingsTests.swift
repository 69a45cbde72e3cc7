import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Every real recording in ../shared/conformance/sse decodes with no error, and the text rebuilt from
/// its deltas equals the terminal response's output text. Skipped when ../shared is absent.
@Suite("Conformance recordings", .enabled(if: Fixtures.conformanceDirectory != nil, "../shared/conformance is absent"))
struct ConformanceRecordingsTests {
    static var recordings: [URL] {
        guard let directory = Fixtures.conformanceDirectory?.appendingPathComponent("sse") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".sse") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("decodes, and deltas rebuild the final text", arguments: recordings)
    func recording(_ url: URL) throws {
        let bytes = Array(try Data(contentsOf: url))
        let whole = try Self.decode(bytes, chunkSize: 0)
        #expect(!whole.isEmpty, "no events in \(url.lastPathComponent)")
        #expect(try Self.decode(bytes, chunkSize: 1).map(\.json) == whole.map(\.json))
        if let final = whole.finalResponse, final.status == .completed {
            #expect(whole.deltaText == final.outputText, "\(url.lastPathComponent)")
        }
    }

    static func decode(_ bytes: [UInt8], chunkSize: Int) throws -> [ResponseStreamEvent] {
        try decodeSSE(bytes, chunkSize: chunkSize).map { try ResponseStreamEvent($0) }
    }
}
