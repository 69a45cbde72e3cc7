import Foundation
import Inspector
import TestSupport
import Testing

/// Issue 43, finding 9: `inspect list --search '"́'` and `history search` failed with "unterminated
/// string" (quote doubling by `Character` missed a quote followed by a combining mark). Random strings of
/// quotes, combining marks, ZWJ sequences, controls and FTS5's own operators, searched in a real store:
/// no query fails.
@Suite("hostile search text (inspector)")
struct HostileQueryTests {
    @Test func noRandomSearchTextIsASyntaxError() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        var strings = HostileStrings(seed: 9)
        var failures: [String] = []
        for text in ["\"\u{0301}", "\u{0600}\"", "a \"\u{0301} b", "\"\u{0301}*"]
            + (0..<1_500).map({ _ in strings.next() })
        {
            do {
                _ = try await temporary.store.exchanges(matching: ExchangeQuery(search: text))
                _ = try await temporary.store.sessions(search: text, limit: 5)
            } catch {
                failures.append("\(Array(text.unicodeScalars)): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
