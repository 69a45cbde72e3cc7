import Foundation
import Testing

@testable import Inspector

/// Opening the store (migrations checked, interrupted exchanges marked) uses the writer's connection alone: a
/// pool opens a reader's connection for its first read, and a short command reads nothing else, so every
/// tiny `ask` would open the database, its WAL and their shared memory twice (about a millisecond).
@Suite("The store's connections at opening", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
struct StoreConnectionTests {
    @Test func openingAStoreOpensOneConnection() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-connections-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("inspector.sqlite").path
        // A new store (created and migrated), then the same store opened again as the next command would.
        for round in ["new", "existing"] {
            // The last round's store is let go on the thread that opened it: its connection closes when that
            // thread is done with it, later under load (seen: two descriptors while the suite ran beside others).
            let deadline = Date().addingTimeInterval(5)
            while Self.descriptors(of: path) > 0 && Date() < deadline { usleep(10_000) }
            #expect(Self.descriptors(of: path) == 0, "the \(round == "new" ? "" : "last ")store's connection is closed")
            let opening = StoreOpening(storeAt: path, now: Date())
            let store = try opening.wait().get()
            #expect(Self.descriptors(of: path) == 1, "\(round) store")
            _ = store
        }
    }

    /// How many of this process's file descriptors are open on `path` itself (not its -wal or -shm).
    static func descriptors(of path: String) -> Int {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == resolved
        }.count
    }
}
