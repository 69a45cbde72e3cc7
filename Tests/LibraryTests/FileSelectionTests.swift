import Foundation
import Library
import Testing

/// Which files `library add` takes from folders and globs when symbolic links point elsewhere: a link that
/// leaves the folder named is skipped and said, by a glob as by a folder walk.
@Suite("Selecting files")
struct FileSelectionTests {
    let files: LibraryFixtures
    let inside: URL
    let outside: URL

    /// `docs/` holds a.md, sub/b.md, `inner.md` (a link to a.md), `escape.md` (a link to a file outside
    /// docs/) and `away` (a link to the folder outside); `secret/` beside it holds id_rsa.md.
    init() throws {
        files = try LibraryFixtures()
        inside = files.folder.appendingPathComponent("docs")
        outside = files.folder.appendingPathComponent("secret")
        try files.write("docs/a.md", "# A\n")
        try files.write("docs/sub/b.md", "# B\n")
        try files.write("secret/id_rsa.md", "PRIVATE KEY\n")
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: inside.appendingPathComponent("inner.md").path, withDestinationPath: "a.md")
        try manager.createSymbolicLink(
            atPath: inside.appendingPathComponent("escape.md").path, withDestinationPath: "../secret/id_rsa.md")
        try manager.createSymbolicLink(
            atPath: inside.appendingPathComponent("away").path, withDestinationPath: outside.path)
    }

    func names(_ urls: [URL]) -> [String] {
        urls.map { String($0.path.dropFirst(inside.path.count + 1)) }
    }

    @Test func aGlobSkipsAndSaysALinkLeavingItsFolder() throws {
        defer { files.remove() }
        let selection = FileSelection.select(["docs/*"], relativeTo: files.folder)
        #expect(!selection.files.contains { $0.path.contains("secret") || $0.lastPathComponent == "id_rsa.md" })
        #expect(names(selection.files) == ["a.md", "inner.md", "sub/b.md"])
        #expect(
            selection.skipped.map(\.path) == [
                inside.appendingPathComponent("away").path, inside.appendingPathComponent("escape.md").path,
            ])
        #expect(selection.skipped.allSatisfy { $0.reason.contains("leads out of \(inside.path)") })
        #expect(selection.missing.isEmpty)
        // Through a linked folder inside the pattern, the same.
        let deeper = FileSelection.select(["docs/*/*.md"], relativeTo: files.folder)
        #expect(names(deeper.files) == ["sub/b.md"])
        #expect(deeper.skipped.map(\.path) == [inside.appendingPathComponent("away/id_rsa.md").path])
    }

    @Test func aFolderWalkSaysTheLinksItSkips() throws {
        defer { files.remove() }
        let selection = FileSelection.select(["docs"], relativeTo: files.folder)
        #expect(names(selection.files) == ["a.md", "sub/b.md"])
        #expect(
            selection.skipped.map(\.path) == [
                inside.appendingPathComponent("away").path, inside.appendingPathComponent("escape.md").path,
            ])
        // A file named directly is the user's choice, link or not.
        let named = FileSelection.select(["docs/escape.md"], relativeTo: files.folder)
        #expect(named.files.count == 1 && named.skipped.isEmpty)
    }
}
