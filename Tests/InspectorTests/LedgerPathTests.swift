import Foundation
import Testing

@testable import Inspector

/// A ledger entry's id, a server's word, is one path segment whatever it holds: `ledger gc` and `verify` cannot be
/// sent to another object by an id with `/`, `..`, `?` or `;` in it.
@Suite("Ledger paths")
struct LedgerPathTests {
    @Test func anIdIsOneSegment() {
        #expect(LedgerEntry.segment("file-abc_123") == "file-abc_123")
        #expect(LedgerEntry.segment("x/../../vector_stores/vs_1") == "x%2F%2E%2E%2F%2E%2E%2Fvector_stores%2Fvs_1")
        #expect(LedgerEntry.segment("file-VICTIM?x") == "file-VICTIM%3Fx")
        #expect(LedgerEntry.segment("..") == "%2E%2E")
        #expect(LedgerEntry.segment("a;b#c") == "a%3Bb%23c")
    }
}
