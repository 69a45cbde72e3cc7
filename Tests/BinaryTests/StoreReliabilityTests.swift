import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The inspector loses nothing when processes open a new store together or the store is damaged: the
/// built binary against a loopback server, as a user's shell loops run it.
@Suite("Inspector store reliability (binary)", .serialized)
struct StoreReliabilityTests {
    /// Four shell loops of 25 asks each, started together against an empty data directory, several times.
    @Test func fourProcessesOfTwentyFiveAsksOnANewStoreRecordEveryExchange() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        defer { Task { await server.stop() } }
        for round in 1...8 {
            let harness = ConsoleHarness(server: server)
            defer { harness.remove() }
            let results = try await withThrowingTaskGroup(of: [Subprocess.Result].self) { group in
                for loop in 0..<4 {
                    group.addTask {
                        var results: [Subprocess.Result] = []
                        for index in 0..<25 {
                            results.append(
                                try await harness.run(["ask", "loop \(loop) ask \(index)"]))
                        }
                        return results
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(results.count == 100)
            let failures = results.filter { $0.status != 0 || !$0.stderr.isEmpty }
            #expect(
                failures.isEmpty, "round \(round): \(failures.first.map { "status \($0.status): \($0.stderr)" } ?? "")")
            let count = try await Subprocess.run(
                "/usr/bin/sqlite3",
                [
                    harness.home.appendingPathComponent("inspector.sqlite").path,
                    "SELECT count(*), count(DISTINCT input_text) FROM exchange WHERE state = 'completed'",
                ], environment: [:])
            #expect(count.stdout == "100|100\n", "round \(round): \(count.stdout) \(count.stderr)")
        }
    }

    @Test(arguments: ["garbage", "truncated"])
    func aDamagedStoreIsMovedAsideAndTheNextAskIsRecorded(damage: String) async throws {
        let harness = try await ConsoleHarness.start(route: echoRoute(counter: Counter()))
        defer { harness.close() }
        let binary = Subprocess.openresponsesBinary
        let store = harness.home.appendingPathComponent("inspector.sqlite").path
        // A real store with some exchanges, its WAL folded in, then damaged.
        for index in 0..<3 {
            let ask = try await Subprocess.run(
                binary, ["ask", "\(String(repeating: "filler ", count: 400)) \(index)"], environment: harness.variables)
            try #require(ask.status == 0, "\(ask.stderr)")
        }
        let fold = try await Subprocess.run(
            "/usr/bin/sqlite3", [store, "PRAGMA wal_checkpoint(TRUNCATE)"], environment: [:])
        try #require(fold.status == 0, "\(fold.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: store))
        let damaged: Data
        if damage == "garbage" {
            var generator = SystemRandomNumberGenerator()
            damaged = Data((0..<original.count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        } else {
            try #require(original.count >= 4 * 4096, "the store is \(original.count) bytes")
            damaged = original.prefix(original.count / 2)
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        try damaged.write(to: URL(fileURLWithPath: store))

        let ask = try await Subprocess.run(binary, ["ask", "after the damage"], environment: harness.variables)
        #expect(ask.status == 0)
        #expect(ask.stdout == "echo: after the damage\n")
        let aside = try FileManager.default.contentsOfDirectory(atPath: harness.home.path).filter {
            $0.hasPrefix("inspector.sqlite.damaged-")
        }
        #expect(aside.count == 1, "\(aside)")
        let movedTo = harness.home.appendingPathComponent(try #require(aside.first)).path
        #expect(ask.stderr.hasPrefix("note: the inspector's \(store) was damaged ("), "\(ask.stderr)")
        #expect(ask.stderr.hasSuffix("; it was moved to \(movedTo) and a new store was created\n"), "\(ask.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == damaged)

        let list = try await Subprocess.run(binary, ["inspect", "list", "--json"], environment: harness.variables)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.isEmpty)
        let rows = try #require(try JSONValue.parse(Array(list.stdout.utf8)).arrayValue)
        #expect(rows.count == 1)
        #expect(rows.first?["state"] == "completed")
    }

    /// A new data directory whose inspector store is 8 KB of garbage.
    func homeWithGarbageStore() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: home.appendingPathComponent("inspector.sqlite"))
        return home
    }

    /// `ask` begins opening the store before its arguments are parsed: when they turn out malformed, the
    /// repair of a damaged store is still finished and told, and the usage error is the same as ever.
    @Test func aMalformedAskStillTellsOfTheDamagedStoreItReplaced() async throws {
        let home = try homeWithGarbageStore()
        defer { try? FileManager.default.removeItem(at: home) }
        let ask = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "--no-such-flag", "hello"],
            environment: ["OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin"])
        #expect(ask.status == 64)  // ArgumentParser's usage error (EX_USAGE), as without a store
        #expect(
            ask.stderr.contains(
                "note: the inspector's \(home.path)/inspector.sqlite was damaged (file is not a database); it was moved to \(home.path)/inspector.sqlite.damaged-"
            ), "\(ask.stderr)")
        #expect(ask.stderr.contains("Unknown option '--no-such-flag'"), "\(ask.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(names.filter { $0.hasPrefix("inspector.sqlite.damaged-") }.count == 1, "\(names)")
        #expect(!names.contains { $0.hasPrefix("inspector.sqlite.new-") }, "\(names)")
    }

    @Test func inspectMovesADamagedStoreAsideInsteadOfFailing() async throws {
        let home = try homeWithGarbageStore()
        defer { try? FileManager.default.removeItem(at: home) }
        let list = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["inspect", "list"],
            environment: ["OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stderr.contains(
                "was damaged (file is not a database); it was moved to \(home.path)/inspector.sqlite.damaged-"),
            "\(list.stderr)")
        #expect(!list.stderr.contains("SQLite error"))
    }

    @Test func processesFindingTheSameDamageMoveItAsideOnce() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-damaged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        for round in 1...3 {
            try? FileManager.default.removeItem(at: home)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try Data(repeating: 0xA5, count: 16384).write(to: home.appendingPathComponent("inspector.sqlite"))
            let environment = ["OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin"]
            let results = try await withThrowingTaskGroup(of: Subprocess.Result.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await Subprocess.run(
                            Subprocess.openresponsesBinary, ["inspect", "list", "--json"], environment: environment)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(
                results.allSatisfy { $0.status == 0 && $0.stdout == "[]\n" }, "round \(round): \(results.map(\.stderr))"
            )
            #expect(
                results.filter { $0.stderr.contains("was damaged") }.count == 1,
                "round \(round): \(results.map(\.stderr))")
            let aside = try FileManager.default.contentsOfDirectory(atPath: home.path).filter {
                $0.hasPrefix("inspector.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
            }
            #expect(aside.count == 1, "round \(round): \(aside)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path).filter {
                $0.contains(".new-")
            }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
    }
}
