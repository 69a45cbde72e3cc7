import Foundation
import GRDB
import Inspector
import StoreSupport
import Synchronization
import TestSupport
import Testing

/// Opening a store from several openers at once (each on a connection and a lock of its own, as separate
/// processes have), and opening a damaged one. (Several processes finding the same damage are tested with
/// real processes in `StoreReliabilityTests`: within one process SQLite shares its locks per file, which
/// renaming files under it confuses, so threads would not stand for processes there.)
@Suite("Inspector store opening under contention and damage")
struct StoreOpenerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-opener-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("inspector.sqlite").path }

    /// Opens the store on `count` threads released together; the errors, if any. Waited for off the
    /// concurrency pool (`Blocking`).
    func openTogether(_ count: Int) async -> [String] {
        await Blocking.run { [path] in
            let errors = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<count {
                done.enter()
                Thread.detachNewThread {
                    start.wait()
                    do { _ = try InspectorStore.open(at: path) } catch { errors.withLock { $0.append("\(error)") } }
                    done.leave()
                }
            }
            for _ in 0..<count { start.signal() }
            done.wait()
            return errors.withLock { $0 }
        }
    }

    @Test func openersStartingTogetherOnANewStoreAllSucceedAndMigrateOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        for _ in 0..<5 {
            try? FileManager.default.removeItem(at: directory)
            let errors = await openTogether(8)
            #expect(errors.isEmpty, "\(errors)")
            let store = try InspectorStore.open(at: path)
            let applied = try await store.writer.read {
                try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations")
            }
            #expect(applied.count == Set(applied).count)
            #expect(applied.last == "v17-team-push")
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let directoryMode =
                try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? NSNumber
            #expect(directoryMode?.intValue == 0o700)
        }
    }

    @Test func aDamagedStoreSaysWhereItWentWithItsWALAndSharedMemory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("this is not SQLite at all, and it is long enough to have a header....".utf8).write(
            to: URL(fileURLWithPath: path))
        try Data("wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC
        let store = try InspectorStore.open(at: path, now: now)
        let repaired = try #require(store.repaired)
        #expect(repaired.movedTo == path + ".damaged-20261118-110640")
        #expect(repaired.reason == "file is not a database")
        // The old WAL went with it (SQLite may have emptied it): the new store's is not the old one.
        #expect(FileManager.default.contents(atPath: path + "-wal") != Data("wal".utf8))
        #expect(
            repaired.description
                == "\(path) was damaged (file is not a database); it was moved to \(repaired.movedTo) and a new store was created"
        )
        // A second damage in the same second gets a name of its own.
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: path))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let again = try InspectorStore.open(at: path, now: now)
        #expect(again.repaired?.movedTo == path + ".damaged-20261118-110640-2")
    }

    /// Holds the lock the openers take on the store's directory (as another process migrating would) while
    /// `body` runs, all on a thread of its own (`Blocking`): the openers wait, and the test's thread with
    /// them; and the lock goes when `body` ends, not when the concurrency pool next runs the test.
    func holdingMigrationLock<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await Blocking.run { [directory] in
            let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
            guard descriptor >= 0 else { throw SubprocessError("cannot open \(directory.path) (errno \(errno))") }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX) == 0 else {
                throw SubprocessError("cannot lock \(directory.path) (errno \(errno))")
            }
            defer { flock(descriptor, LOCK_UN) }
            return try body()
        }
    }

    @Test func anOpenerWaitsForAnotherProcessMigratingThenFindsTheWorkDone() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let opened = Mutex<Result<InspectorStore, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let whileHeld = try await holdingMigrationLock { [path] in
            Thread.detachNewThread {
                opened.withLock { $0 = Result { try InspectorStore.open(at: path) } }
                done.signal()
            }
            return done.wait(timeout: .now() + .milliseconds(500)) == .timedOut
        }
        #expect(whileHeld, "still waiting while the lock is held")
        let afterwards = await Blocking.run { done.wait(timeout: .now() + .seconds(30)) == .success }
        #expect(afterwards)
        let store = try #require(try opened.withLock { $0 }?.get())
        #expect(try await store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM exchange") } == 0)
    }

    @Test func aLockHeldLongerThanThePatienceIsAPassingErrorThatSaysSo() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = try await holdingMigrationLock { [path] () -> StoreOpenError? in
            do {
                _ = try InspectorStore.open(at: path, patience: .milliseconds(300))
                return nil
            } catch let error as StoreOpenError {
                return error
            }
        }
        let failure = try #require(error)
        #expect(failure.isPassing)
        #expect(
            failure.description
                == "cannot open \(path): another process has been migrating the store for over 0.3 seconds")
    }
}
