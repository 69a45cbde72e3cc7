#if TeamInspector
    import Foundation
    import TestSupport
    import Testing

    /// A data directory copied to another machine carries the store's identity, by which the team store tells
    /// whose exchange 2 is which: the copy's exchange 2 would read as already there, and be lost. The push sees
    /// another request under that identity and id, takes a new identity and sends it again.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamIdentityTests {
        @Test func aCopiedDataDirectoryLosesNothing() async throws {
            let teamURL = TeamCluster.url(of: try TeamCluster.freshDatabase())
            let upstream = try await LoopbackServer.start(route: answeringRoute { _, input in "answer to \(input)" })
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-copy-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let first = root.appendingPathComponent("first")
            let copy = root.appendingPathComponent("copy")
            func ask(_ home: URL, _ prompt: String) async throws -> Subprocess.Result {
                try await TeamCluster.ask(prompt, home: home, upstream: upstream, teamURL: teamURL)
            }
            let before = try await ask(first, "before the copy")
            try #require(before.status == 0, "\(before.stderr)")
            try FileManager.default.copyItem(at: first, to: copy)

            let onFirst = try await ask(first, "zanzibar on the first machine")
            #expect(onFirst.status == 0 && !onFirst.stderr.contains("note:"), "\(onFirst.stderr)")
            let onCopy = try await ask(copy, "quagga on the copy")
            #expect(onCopy.status == 0, "\(onCopy.stderr)")
            #expect(onCopy.stderr.contains("took a new one"), "the copy says it: \(onCopy.stderr)")
            let again = try await ask(copy, "okapi on the copy")
            #expect(again.status == 0 && !again.stderr.contains("note:"), "said once: \(again.stderr)")

            let count = try InspectorEngine.psql(teamURL, "SELECT count(*), count(DISTINCT origin) FROM exchange")
            #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "4|2", "each exchange once")
            for word in ["before", "zanzibar", "quagga", "okapi"] {
                let found = try InspectorEngine.psql(
                    teamURL,
                    "SELECT count(*) FROM exchange WHERE search @@ plainto_tsquery('simple', '\(word)')")
                #expect(found.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(word)")
            }
        }
    }
#endif
