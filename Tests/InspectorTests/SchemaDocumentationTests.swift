import Foundation
import GRDB
import Inspector
import TestSupport
import Testing

/// inspector/README.md documents every column of the store, and nothing that is not there.
@Suite("Schema documentation")
struct SchemaDocumentationTests {
    @Test func everyColumnIsDocumented() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let readme = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("inspector/README.md"), encoding: .utf8)
        for table in ["exchange", "event", "event_batch", "ledger"] {
            let columns = try await store.store.writer.read { db in
                try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
            }
            let parts = readme.components(separatedBy: "## `\(table)`")
            try #require(parts.count == 2, "inspector/README.md needs exactly one section for \(table)")
            let section = parts[1].components(separatedBy: "\n## ").first ?? ""
            var documented: [String] = []
            for line in section.split(separator: "\n") where line.hasPrefix("| `") {
                let cell = line.split(separator: "|").first ?? ""
                documented += cell.split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
                }
            }
            #expect(
                Set(columns) == Set(documented),
                "\(table): undocumented \(Set(columns).subtracting(documented)), stale \(Set(documented).subtracting(columns))"
            )
        }
    }
}
