import Foundation

/// A store file that SQLite could not read (not a database, or corrupt), moved aside so that a new store
/// could take its place. Nothing is deleted: the old file (with its -wal and -shm) keeps its bytes.
public struct DamagedStore: Sendable, Hashable, CustomStringConvertible {
    /// Where the store was.
    public var path: String
    /// Where the damaged file is now.
    public var movedTo: String
    /// What SQLite said of it.
    public var reason: String

    public var description: String {
        "\(path) was damaged (\(reason)); it was moved to \(movedTo) and a new store was created"
    }

    /// Moves `path` (and its -wal and -shm) aside to `PATH.damaged-YYYYMMDD-HHMMSS` (with a suffix if that
    /// name is taken), the time in UTC, and leaves an empty file (mode 0600) at `path` in the same step: the
    /// -wal and -shm go first, then the damaged file gets its second name and an empty file is renamed over
    /// the first, so another process looking at `path` meanwhile finds the damaged store or the new one,
    /// never nothing. Where hard links are refused, the two renames leave a moment without a file.
    public static func moveAside(_ path: String, reason: String, now: Date) throws -> DamagedStore {
        let stamp = Self.stamp(now)
        var target = "\(path).damaged-\(stamp)"
        var suffix = 2
        while FileManager.default.fileExists(atPath: target) {
            target = "\(path).damaged-\(stamp)-\(suffix)"
            suffix += 1
        }
        func failure(_ what: String) -> StoreOpenError {
            StoreOpenError(
                path: path,
                reason:
                    "it is damaged (\(reason)) and cannot be moved aside: \(what): \(String(cString: strerror(errno)))")
        }
        for extra in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + extra) {
            guard rename(path + extra, target + extra) == 0 else { throw failure("renaming its \(extra)") }
        }
        let empty = "\(path).new-\(getpid())"
        let fd = Foundation.open(empty, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("creating \(empty)") }
        close(fd)
        if link(path, target) == 0 {
            guard rename(empty, path) == 0 else {
                unlink(empty)
                throw failure("replacing it")
            }
        } else {
            unlink(empty)
            guard rename(path, target) == 0 else { throw failure("renaming it") }
        }
        return DamagedStore(path: path, movedTo: target, reason: reason)
    }

    static func stamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02d-%02d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
