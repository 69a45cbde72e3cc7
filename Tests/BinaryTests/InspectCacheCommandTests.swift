import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses inspect cache` as a user meets it: a console session piped three turns, the second with a
/// new timestamp in its instructions, against a loopback server that caches prompts as OpenAI does.
@Suite("inspect cache")
struct InspectCacheCommandTests {
    @Test func aTimestampInTheInstructionsIsExplainedWithItsByteOffsetAndItsCost() async throws {
        let server = try await LoopbackServer.start(route: cachingRoute())
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let script = """
            /set instructions Now: 2026-11-28T10:14
            first
            /set instructions Now: 2026-11-28T10:15
            second
            third

            """
        let chat = try await harness.run(["chat", "--model", "gpt-4.1-mini"], stdin: Array(script.utf8))
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(server.requests.count == 3)
        await server.stop()

        // The misses are listed, the hit counted; 2,100 tokens of turn 1 could have been 2,048 cached.
        let text = try await harness.run(["inspect", "cache"])
        #expect(text.status == 0, "\(text.stderr)")
        // The seconds between turns are the machine's: compared as N.
        let shown = text.stdout.replacingOccurrences(
            of: #"\d+ s apart"#, with: "N s apart", options: .regularExpression)
        #expect(
            shown == """
                #1 → #2  (chained, N s apart)  gpt-4.1-mini-2025-04-14  cached 0 of 2,200 input tokens
                  instructions differ at byte 20: `2026-11-28T10:14` vs `2026-11-28T10:15`, a timestamp
                  lost: 2,048 of 2,048 cacheable tokens at full price, $0.0006
                2 pairs of 3 requests: 1 hit, 1 broken prefix; lost 2,048 tokens at the cached price, $0.0006.

                """)

        // With an id, the chain's every pair; as JSON, the figures exactly.
        let json = try await harness.run(["inspect", "cache", "3", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONValue.parse(json.stdout)
        let pairs = report["pairs"]?.arrayValue ?? []
        #expect(pairs.map { $0["later"]?["id"]?.intValue } == [2, 3])
        #expect(pairs.map { $0["verdict"]?.stringValue } == ["broken", "hit"])
        #expect(pairs.first?["break"]?["where"] == "instructions")
        #expect(pairs.first?["break"]?["text"]?["offset"] == 20)
        #expect(pairs.first?["break"]?["text"]?["kind"] == "timestamp")
        #expect(pairs.last?["later"]?["cached_tokens"] == 2176)
        #expect(report["lost_tokens"] == 2048)

        let stats = try await harness.run(["inspect", "stats"])
        #expect(stats.stdout.contains("CACHED"))
        #expect(stats.stdout.contains(" 33% "), "2,176 of 6,600 input tokens cached: \(stats.stdout)")

        let missing = try await harness.run(["inspect", "cache", "99"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no exchange 99"))
    }

    @Test func nothingToPairIsSaidPlainly() async throws {
        let server = try await LoopbackServer.start(route: cachingRoute())
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        // As every inspect command says it before anything is recorded.
        let none = try await harness.run(["inspect", "cache"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no inspector store yet"))
        _ = try await harness.run(["ask", "one question"])
        let old = try await harness.run(["inspect", "cache", "--since", "2999-01-01"])
        #expect(old.stdout == "No /responses requests recorded in that time.\n")
        await server.stop()
        let one = try await harness.run(["inspect", "cache", "--since", "1h"])
        #expect(one.stdout.hasPrefix("1 request, none that could reuse an earlier one's prompt"))
    }
}
