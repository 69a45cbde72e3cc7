import Foundation
import Library
import TestSupport
import Testing

/// Issue 43: no search text is FTS5 syntax. Random strings of quotes, combining marks, ZWJ sequences,
/// controls and FTS5's own operators, searched in a real library store: the query never fails.
@Suite("hostile search text (library)")
struct HostileQueryTests {
    @Test func noRandomSearchTextIsASyntaxError() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let store = try files.openStore()
        let notes = try files.write(
            "quotes.md", "# Quotes\n\nA \"quoted\" word, é\u{0301}, 👩\u{200D}💻 and NEAR OR AND.\n")
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add([notes]) { _ in }
        var strings = HostileStrings(seed: 50)
        var failures: [String] = []
        for text in ["\"\u{0301}", "\u{0600}\"", "\"\u{0301} x", "word\"\u{0301}*"]
            + (0..<1_500).map({ _ in strings.next() })
        {
            do {
                _ = try await store.search(text)
            } catch {
                failures.append("\(Array(text.unicodeScalars)): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(try await store.search("quoted \"\u{0301}").map(\.path) == [notes.path])
    }
}
