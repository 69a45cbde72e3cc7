import Foundation
import Testing
import Untrusted

@testable import Console

/// A file named by a server is created new: never over an existing file, never through a planted link.
@Suite("ServerNamedFile")
struct ServerNamedFileTests {
    @Test func aSecondFileOfTheSameNameGoesBesideTheFirstAndALinkIsNotFollowed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "named-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = SafeFileName(stem: "ig_1", extension: "png")
        let first = try ServerNamedFile.create(Data("one".utf8), in: folder, name: name)
        let second = try ServerNamedFile.create(Data("two".utf8), in: folder, name: name)
        #expect(first.lastPathComponent == "ig_1.png")
        #expect(second.lastPathComponent == "ig_1-2.png")
        #expect(try String(contentsOf: first, encoding: .utf8) == "one")
        // A link planted at the next name: skipped, its target untouched.
        let target = folder.appendingPathComponent("target")
        try "mine".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("ig_1-3.png").path, withDestinationPath: target.path)
        let third = try ServerNamedFile.create(Data("three".utf8), in: folder, name: name)
        #expect(third.lastPathComponent == "ig_1-4.png")
        #expect(try String(contentsOf: target, encoding: .utf8) == "mine")
    }
}
