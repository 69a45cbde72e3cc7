import CSQLiteSupport
import Foundation
import GRDB

/// Opens a store file (the inspector's, the library's) safely when other processes open it too, and when it is damaged:
/// - the file is created with mode 0600 (SQLite gives the -wal and -shm files the same mode), in a
///   directory created 0700;
/// - pending migrations run under `MigrationLock`, and GRDB's migrator, which reads what is applied once
///   it holds the lock, finds the work of a process that migrated first already done;
/// - SQLITE_BUSY or SQLITE_LOCKED from another process (a WAL being recovered, a lock held long) is
///   retried with growing pauses for up to `patience`, then reported as a passing `StoreOpenError`;
/// - SQLITE_NOTADB or SQLITE_CORRUPT moves the file aside (`DamagedStore`) and creates a new store; under
///   the lock, and only after opening it once more, so that two processes finding the same damage move
///   it once and never move aside the store the other has just made. Any other error of the first
///   opening is tried again the same way: it can be a glimpse of another process moving the files.
public struct StoreOpener: Sendable {
    public var path: String
    public var now: Date
    public var patience: Duration
    public var migrator: DatabaseMigrator
    public var configuration: Configuration
    var clock = ContinuousClock()

    public init(path: String, now: Date, patience: Duration, migrator: DatabaseMigrator, configuration: Configuration) {
        self.path = path
        self.now = now
        self.patience = patience
        self.migrator = migrator
        self.configuration = configuration
    }

    /// An opened store: its pool, and the damaged file moved aside to make it, if one was.
    public struct Opened: Sendable {
        public var pool: DatabasePool
        public var repaired: DamagedStore?
    }

    var directory: String { (path as NSString).deletingLastPathComponent }

    public func open() throws -> Opened {
        let deadline = clock.now.advanced(by: patience)
        var pause = Duration.milliseconds(20)
        // A move made by this process, kept across the busy retries: the new store can be busy for a
        // moment (another process opening it too), and the move must still be reported once.
        var moved: DamagedStore?
        while true {
            do {
                do {
                    return try openOnce(lockHeld: false, repaired: moved)
                } catch let error as DatabaseError where !Self.isBusy(error) {
                    // Damage, or a glimpse of another process moving a damaged store aside (an I/O or
                    // read-only error: the main file of one store, the -shm of the other): under the lock,
                    // where every move happens, open it again and repair what is still damaged.
                    return try repair(moved: &moved)
                }
            } catch let error as DatabaseError where Self.isBusy(error) {
                guard clock.now < deadline else {
                    throw StoreOpenError(
                        path: path, reason: "it stayed busy for \(patience): \(error.message ?? "\(error)")",
                        isPassing: true)
                }
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
                pause = min(pause * 2, .milliseconds(500))
            }
        }
    }

    /// Opens and migrates the store once. Migrations run under the lock unless the caller holds it.
    func openOnce(lockHeld: Bool, repaired: DamagedStore? = nil) throws -> Opened {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: path) {
            let fd = Foundation.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        // The WAL's writes gathered into larger ones (CoalescingVFS.c); should it fail to register, SQLite's
        // own VFS writes the same bytes, frame by frame.
        _ = openresponses_sqlite_use_coalescing_vfs()
        let pool = try DatabasePool(path: path, configuration: configuration)
        // Reading the schema also finds a damaged file: a truncated one fails here with SQLITE_CORRUPT. Read on
        // the writer's connection: a pool opens a reader's only for its first read, and a short command (a
        // tiny `ask`) reads nothing else, so it opens one connection instead of two.
        if try !pool.writeWithoutTransaction(migrator.hasCompletedMigrations) {
            if lockHeld {
                try migrator.migrate(pool)
            } else {
                try MigrationLock.holding(directory: directory, for: path, timeout: patience) {
                    try migrator.migrate(pool)
                }
            }
        }
        return Opened(pool: pool, repaired: repaired)
    }

    /// The store was found damaged: under the lock, opens it again (another process may have repaired
    /// it meanwhile); if it is still damaged, moves it aside and creates a new one. `moved` records the
    /// move before the new store is opened, so that a busy error opening it does not lose the report.
    func repair(moved: inout DamagedStore?) throws -> Opened {
        try MigrationLock.holding(directory: directory, for: path, timeout: patience) {
            do {
                return try openOnce(lockHeld: true, repaired: moved)
            } catch let again as DatabaseError where Self.isDamage(again) {
                moved = try DamagedStore.moveAside(path, reason: again.message ?? "\(again)", now: now)
                return try openOnce(lockHeld: true, repaired: moved)
            }
        }
    }

    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}
