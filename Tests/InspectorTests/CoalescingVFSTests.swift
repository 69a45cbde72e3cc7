import CSQLiteSupport
import Foundation
import GRDB
import Testing

@testable import Inspector

/// The stores write through a VFS that gathers the WAL's small writes into larger ones (CoalescingVFS.c).
/// Whatever it holds back, another connection (with its own file handles, as another process has) and
/// SQLite's recovery after a crash (reading the files alone) must find every committed transaction whole.
@Suite("The WAL's gathered writes")
struct CoalescingVFSTests {
    @Test func theStoresWriteThroughIt() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let name = try await store.store.writer.write { db in try Self.vfsName(db) }
        #expect(name?.hasPrefix("openresponses/") == true, "\(name ?? "no name")")
    }

    @Test func aCommittedTransactionIsInTheFilesBeforeAnotherConnectionReadsIt() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.sqlite").path
        let writer = try Self.writer(path)
        // Blobs over several of the VFS's buffers (124 KB each), committed one transaction each and then together.
        let blobs = (0..<6).map { Data(Self.bytes(count: 150_000 + $0 * 4_099, seed: UInt64($0))) }
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)") }
        for blob in blobs.prefix(3) {
            try writer.write { db in try db.execute(sql: "INSERT INTO t (data) VALUES (?)", arguments: [blob]) }
        }
        try writer.write { db in
            for blob in blobs.dropFirst(3) { try db.execute(sql: "INSERT INTO t (data) VALUES (?)", arguments: [blob]) }
        }
        #expect(try Self.contents(ofStoreAt: path) == blobs)
        // What a crash at this point would leave: the database and its WAL as the files hold them.
        let copy = try Self.copyWithoutSharedMemory(path, to: directory.appendingPathComponent("crash"))
        #expect(try Self.contents(ofStoreAt: copy) == blobs)
        #expect(try Self.integrity(ofStoreAt: copy) == "ok")
        try writer.close()
    }

    /// With a small page cache, a long transaction spills pages into the WAL and changes some of them again:
    /// SQLite then overwrites those frames and rewrites the checksums of the frames after them, the
    /// committing frame's header last, at offsets behind the ones it appended. Recovery checks each
    /// frame's checksum: a rewritten header held back would lose the whole transaction.
    @Test func checksumsRewrittenAtTheCommitReachTheFiles() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("b.sqlite").path
        let writer = try Self.writer(path, cachePages: 10)
        var random = Self.Generator(seed: 7)
        var keys: [Int64] = []
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE u (k INTEGER, v BLOB); CREATE INDEX u_k ON u (k)")
            for _ in 0..<3_000 {
                let key = Int64(random.next() % 1_000_000)
                keys.append(key)
                try db.execute(
                    sql: "INSERT INTO u (k, v) VALUES (?, ?)",
                    arguments: [key, Data(Self.bytes(count: 300, seed: UInt64(key)))])
            }
        }
        let copy = try Self.copyWithoutSharedMemory(path, to: directory.appendingPathComponent("crash"))
        let recovered = try DatabaseQueue(path: copy)
        #expect(try recovered.read { try Int64.fetchAll($0, sql: "SELECT k FROM u ORDER BY rowid") } == keys)
        #expect(try Self.integrity(ofStoreAt: copy) == "ok")
        try writer.close()
    }

    /// A transaction that spilled pages into the WAL and was then rolled back leaves frames SQLite never
    /// publishes; another connection then writes its own frames at the same offsets. Whatever the first
    /// connection held back must reach the file before it gives up the write lock (SQLite 3.40 itself touches
    /// the WAL on the way, which flushes it; the VFS flushes at every shared-memory lock besides), never
    /// later over the other connection's committed frames.
    @Test func framesOfARolledBackTransactionNeverLandOnAnotherConnectionsCommit() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.sqlite").path
        let first = try Self.writer(path, cachePages: 10)
        try first.write { db in try db.execute(sql: "CREATE TABLE v (k INTEGER, v BLOB)") }
        struct RollBack: Error {}
        // Rows appended in order, 100 KB: pages spill into the WAL, within the VFS's 124 KB.
        #expect(throws: RollBack.self) {
            try first.write { db in
                for key in 0..<100 {
                    try db.execute(
                        sql: "INSERT INTO v (k, v) VALUES (?, ?)",
                        arguments: [1000 + key, Data(Self.bytes(count: 1000, seed: 1))])
                }
                throw RollBack()
            }
        }
        let second = try Self.writer(path)
        let rows = (0..<40).map { Data(Self.bytes(count: 500, seed: UInt64(100 + $0))) }
        try second.write { db in
            for (key, row) in rows.enumerated() {
                try db.execute(sql: "INSERT INTO v (k, v) VALUES (?, ?)", arguments: [key, row])
            }
        }
        // The first connection reads (its WAL's next call), then a third one checks.
        _ = try? first.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM v") }
        let third = try DatabaseQueue(path: path)
        #expect(try Self.integrity(ofStoreAt: path) == "ok")
        #expect(try third.read { try Data.fetchAll($0, sql: "SELECT v FROM v ORDER BY k") } == rows)
        try first.close()
        try second.close()
    }

    // MARK: - Helpers

    static func directory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-vfs-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A connection through the gathering VFS, in WAL mode, never checkpointing on its own, syncing as the
    /// stores do (NORMAL: at checkpoints only; FULL would sync, and so flush, at every commit).
    static func writer(_ path: String, cachePages: Int? = nil) throws -> DatabaseQueue {
        #expect(openresponses_sqlite_use_coalescing_vfs() == SQLITE_OK)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0")
            if let cachePages { try db.execute(sql: "PRAGMA cache_size = \(cachePages)") }
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try queue.read { try Self.vfsName($0) }?.hasPrefix("openresponses/") == true)
        return queue
    }

    /// The blobs of table `t`, read by a connection of its own.
    static func contents(ofStoreAt path: String) throws -> [Data] {
        try DatabaseQueue(path: path).read { try Data.fetchAll($0, sql: "SELECT data FROM t ORDER BY id") }
    }

    /// What SQLite's `integrity_check` says of the store, read by a connection of its own.
    static func integrity(ofStoreAt path: String) throws -> String? {
        try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
    }

    /// The database and its WAL copied into `directory` (no shared memory: opening the copy recovers it).
    static func copyWithoutSharedMemory(_ path: String, to directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("copy.sqlite").path
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        return copy
    }

    /// The name SQLite gives the VFS of the connection's main database.
    static func vfsName(_ db: Database) throws -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_VFSNAME, &name) == SQLITE_OK else {
            return nil
        }
        defer { sqlite3_free(name) }
        return name.map { String(cString: $0) }
    }

    static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 32) }
    }

    /// A small deterministic generator (the same bytes on every run).
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }
}
