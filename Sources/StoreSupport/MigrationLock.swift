import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serialises the migration of a store across processes. GRDB's migrator reads which migrations are
/// applied before it runs them, each in a transaction of its own, so two processes opening a new store at
/// once could both run the same migration, and the loser failed ("duplicate column name"). GRDB's advice
/// for a database shared between processes is to migrate under a coordinator (`NSFileCoordinator` on
/// Apple platforms); this is the same idea with `flock(2)` on the store's directory, which Linux and macOS
/// both have and which leaves no file behind. The lock is held only while the migrator runs, and only when
/// the store has migrations to apply, so opening a current store never takes it.
enum MigrationLock {
    /// Runs `body` holding the lock on `directory`, waiting for it for at most `timeout`, polling: a
    /// blocked `flock` cannot be bounded, and a migration holds it for milliseconds.
    /// Errors name `store`, the store being opened.
    static func holding<T>(
        directory: String, for store: String, timeout: Duration, clock: ContinuousClock = ContinuousClock(),
        _ body: () throws -> T
    ) throws -> T {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw StoreOpenError(
                path: store, reason: "cannot open the directory to lock it: \(String(cString: strerror(errno)))")
        }
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(5)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(descriptor)
                throw StoreOpenError(
                    path: store, reason: "cannot lock the directory: \(String(cString: strerror(failure)))")
            }
            guard clock.now < deadline else {
                close(descriptor)
                throw StoreOpenError(
                    path: store, reason: "another process has been migrating the store for over \(timeout)",
                    isPassing: true)
            }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(100))
        }
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try body()
    }
}
