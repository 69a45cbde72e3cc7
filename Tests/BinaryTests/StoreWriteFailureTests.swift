import Foundation
import TestSupport
import Testing

/// A store that opens but cannot be written (made read-only, or on a full disk) loses the command's
/// exchanges with one plain line on stderr, naming the store and the cause: the answer is printed and the
/// exit status is what it would have been. The built binary against a loopback server. Tests run as root,
/// whom file modes do not stop: the store is made immutable (`chattr +i`: SQLite then opens it read-only),
/// and the full disk is a tiny tmpfs filled to the last byte.
@Suite("Inspector store write failures (binary)", .serialized)
struct StoreWriteFailureTests {
    /// True when this process can make a file immutable here (root, on a file system with attributes).
    static let canMakeImmutable: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("or-immutable-\(UUID().uuidString)")
            .path
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? Subprocess.runBlocking("/usr/bin/chattr", ["+i", probe], environment: [:]))?.status == 0 else {
            return false
        }
        _ = try? Subprocess.runBlocking("/usr/bin/chattr", ["-i", probe], environment: [:])
        return true
    }()

    /// True when this process can mount a tmpfs (root with the capability).
    static let canMountTmpfs: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("or-tmpfs-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard
            (try? Subprocess.runBlocking(
                "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], environment: [:]))?.status == 0
        else { return false }
        _ = try? Subprocess.runBlocking("/usr/bin/umount", [probe], environment: [:])
        return true
    }()

    @Test(.enabled(if: canMakeImmutable, "chattr +i is not available here"))
    func aReadOnlyStoreCostsOneLineAndTheAnswerIsStillPrinted() async throws {
        let harness = try await ConsoleHarness.start(route: echoRoute(counter: Counter()))
        defer { harness.close() }
        let store = harness.home.appendingPathComponent("inspector.sqlite").path
        let first = try await harness.run(["ask", "first"])
        try #require(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")

        let lock = try await Subprocess.run("/usr/bin/chattr", ["+i", store], environment: [:])
        try #require(lock.status == 0, "\(lock.stderr)")
        defer { _ = try? Subprocess.runBlocking("/usr/bin/chattr", ["-i", store], environment: [:]) }

        let ask = try await harness.run(["ask", "second"])
        #expect(ask.status == first.status)
        #expect(ask.stdout == "echo: second\n")
        #expect(ask.stderr == "warning: not recorded: the inspector store is read-only: \(store)\n", "\(ask.stderr)")
        // Nothing of it reached the store.
        let count = try await Subprocess.run(
            "/usr/bin/sqlite3", [store, "SELECT count(*) FROM exchange"], environment: [:])
        #expect(count.stdout == "1\n", "\(count.stderr)")
    }

    @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs is not allowed here"))
    func aFullDiskCostsOneLineAndTheAnswerIsStillPrinted() async throws {
        let harness = try await ConsoleHarness.start(route: echoRoute(counter: Counter()))
        defer { harness.close() }
        let disk = harness.home.path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try await Subprocess.run(
            "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk], environment: [:])
        try #require(mount.status == 0, "\(mount.stderr)")
        defer { _ = try? Subprocess.runBlocking("/usr/bin/umount", ["-l", disk], environment: [:]) }
        let store = harness.home.appendingPathComponent("inspector.sqlite").path
        let first = try await harness.run(["ask", "first"])
        try #require(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")

        // Every byte left taken: dd stops at "No space left on device".
        _ = try await Subprocess.run("/usr/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=4k"], environment: [:])

        let ask = try await harness.run(["ask", "second \(String(repeating: "filler ", count: 2000))"])
        #expect(ask.status == first.status)
        #expect(ask.stdout.hasPrefix("echo: second "))
        #expect(
            ask.stderr == "warning: not recorded: the disk holding the inspector store is full: \(store)\n",
            "\(ask.stderr)")
    }
}
