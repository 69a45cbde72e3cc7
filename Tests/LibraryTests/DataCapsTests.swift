import Foundation
import Library
import Testing

/// JSON and CSV whose text grows far past the file (a long key on every leaf, a long header on every cell):
/// the text cap stops them as the text is made, before it is all in memory (the review of issue 43 built
/// 200 MB of text from a 50 KB JSON before the cap was looked at).
@Suite("Resource caps on JSON and CSV")
struct DataCapsTests {
    let files: LibraryFixtures

    init() throws {
        files = try LibraryFixtures()
    }

    func refusal(_ url: URL, textBytes: Int) async throws -> LibraryError? {
        var extractors = Extractors(environment: ProcessInfo.processInfo.environment)
        extractors.caps = ResourceCaps(textBytes: textBytes)
        do {
            let document = try await extractors.read(
                url, as: try #require(DocumentType(fileExtension: url.pathExtension)))
            Issue.record("\(url.lastPathComponent) was read (\(document.text.utf8.count) bytes of text), not refused")
            return nil
        } catch let error as LibraryError {
            return error
        }
    }

    @Test func aKeyRepeatedOnEveryLeafIsStoppedWhileTheTextIsMade() async throws {
        defer { files.remove() }
        let key = String(repeating: "k", count: 10_000)
        let json = try files.write(
            "long-key.json", #"{"\#(key)":[\#(Array(repeating: "0", count: 20_000).joined(separator: ","))]}"#)
        let error = try #require(try await refusal(json, textBytes: 1 << 20))
        #expect(error.description.contains("library.max_text_mb"), "\(error)")
        #expect(error.description.contains("while it was read"), "\(error)")
    }

    @Test func aHeaderRepeatedOnEveryCellIsStoppedWhileTheTextIsMade() async throws {
        defer { files.remove() }
        let header = (1...5).map { "h\($0)" + String(repeating: "x", count: 20_000) }.joined(separator: ",")
        let csv = try files.write(
            "long-header.csv",
            header + "\n" + Array(repeating: "1,2,3,4,5", count: 2_000).joined(separator: "\n") + "\n")
        let error = try #require(try await refusal(csv, textBytes: 1 << 20))
        #expect(error.description.contains("library.max_text_mb"), "\(error)")
        #expect(error.description.contains("while it was read"), "\(error)")
    }

    @Test func aDataFileLargerThanTheCapIsRefusedBeforeItIsRead() async throws {
        defer { files.remove() }
        let json = try files.write("big.json", "[" + Array(repeating: "1", count: 400_000).joined(separator: ",") + "]")
        let error = try #require(try await refusal(json, textBytes: 100_000))
        #expect(error.description.contains("bytes of text"), "\(error)")
    }
}
